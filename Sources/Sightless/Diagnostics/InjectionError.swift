/// Everything that can go wrong when an injector is built or asked for an instance: what went
/// wrong, where (the dependency path and the declaration), and how to fix it.
///
/// Building an ``Injector`` validates the whole graph and reports every problem it finds in one
/// error; a request reports the one problem that stopped it.
///
/// ```swift
/// do {
///     let injector = try Injector(modules: [AppModule()])
///     _ = try injector.getInstance(Screen.self, arguments: "Inbox")
/// } catch {
///     print(error)
///     // missing binding: Nothing provides Api, needed by FeedService (argument 1).
///     //   path: Screen → FeedService → Api
///     //   declared at: App/FeedService.swift:14
///     //   fix: Bind it in a module: binder.bind(Api.self).to(…), or, if Api is a class or struct, make it conform to Injectable.
/// }
/// ```
///
/// Each problem's ``Problem/detail`` holds its data; <doc:Errors> lists every kind.
public struct InjectionError: Error, CustomStringConvertible {
    /// The kinds of mistake Sightless reports.
    ///
    /// ```swift
    /// if error.kind == .missingBinding { print(error.path) }
    /// ```
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A dependency, or a requested key, has no binding and cannot be built just in time.
        case missingBinding = "missing binding"
        /// A key is bound with no target (`binder.bind(T.self)` alone) and its type is not
        /// ``Injectable``.
        case incompleteBinding = "incomplete binding"
        /// Keys need each other to be built: through initializers or properties (found when
        /// the injector is built), or through closures, providers, `Lazy`, `Factory` or the
        /// injector while one of them is being built.
        case cyclicDependency = "dependency cycle"
        /// Modules install each other (or one installs itself) while they are being installed,
        /// so that installing them would never end.
        case cyclicInstall = "install cycle"
        /// The same key is bound twice.
        case duplicateBinding = "duplicate binding"
        /// A type with dynamic (`Slot.dynamic`) arguments is injected as a dependency,
        /// where nothing could fill them.
        case dynamicDependency = "dynamic arguments cannot be injected"
        /// A `Factory` is declared with argument types that differ from its target's
        /// dynamic slots.
        case factoryArguments = "factory arguments differ"
        /// A scope that cannot hold the binding: a singleton with dynamic arguments, or a value
        /// kept longer than a value it holds (a singleton holding a per-request value).
        case scopeConflict = "scope conflict"
        /// A request passed too many or too few dynamic arguments.
        case argumentCount = "wrong number of arguments"
        /// A request passed a dynamic argument of the wrong type.
        case argumentType = "wrong argument type"
        /// A raw ``Initializer`` read its arguments at an index it does not have, or as the
        /// wrong type.
        case rawArguments = "raw initializer arguments"
        /// A value is not of the type its key promises.
        case typeMismatch = "type mismatch"
        /// An initializer, closure or provider threw; ``Problem/underlying`` holds its error.
        case initializerFailed = "initializer failed"
        /// Dependencies nest deeper than the requesting thread's stack can hold.
        case tooDeep = "dependencies too deep"
        /// A `Lazy` or `Factory` given to a singleton was used after its injector was
        /// released.
        case injectorReleased = "injector released"
        /// An injector, or a `Lazy` or `Factory` of it, was asked for a value after
        /// ``Injector/shutDown()``.
        case injectorShutDown = "injector shut down"
        /// A dependency read where it stands (``Injected``, ``Injection``) was resolved outside
        /// any build, `withChild`, `withOverrides` or `withCurrent` body, and no injector was
        /// chosen for the process.
        case noInjector = "no injector"
        /// ``Injector/chooseForProcess(fileID:line:)`` was called a second time.
        case processInjectorChosen = "process injector chosen"
        /// A value's ``Closable/close()`` threw when its injector shut down.
        case closeFailed = "close failed"
        /// An ``InjectorSession`` was used while it had no session: before its first
        /// `replace(_:)` (log-in), or after `end()` (log-out).
        case noSession = "no session"
        /// A synchronous request reached a value that is built with `await` (an `async`
        /// initializer, closure or provider, or something that needs one); request it with
        /// `try await`.
        case needsAwait = "needs await"
        /// A value isolated to an actor was built where that actor is not: requested
        /// synchronously off it, or its type's descriptors, isolated to it, read by an injector
        /// compiling off it; request it from the actor, or with `try await`.
        case offActor = "off its actor"
        /// A declaration that changes nothing: an override that replaces no binding, a decorator
        /// of a key nothing binds, a contextual binding no consumer uses.
        case unusedDeclaration = "unused declaration"
        /// A protocol with no binding has several candidate implementations to choose from.
        case ambiguousBinding = "ambiguous binding"
        /// A check inside Sightless failed; the request stopped instead of going on with wrong
        /// assumptions. Please report it.
        case internalInconsistency = "internal inconsistency"

        /// The kind as errors print it: `missing binding`, `dependency cycle`, …
        ///
        /// ```swift
        /// print(InjectionError.Kind.cyclicDependency)   // dependency cycle
        /// ```
        public var description: String { rawValue }

        /// A stable identifier: the case's name, which is also the heading of its section in
        /// the Errors article.
        ///
        /// ```swift
        /// print(InjectionError.Kind.missingBinding.id)   // missingBinding
        /// ```
        public var id: String {
            switch self {
            case .missingBinding: "missingBinding"
            case .incompleteBinding: "incompleteBinding"
            case .cyclicDependency: "cyclicDependency"
            case .cyclicInstall: "cyclicInstall"
            case .duplicateBinding: "duplicateBinding"
            case .dynamicDependency: "dynamicDependency"
            case .factoryArguments: "factoryArguments"
            case .scopeConflict: "scopeConflict"
            case .argumentCount: "argumentCount"
            case .argumentType: "argumentType"
            case .rawArguments: "rawArguments"
            case .typeMismatch: "typeMismatch"
            case .initializerFailed: "initializerFailed"
            case .tooDeep: "tooDeep"
            case .injectorReleased: "injectorReleased"
            case .injectorShutDown: "injectorShutDown"
            case .noInjector: "noInjector"
            case .processInjectorChosen: "processInjectorChosen"
            case .closeFailed: "closeFailed"
            case .noSession: "noSession"
            case .needsAwait: "needsAwait"
            case .offActor: "offActor"
            case .unusedDeclaration: "unusedDeclaration"
            case .ambiguousBinding: "ambiguousBinding"
            case .internalInconsistency: "internalInconsistency"
            }
        }
    }

    /// Every problem found, in a stable order. Never empty.
    ///
    /// ```swift
    /// print(error.problems.count)   // 2: a missing binding and a cycle, found together
    /// ```
    public let problems: [Problem]

    /// The kind of the first problem.
    ///
    /// ```swift
    /// catch let error as InjectionError where error.kind == .missingBinding { … }
    /// ```
    public var kind: Kind { first.kind }
    /// The dependency path of the first problem.
    ///
    /// ```swift
    /// print(error.path.map(\.description).joined(separator: " → "))
    /// ```
    public var path: [AnyKey] { first.path }
    /// Where the first problem's declaration is written.
    ///
    /// ```swift
    /// print(error.location.map { "\($0)" } ?? "-")   // App/FeedService.swift:14
    /// ```
    public var location: SourceLocation? { first.location }
    /// The error thrown by an initializer, closure or provider, for ``Kind/initializerFailed``.
    ///
    /// ```swift
    /// if let cause = error.underlying as? CocoaError { … }
    /// ```
    public var underlying: (any Error)? { first.underlying }

    private let first: Problem

    init(_ problem: Problem) {
        self.init(problems: [problem], first: problem)
    }

    init(_ detail: Problem.Detail, path: [AnyKey] = [], location: SourceLocation? = nil, underlying: (any Error)? = nil) {
        self.init(Problem(detail, path: path, location: location, underlying: underlying))
    }

    /// Gathers the problems of a build; `nil` when there are none.
    init?(problems: [Problem]) {
        guard let first = problems.first else { return nil }
        self.init(problems: problems, first: first)
    }

    private init(problems: [Problem], first: Problem) {
        guard problems.count > 1 else {
            self.problems = problems
            self.first = first
            return
        }
        // Each problem, read on its own, writes in full a type that reads like one of another
        // problem of this error.
        let keys = ProblemText.keys(of: problems)
        func knowingTheOthers(_ problem: Problem) -> Problem {
            var problem = problem
            problem.errorKeys = keys
            return problem
        }
        self.problems = problems.map(knowingTheOthers)
        self.first = knowingTheOthers(first)
    }

    /// Every problem, numbered when there are several.
    ///
    /// ```swift
    /// print(error)
    /// // The injector found 2 problems:
    /// // 1. missing binding: …
    /// ```
    public var description: String { ProblemText.describe(self) }

    /// The same error, one step further from the key at fault: `key` is now first on the path.
    func prepending(_ key: AnyKey) -> InjectionError {
        var first = first
        first.path.insert(key, at: 0)
        let rest = problems.dropFirst().map { problem in
            var problem = problem
            problem.path.insert(key, at: 0)
            return problem
        }
        return InjectionError(problems: [first] + rest, first: first)
    }

    /// Turns any error thrown while building `key` (declared at `location`) into an
    /// `InjectionError` whose path starts at `key`.
    static func wrap(_ error: any Error, at key: AnyKey, location: SourceLocation? = nil) -> InjectionError {
        if let error = error as? InjectionError { return error.prepending(key) }
        return InjectionError(.initializerFailed(key: key, error: String(describing: error)),
                              path: [key], location: location, underlying: error)
    }

    /// Turns any error escaping a request into an `InjectionError`.
    @usableFromInline
    static func request(_ error: any Error, key: AnyKey) -> InjectionError {
        (error as? InjectionError) ?? wrap(error, at: key)
    }
}
