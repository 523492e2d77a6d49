/// Describes how the injector creates a type: which initializer (or static factory) to call,
/// and how each of its arguments is filled.
///
/// The short form takes a function reference; each argument is filled from the binding of its
/// type:
///
/// ```swift
/// final class House: Injectable {
///     let address: Address
///     init(address: Address) { self.address = address }
///     static let initializer = Initializer(House.init(address:))
/// }
/// ```
///
/// Give one ``Slot`` per parameter to name a key or leave an argument to creation time:
///
/// ```swift
/// static let initializer = Initializer(Screen.init(feed:title:), .inject, .dynamic)
/// ```
///
/// A static factory works the same way (`Initializer(Clock.system(zone:))`), and so does a
/// throwing initializer: its error comes back as an ``InjectionError`` of kind
/// ``InjectionError/Kind/initializerFailed`` with the dependency path that led to it.
///
/// For a class that has subclasses, declare the initializer in a `class var` with `Self.init`
/// and a `required` initializer, so that a subclass that does not declare its own inherits one
/// that builds the subclass:
///
/// ```swift
/// class House: Injectable {
///     required init(address: Address) { … }
///     class var initializer: Initializer<House> { Initializer(Self.init(address:)) }
/// }
/// final class Mansion: House {}   // built with House's initializer, as a Mansion
/// ```
public struct Initializer<Instance>: Sendable {
    /// The initializer's arguments, in order, with the keys that fill them.
    ///
    /// ```swift
    /// print(House.initializer.dependencies.map(\.description))   // ["argument 1: Address"]
    /// ```
    public let dependencies: [Dependency]
    /// Where the initializer was declared.
    ///
    /// ```swift
    /// print(House.initializer.location)   // App/House.swift:9
    /// ```
    public let location: SourceLocation
    @usableFromInline let link: @Sendable (any Linking) throws -> Plan<Instance>
    /// For the fixed-arity forms of an ``Injectable`` type: links one plan that builds the
    /// instance, sets its properties (linked by the closure it is handed) and calls
    /// `awakeFromInjection()`, specialized where the type is declared. `nil` for other forms,
    /// whose type recipe wraps `link`.
    @usableFromInline let linkInjected: (@Sendable (any Linking, () throws -> PropertySetter<Instance>?) throws -> Plan<Instance>)?
    /// Made once with each initializer value: a stored `static let initializer` gives the same
    /// identity to a class and to every subclass that inherits it, a computed `class var` a new
    /// one on every read.
    let identity: InitializerIdentity
    /// For an `async` initializer or factory: links the plan that gathers its arguments, then
    /// what its step runs after it returns (the second argument's, linked after the arguments
    /// so that the plans read in the order they are linked), and returns the step that awaits
    /// it; see `Initializer+Async.swift`.
    @usableFromInline var asyncLink: (@Sendable (any Linking, (any Linking) throws -> AsyncFinish<Instance>?) throws -> Plan<AsyncBuild>)?
    /// For the forms isolated to the main actor: links one plan that builds the instance and
    /// completes it with the steps it is handed (linked by the closure, after the arguments), in
    /// one main-actor region; see `MainActorSteps`. `nil` for a nonisolated initializer.
    @usableFromInline var linkIsolated: (@Sendable (any Linking, () throws -> MainActorSteps<Instance>) throws -> IsolatedPlan<Instance>)?
    /// The actor the initializer is isolated to, for the forms that take a `@MainActor`
    /// function (see `Initializer+MainActor.swift`); `nil` for a nonisolated one.
    var isolation: ActorIsolation?

    /// An initializer isolated to the main actor, for the forms that take a `@MainActor`
    /// function: `linkIsolated` links its plan, and alone (with no steps) its `link`.
    @usableFromInline
    init(
        dependencies: [Dependency], location: SourceLocation,
        linkIsolated: @escaping @Sendable (any Linking, () throws -> MainActorSteps<Instance>) throws -> IsolatedPlan<Instance>
    ) {
        self.init(dependencies: dependencies, location: location, linkInjected: nil, link: { linker in
            try linkIsolated(linker) { .initializerOnly }.plan
        })
        self.linkIsolated = linkIsolated
        self.isolation = .mainActor
    }

    /// Describes an initializer whose arguments are all filled from the bindings of their types.
    ///
    /// ```swift
    /// static let initializer = Initializer(Repo.init(db:logger:))
    /// ```
    public init<each Argument>(
        _ make: @escaping @Sendable (repeat each Argument) throws -> Instance,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(make, repeat Slot<each Argument>.inject, fileID: fileID, line: line)
    }

    /// Describes an initializer with one ``Slot`` per argument: `.inject`, `.named(_:)`,
    /// `.key(_:)` or `.dynamic`.
    ///
    /// ```swift
    /// static let initializer = Initializer(Screen.init(feed:title:), .inject, .dynamic)
    /// ```
    @inlinable
    public init<each Argument>(
        _ make: @escaping @Sendable (repeat each Argument) throws -> Instance,
        _ slots: repeat Slot<each Argument>,
        fileID: String = #fileID, line: Int = #line
    ) {
        // Inlinable so that the plan below is specialized where the argument types are known:
        // run generically, each request would ask the runtime for the types of the pack.
        let location = SourceLocation(fileID: fileID, line: line)
        let dependencies = Self.dependencies(of: repeat each slots, location: location)
        self.init(dependencies: dependencies, location: location) { linker in
            let plans = try linkArguments(dependencies, linker, as: repeat (each Argument).self)
            let rethrow = linker.rethrow
            return { resolution in
                do {
                    try resolution.enterLevel()
                    defer { resolution.leaveLevel() }
                    var cursor = PlanCursor(plans)
                    return try make(repeat try cursor.next(&resolution, as: (each Argument).self))
                } catch {
                    throw rethrow(error)
                }
            }
        }
    }

    @usableFromInline
    init(dependencies: [Dependency], location: SourceLocation, link: @escaping @Sendable (any Linking) throws -> Plan<Instance>) {
        self.init(dependencies: dependencies, location: location, linkInjected: nil, link: link)
    }

    /// An initializer of an ``Injectable`` type whose plan also sets the properties and
    /// awakes the instance when its type recipe asks (see `linkInjected`), or, given none, an
    /// initializer whose type recipe wraps `link`.
    @usableFromInline
    init(
        dependencies: [Dependency], location: SourceLocation,
        linkInjected: (@Sendable (any Linking, () throws -> PropertySetter<Instance>?) throws -> Plan<Instance>)?,
        link: @escaping @Sendable (any Linking) throws -> Plan<Instance>
    ) {
        self.dependencies = dependencies
        self.location = location
        self.link = link
        self.linkInjected = linkInjected
        self.identity = InitializerIdentity()
    }

    @usableFromInline
    static func dependencies<each Argument>(of slots: repeat Slot<each Argument>, location: SourceLocation) -> [Dependency] {
        let collected = DependencyList(location: location)
        repeat collected.add(each slots)
        return collected.dependencies
    }

    /// Describes an initializer from a list of argument slots and a closure over their values:
    /// the raw form, for generated code and unusual cases.
    ///
    /// ```swift
    /// static let initializer = Initializer<Screen>([.inject(FeedService.self), .dynamic(String.self)]) { arguments in
    ///     Screen(feed: try arguments.value(at: 0), title: try arguments.value(at: 1))
    /// }
    /// ```
    public init(
        _ slots: [RawSlot], fileID: String = #fileID, line: Int = #line,
        make: @escaping @Sendable (Arguments) throws -> Instance
    ) {
        let location = SourceLocation(fileID: fileID, line: line)
        let dependencies = slots.enumerated().map { index, slot in
            slot.dependency(index + 1, location)
        }
        self.dependencies = dependencies
        self.location = location
        self.identity = InitializerIdentity()
        self.linkInjected = nil
        self.link = { linker in
            let plans = try zip(slots, dependencies).map { slot, dependency in
                try slot.link(linker, dependency)
            }
            let rethrow = linker.rethrow
            return { resolution in
                do {
                    try resolution.enterLevel()
                    defer { resolution.leaveLevel() }
                    var values: [Any] = []
                    values.reserveCapacity(plans.count)
                    for plan in plans { values.append(try plan(&resolution)) }
                    return try make(Arguments(values: values, location: location))
                } catch {
                    throw rethrow(error)
                }
            }
        }
    }
}

extension Initializer {
    /// The argument values handed to a raw ``Initializer`` closure, in slot order.
    ///
    /// ```swift
    /// Initializer<Point>([.inject(Int.self), .dynamic(String.self)]) { arguments in
    ///     Point(x: try arguments.value(at: 0), label: try arguments.value(at: 1, as: String.self))
    /// }
    /// ```
    public struct Arguments {
        let values: [Any]
        /// Where the raw initializer was declared, for the errors of a wrong read.
        let location: SourceLocation

        /// The number of arguments.
        ///
        /// ```swift
        /// guard arguments.count == 2 else { … }
        /// ```
        public var count: Int { values.count }

        /// The argument at `index` (from 0), as the type the caller expects.
        ///
        /// Throws an ``InjectionError`` of kind ``InjectionError/Kind/rawArguments`` when the
        /// index is out of range or the value is of another type.
        ///
        /// ```swift
        /// let title = try arguments.value(at: 1, as: String.self)
        /// ```
        public func value<Value>(at index: Int, as type: Value.Type = Value.self) throws(InjectionError) -> Value {
            guard values.indices.contains(index) else {
                throw InjectionError(.rawArgumentIndex(index: index, count: values.count), location: location)
            }
            guard let value = values[index] as? Value else {
                throw InjectionError(.rawArgumentType(
                    index: index, requested: AnyKey(type: Value.self, name: nil), actual: AnyKey(type: Swift.type(of: values[index]), name: nil)),
                    location: location)
            }
            return value
        }
    }
}

/// Links the arguments of a typed initializer, in order. The plans are kept as an array of
/// boxes rather than a tuple of the pack, which would need its tuple type at every request.
@usableFromInline
func linkArguments<each Argument>(
    _ dependencies: [Dependency], _ linker: any Linking, as types: repeat (each Argument).Type
) throws -> FrozenPlans {
    let plans = PlanList(dependencies: dependencies, linker: linker)
    repeat try plans.link(as: (each types))
    let frozen = plans.frozen
    var expected: [ObjectIdentifier] = []
    expected.reserveCapacity(dependencies.count)
    repeat expected.append(ObjectIdentifier(each types))
    // What makes the requests' unchecked reads of the boxes sound (see `PlanCursor.withBox`).
    guard frozen.matches(expected) else { throw argumentPlanMismatch(Any.self) }
    return frozen
}

/// Collects the dependencies of a pack of slots, in order.
final class DependencyList {
    private(set) var dependencies: [Dependency] = []
    private let location: SourceLocation

    init(location: SourceLocation) {
        self.location = location
    }

    func add<Value>(_ slot: Slot<Value>) {
        dependencies.append(slot.dependency(position: dependencies.count + 1, location: location))
    }
}

/// The plans of an initializer's arguments, in order, linked while its pack is walked.
final class PlanList {
    private let dependencies: [Dependency]
    private let linker: any Linking
    private var boxes: [AnyPlanBox] = []

    init(dependencies: [Dependency], linker: any Linking) {
        self.dependencies = dependencies
        self.linker = linker
        boxes.reserveCapacity(dependencies.count)
    }

    /// Links the next argument: a dynamic one reads its slot of the request's arguments;
    /// any other runs its dependency's plan, or reads its singleton once that exists.
    func link<Value>(as type: Value.Type) throws {
        let dependency = dependencies[boxes.count]
        if dependency.isDynamic {
            boxes.append(PlanBox(linker.dynamicPlan(for: dependency, as: Value.self), storage: nil))
        } else {
            boxes.append(PlanBox(try linker.plan(for: dependency, as: Value.self),
                                 storage: linker.storage(for: dependency)))
        }
    }

    var frozen: FrozenPlans { FrozenPlans(boxes) }
}

/// The identity of one initializer value; see `Initializer.identity`.
@usableFromInline
final class InitializerIdentity: Sendable {
    @usableFromInline init() {}
}
