/// One argument slot of a raw ``Initializer``: a key to inject, or a ``Dynamic`` argument.
///
/// ```swift
/// let slots: [RawSlot] = [.inject(Key<String>(named: "endpoint")), .dynamic(Dynamic<Int>())]
/// ```
public struct RawSlot: Sendable {
    let dependency: @Sendable (Int, SourceLocation) -> Dependency
    let link: @Sendable (any Linking, Dependency) throws -> Plan<Any>

    /// Inject the value of this key.
    ///
    /// ```swift
    /// Initializer<Api>([.inject(Key<String>(named: "endpoint"))]) { HttpApi(endpoint: try $0.value(at: 0)) }
    /// ```
    public static func inject<Value>(_ key: Key<Value>) -> RawSlot {
        RawSlot(
            dependency: { position, location in
                Dependency(role: .argument(position), key: key.erased, isDynamic: false, location: location)
            },
            link: { linker, dependency in
                let plan = try linker.plan(for: dependency, as: Value.self)
                return { resolution in try plan(&resolution) }
            })
    }

    /// Inject the value of this type's binding.
    ///
    /// ```swift
    /// let slots: [RawSlot] = [.inject(Clock.self), .inject(Logger.self)]
    /// ```
    public static func inject<Value>(_ type: Value.Type) -> RawSlot { inject(Key<Value>()) }

    /// Leave the argument to creation time: a dynamic argument of this type.
    ///
    /// ```swift
    /// let slots: [RawSlot] = [.inject(FeedService.self), .dynamic(Dynamic<String>())]
    /// // getInstance(Screen.self, arguments: "Inbox")
    /// ```
    public static func dynamic<Value>(_ argument: Dynamic<Value>) -> RawSlot {
        RawSlot(
            dependency: { position, location in
                Dependency(role: .argument(position), key: Key<Value>().erased, isDynamic: true, location: location)
            },
            link: { linker, dependency in
                let plan = linker.dynamicPlan(for: dependency, as: Value.self)
                return { resolution in try plan(&resolution) }
            })
    }

    /// Leave the argument to creation time, as a value of this type.
    ///
    /// ```swift
    /// let slots: [RawSlot] = [.inject(FeedService.self), .dynamic(String.self)]
    /// ```
    public static func dynamic<Value>(_ type: Value.Type) -> RawSlot { dynamic(Dynamic<Value>()) }
}
