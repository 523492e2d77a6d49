extension Injector {
    /// A key resolved ahead of time: each ``get()`` runs the key's compiled plan with no lookup.
    ///
    /// Take a handle once for a key you request often, such as a singleton read on a hot path,
    /// and keep it:
    ///
    /// ```swift
    /// let logger = try injector.handle(for: Logger.self)   // validates and finds the key once
    /// for line in lines {
    ///     try logger.get().log(line)                      // same instance as getInstance
    /// }
    /// ```
    ///
    /// A handle gives exactly what ``Injector/getInstance(_:)-(Value.Type)`` gives for its key:
    /// the singleton of a singleton binding, a new instance of an unscoped one. It keeps its
    /// injector alive.
    public struct Handle<Value>: Sendable {
        @usableFromInline let injector: Injector
        let node: Node<Value>
        @usableFromInline let storage: TypedStorage<Value>?

        /// The instance for the handle's key.
        ///
        /// ```swift
        /// let clock = try injector.handle(for: Clock.self)
        /// let now = try clock.get().now
        /// ```
        ///
        /// - Throws: an ``InjectionError`` when building the instance fails, as
        ///   ``Injector/getInstance(_:)-(Value.Type)`` would.
        @inlinable
        public func get() throws(InjectionError) -> Value {
            // An existing instance is read where the handle is used, specialized for its type.
            if let value = storage?.existing, injector.isServing { return value }
            return try build()
        }

        @usableFromInline
        func build() throws(InjectionError) -> Value {
            try injector.run(node)
        }
    }

    /// A handle that gets instances of a type's key without looking the key up again.
    ///
    /// ```swift
    /// let logger = try injector.handle(for: Logger.self)
    /// try logger.get().log("ready")
    /// ```
    ///
    /// - Throws: an ``InjectionError`` when nothing can build the type (it is compiled and
    ///   validated here, on first use, like a first `getInstance`), or when it takes
    ///   dynamic arguments, which a handle cannot pass.
    public func handle<Value>(for type: Value.Type) throws(InjectionError) -> Handle<Value> {
        try handle(for: Key<Value>())
    }

    /// A handle that gets instances of a key without looking it up again.
    ///
    /// ```swift
    /// let endpoint = try injector.handle(for: Key<String>(named: "endpoint"))
    /// print(try endpoint.get())
    /// ```
    public func handle<Value>(for key: Key<Value>) throws(InjectionError) -> Handle<Value> {
        let node = try compiledNode(Value.self, name: key.name)
        if let signature = node.signature {
            throw argumentCountError(key.erased, signature: signature, passed: [])
        }
        return Handle(injector: self, node: node, storage: TypedStorage(node.storage))
    }
}
