// The requests with one, two and three dynamic arguments, declared with the arguments' types
// known: the arguments are then placed and destroyed by code specialized for their types (the
// variadic forms in Injector+Requests.swift place them through value witnesses). Overload
// resolution prefers these to the variadic ones; the documentation shows the variadic forms
// only, since the two read the same.

extension Injector {
    /// A new instance of a type whose initializer has one dynamic argument.
    ///
    /// ```swift
    /// let screen = try injector.getInstance(Screen.self, arguments: "Inbox")
    /// ```
    ///
    /// The same as the variadic form, specialized for one argument.
    @inlinable @_documentation(visibility: internal)
    public func getInstance<Value, A>(_ type: Value.Type, arguments a: A) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: nil, a)
    }

    /// A new instance for a key whose initializer has one dynamic argument.
    ///
    /// ```swift
    /// let screen = try injector.getInstance(Key<Screen>(named: "compact"), arguments: "Inbox")
    /// ```
    ///
    /// The same as the variadic form, specialized for one argument.
    @inlinable @_documentation(visibility: internal)
    public func getInstance<Value, A>(_ key: Key<Value>, arguments a: A) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: key.name, a)
    }

    /// A new instance of a type whose initializer has two dynamic arguments.
    ///
    /// ```swift
    /// let row = try injector.getInstance(Row.self, arguments: 3, "Inbox")
    /// ```
    ///
    /// The same as the variadic form, specialized for two arguments.
    @inlinable @_documentation(visibility: internal)
    public func getInstance<Value, A, B>(_ type: Value.Type, arguments a: A, _ b: B) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: nil, a, b)
    }

    /// A new instance for a key whose initializer has two dynamic arguments.
    ///
    /// ```swift
    /// let row = try injector.getInstance(Key<Row>(named: "compact"), arguments: 3, "Inbox")
    /// ```
    ///
    /// The same as the variadic form, specialized for two arguments.
    @inlinable @_documentation(visibility: internal)
    public func getInstance<Value, A, B>(_ key: Key<Value>, arguments a: A, _ b: B) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: key.name, a, b)
    }

    /// A new instance of a type whose initializer has three dynamic arguments.
    ///
    /// ```swift
    /// let cell = try injector.getInstance(Cell.self, arguments: 3, "Inbox", true)
    /// ```
    ///
    /// The same as the variadic form, specialized for three arguments.
    @inlinable @_documentation(visibility: internal)
    public func getInstance<Value, A, B, C>(_ type: Value.Type, arguments a: A, _ b: B, _ c: C) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: nil, a, b, c)
    }

    /// A new instance for a key whose initializer has three dynamic arguments.
    ///
    /// ```swift
    /// let cell = try injector.getInstance(Key<Cell>(named: "compact"), arguments: 3, "Inbox", true)
    /// ```
    ///
    /// The same as the variadic form, specialized for three arguments.
    @inlinable @_documentation(visibility: internal)
    public func getInstance<Value, A, B, C>(_ key: Key<Value>, arguments a: A, _ b: B, _ c: C) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: key.name, a, b, c)
    }
}
