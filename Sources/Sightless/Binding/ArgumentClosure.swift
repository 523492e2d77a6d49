// A closure binding that receives the dynamic arguments of the request, like Blindside's
// `bind:toBlock:` and Swinject's `register(T.self) { r, a, b in … }`. Its arguments are the
// recipe's dynamic dependencies, so the graph checks `Factory<T, A…>` edges and scopes against
// them when the injector is built, and a request's arguments against its signature.

extension BindingBuilder {
    /// Binds the key to a closure that receives the request's dynamic arguments after the
    /// ``Resolver``: a request passes them with `getInstance(_:arguments:)`, and a consumer
    /// injects a `Factory<Value, A…>` of exactly these types.
    ///
    /// ```swift
    /// binder.bind(Screen.self).to { (resolver, title: String) in
    ///     Screen(feed: try resolver.getInstance(FeedService.self), title: title)
    /// }
    /// let screen = try injector.getInstance(Screen.self, arguments: "Inbox")
    /// ```
    ///
    /// The argument types are checked when the injector is built against every
    /// `Factory<Value, A…>` that makes the key, and at each request against the values
    /// passed; such a key cannot be kept in a scope that shares values.
    @discardableResult
    public func to<First, each Argument>(
        _ make: @escaping @Sendable (Resolver, First, repeat each Argument) throws -> Value
    ) -> ScopedBindingBuilder<Value> {
        binder.replace(at: index, with: .argumentClosure(key, location: location, make: make))
        return ScopedBindingBuilder(binder: binder, index: index)
    }
}

extension Recipe {
    static func argumentClosure<Value, First, each Argument>(
        _ key: Key<Value>, location: SourceLocation,
        make: @escaping @Sendable (Resolver, First, repeat each Argument) throws -> Value
    ) -> Recipe {
        var dependencies = [dynamicArgument(First.self, position: 1, location: location)]
        func add<Other>(_ type: Other.Type) {
            dependencies.append(dynamicArgument(Other.self, position: dependencies.count + 1, location: location))
        }
        repeat add((each Argument).self)
        let arguments = dependencies
        return Recipe(key, source: .closure, location: location, dependencies: arguments) { linker in
            let cursor = DynamicPlanCursor(arguments, linker)
            let first = cursor.next(First.self)
            let rest = (repeat cursor.next((each Argument).self))
            let rethrow = linker.rethrow
            // Taking creation-time arguments, it may ask for its own key with others: the graph
            // decided that is a recursion (`Meaning.Reentry`), bounded by the stack and `tooDeep`.
            let reentry = ReentryGuard(linker.reentry)
            let erased = key.erased
            return { resolution in
                let head = try first(&resolution)
                let values = (repeat try (each rest)(&resolution))
                return try reentry.enter(&resolution, key: erased, rethrow: rethrow) { injector in
                    try make(Resolver(injector: injector), head, repeat each values)
                }
            }
        }
    }

    private static func dynamicArgument<Argument>(
        _ type: Argument.Type, position: Int, location: SourceLocation
    ) -> Dependency {
        Dependency(role: .argument(position), key: AnyKey(type: Argument.self, name: nil), isDynamic: true, location: location)
    }
}

/// Hands out the plans that read a closure's dynamic arguments, one per argument, in order.
private final class DynamicPlanCursor {
    private let dependencies: [Dependency]
    private let linker: any Linking
    private var position = 0

    init(_ dependencies: [Dependency], _ linker: any Linking) {
        self.dependencies = dependencies
        self.linker = linker
    }

    func next<Argument>(_ type: Argument.Type) -> Plan<Argument> {
        defer { position += 1 }
        return linker.dynamicPlan(for: dependencies[position], as: Argument.self)
    }
}
