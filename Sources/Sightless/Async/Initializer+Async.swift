// The parameter-pack forms of `async` initializers: what the documentation shows, and what
// seven or more arguments, or one argument with a slot, resolve to. Up to six arguments resolve
// to the generated fixed-arity forms (Initializer+AsyncArities.swift), which run the same way
// without a tuple of a pack to lay out on every build.

extension Initializer {
    /// Describes an `async` initializer or static factory whose arguments are all filled from
    /// the bindings of their types. The type is then requested with `try await`.
    ///
    /// ```swift
    /// final class Pool: Injectable {
    ///     init(config: Config) async throws { … }   // opens its connections
    ///     static let initializer = Initializer(Pool.init(config:))
    /// }
    ///
    /// let pool = try await injector.instance(Pool.self)
    /// ```
    ///
    /// Everything that builds the type at once (not through a `Lazy` or `Factory`) is built with
    /// `await` too; a synchronous request of it throws an ``InjectionError`` of kind
    /// ``InjectionError/Kind/needsAwait``.
    public init<each Argument>(
        _ make: @escaping @Sendable (repeat each Argument) async throws -> Instance,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(make, repeat Slot<each Argument>.inject, fileID: fileID, line: line)
    }

    /// Describes an `async` initializer or static factory with one ``Slot`` per argument:
    /// `.inject`, `.named(_:)`, `.key(_:)` or `.dynamic`.
    ///
    /// ```swift
    /// static let initializer = Initializer(Session.open(pool:user:), .inject, .dynamic)
    /// let session = try await injector.instance(Session.self, arguments: "ada")
    /// ```
    ///
    /// The dependencies that await themselves (an `async` build, a kept value, a value built on
    /// an actor) are awaited at the same time, before the initializer is called.
    public init<each Argument>(
        _ make: @escaping @Sendable (repeat each Argument) async throws -> Instance,
        _ slots: repeat Slot<each Argument>,
        fileID: String = #fileID, line: Int = #line
    ) {
        let location = SourceLocation(fileID: fileID, line: line)
        let dependencies = Self.dependencies(of: repeat each slots, location: location)
        self.init(dependencies: dependencies, location: location, asyncLink: { linker, linkFinish in
            let plans = try linkArguments(dependencies, linker, as: repeat (each Argument).self)
            let finish = try linkFinish(linker)
            let rethrow = linker.rethrow
            // Made once: each build hands it the arguments its plan gathered, as one tuple.
            let step: AsyncStep = { section, arguments in
                let arguments = try AsyncBuild.arguments(arguments, as: (repeat each Argument).self)
                var instance: Instance
                do {
                    instance = try await make(repeat each arguments)
                } catch {
                    throw rethrow(error)
                }
                // Outside the initializer's own failures: a property's carries its path.
                try finish?(&instance, section)
                return instance
            }
            return { resolution in
                do {
                    var cursor = PlanCursor(plans)
                    return AsyncBuild(step, arguments: (repeat try cursor.next(&resolution, as: (each Argument).self)))
                } catch {
                    throw rethrow(error)
                }
            }
        })
    }

    /// An `async` initializer: its synchronous plan only says so (a synchronous request is
    /// told to await); `asyncLink` links the plan that gathers the arguments and returns the
    /// step that awaits the build.
    @usableFromInline
    init(
        dependencies: [Dependency], location: SourceLocation,
        asyncLink: @escaping @Sendable (any Linking, (any Linking) throws -> AsyncFinish<Instance>?) throws -> Plan<AsyncBuild>
    ) {
        self.init(dependencies: dependencies, location: location) { linker in
            let rethrow = linker.rethrow
            return { _ in throw rethrow(InjectionError(.internalInconsistency(.argumentPlanType(expected: "an awaited build")))) }
        }
        self.asyncLink = asyncLink
    }
}
