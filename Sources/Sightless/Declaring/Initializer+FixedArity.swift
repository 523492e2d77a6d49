/// The initializers of ``Injectable`` types with up to six arguments, one overload per arity:
/// the one of no argument here, those of one to six in Initializer+Arities.swift, which
/// `.ci/generate-arities` generates.
///
/// They take the same one-line declarations as the parameter-pack forms (which remain for
/// other types and for more arguments), and the compiler prefers them where both apply; the
/// documentation shows the parameter-pack forms only, since the two read the same. With
/// the arity fixed, the plan of the type is one closure specialized where the type is declared:
/// it reads each argument through a plan captured with its type, passes the values to the
/// initializer without an extra copy (its parameters are `consuming`), then sets the
/// properties and calls `awakeFromInjection()`, which the default implementation leaves empty.
///
/// One argument has no form with slots: there Swift would let a function of several parameters
/// pass for a function of one tuple, so that a declaration with too few slots would compile.
/// Such declarations take the parameter-pack form, which rejects them.

/// Sets the properties of an instance; see ``Properties``.
@usableFromInline
typealias PropertySetter<Instance> = @Sendable (inout Instance, inout Resolution) throws -> Void

/// What a type recipe adds to its initializer's plan: its properties and the call to
/// `awakeFromInjection()`.
@usableFromInline
struct InjectionSteps<Instance>: Sendable {
    @usableFromInline let properties: PropertySetter<Instance>?
    @usableFromInline let awakes: Bool
    /// Whether the values read dependencies where they stand: the plan binds a scope for them
    /// while they may.
    @usableFromInline let reads: StandingReadsPresence

    @usableFromInline
    init(properties: PropertySetter<Instance>?, awakes: Bool, reads: StandingReadsPresence = StandingReadsPresence()) {
        self.properties = properties
        self.awakes = awakes
        self.reads = reads
    }

    /// Sets the properties of a new instance, then awakes it.
    @inlinable @inline(__always)
    func complete(_ instance: inout Instance, _ resolution: inout Resolution) throws -> Instance where Instance: Injectable {
        if let properties { try properties(&instance, &resolution) }
        if awakes { instance.awakeFromInjection() }
        return instance
    }

    /// Nothing more: the initializer alone, as a binding to an ``Initializer`` runs it.
    @inlinable
    static var initializerOnly: InjectionSteps { InjectionSteps(properties: nil, awakes: false) }
}

/// What the plan of an initializer of no argument reads on every run (the initializer, its
/// steps, and what turns its error into the injector's), held by one object that the plan
/// captures alone; `PlanParts1` to `PlanParts6`, generated, add each argument's plan.
///
/// A closure that captures several values keeps them in a box, and every call of it goes
/// through a forwarder that loads them all first; a closure that captures one object runs with
/// that object as its context, through a forwarder of a few instructions. The object's generic
/// parameters are the types themselves, not one tuple of them: the runtime makes the metadata
/// of each type's object from its name the first time the type's plan is linked, and a short
/// name of plain types is read far sooner than a tuple of function types.
@usableFromInline
final class PlanParts0<Instance>: Sendable {
    @usableFromInline let make: @Sendable () throws -> Instance
    @usableFromInline let rethrow: @Sendable (any Error) -> InjectionError
    @usableFromInline let steps: InjectionSteps<Instance>

    @inlinable
    init(make: @escaping @Sendable () throws -> Instance, rethrow: @escaping @Sendable (any Error) -> InjectionError,
         steps: InjectionSteps<Instance>) {
        self.make = make
        self.rethrow = rethrow
        self.steps = steps
    }
}

extension ArgumentPlan {
    /// Links one argument of an initializer: a dynamic one reads its slot of the request's
    /// arguments; any other runs its dependency's plan, or reads its instance once it exists; one
    /// that awaits in place takes the value awaited for it in a section first, specialized here
    /// (`Prefetched.takingPlan`).
    @inlinable
    init(_ dependency: Dependency, _ linker: any Linking) throws {
        if dependency.isDynamic {
            self.init(slot: linker.dynamicSlot(for: dependency, as: Value.self))
            return
        }
        let plan = try linker.plan(for: dependency, as: Value.self)
        let storage = linker.storage(for: dependency)
        if let key = linker.keyAwaitedInPlace(for: dependency) {
            self.init(Prefetched.takingPlan(key, otherwise: plan), storage: storage)
        } else {
            self.init(plan, storage: storage)
        }
    }
}

extension Initializer where Instance: Injectable {
    /// An initializer whose plan builds, sets the properties and awakes in one closure.
    @inlinable
    init(
        dependencies: [Dependency], location: SourceLocation,
        linkSteps: @escaping @Sendable (any Linking, () throws -> InjectionSteps<Instance>) throws -> Plan<Instance>
    ) {
        // The plan binds the scope of the reads where they stand itself, specialized.
        self.init(dependencies: dependencies, location: location, linkInjected: { linker, properties in
            linker.collectsReads = true
            return try linkSteps(linker) { InjectionSteps(properties: try properties(), awakes: true) }
        }, link: { linker in
            linker.collectsReads = true
            return try linkSteps(linker) { .initializerOnly }
        })
    }


    /// Describes an initializer without arguments.
    ///
    /// ```swift
    /// static let initializer = Initializer(Clock.init)
    /// ```
    @inlinable @_documentation(visibility: internal)
    public init(_ make: @escaping @Sendable () throws -> Instance, fileID: String = #fileID, line: Int = #line) {
        let location = SourceLocation(fileID: fileID, line: line)
        let dependencies: [Dependency] = []
        self.init(dependencies: dependencies, location: location) { linker, completing in
            let steps = try completing()
            let parts = PlanParts0(make: make, rethrow: linker.rethrow, steps: steps)
            // No level is counted: nothing is built inside this one (its properties count
            // their own), and a request its initializer starts checks the stack when it starts.
            // A closure per set of steps, as the generated arities: no build tests a step it lacks.
            if steps.properties != nil {
                return { resolution in
                    if parts.steps.reads.mayRead {
                        return try parts.steps.reads.reading(&resolution, rethrow: parts.rethrow) { resolution in
                            var instance: Instance
                            do {
                                instance = try parts.make()
                            } catch {
                                throw parts.rethrow(error)
                            }
                            return try parts.steps.complete(&instance, &resolution)
                        }
                    }
                    var instance: Instance
                    do {
                        instance = try parts.make()
                    } catch {
                        throw parts.rethrow(error)
                    }
                    return try parts.steps.complete(&instance, &resolution)
                }
            }
            if steps.awakes {
                // No properties: awaking is all that follows (nothing, for the default).
                return { resolution in
                    if parts.steps.reads.mayRead {
                        return try parts.steps.reads.reading(&resolution, rethrow: parts.rethrow) { _ in
                            let instance: Instance
                            do {
                                instance = try parts.make()
                            } catch {
                                throw parts.rethrow(error)
                            }
                            instance.awakeFromInjection()
                            return instance
                        }
                    }
                    let instance: Instance
                    do {
                        instance = try parts.make()
                    } catch {
                        throw parts.rethrow(error)
                    }
                    instance.awakeFromInjection()
                    return instance
                }
            }
            // Written twice, as the generated arities are: inline where nothing is read where it
            // stands, and inside the scope `reading` makes current while that may be.
            return { resolution in
                if parts.steps.reads.mayRead {
                    return try parts.steps.reads.reading(&resolution, rethrow: parts.rethrow) { _ in
                        do {
                            return try parts.make()
                        } catch {
                            throw parts.rethrow(error)
                        }
                    }
                }
                do {
                    return try parts.make()
                } catch {
                    throw parts.rethrow(error)
                }
            }
        }
    }
}
