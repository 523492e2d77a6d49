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
///     // missing binding: Nothing provides Api.
///     //   path: Screen → FeedService → Api
///     //   declared at: App/FeedService.swift:14
///     //   fix: Bind Api in a module, e.g. binder.bind(Api.self).to(…), or make it Injectable.
/// }
/// ```
public struct InjectionError: Error, CustomStringConvertible {
    /// The kinds of mistake Sightless reports.
    ///
    /// ```swift
    /// if error.kind == .missingBinding { print(error.path) }
    /// ```
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A dependency, or a requested key, has no binding and cannot be built just in time.
        case missingBinding = "missing binding"
        /// Types need each other through their initializers or properties.
        case cyclicDependency = "dependency cycle"
        /// The same key is bound twice.
        case duplicateBinding = "duplicate binding"
        /// A type with creation-time (`Slot.dynamic`) arguments is injected as a dependency,
        /// where nothing could fill them.
        case dynamicDependency = "creation-time arguments cannot be injected"
        /// A scope that cannot hold the binding, such as a singleton with creation-time arguments.
        case scopeConflict = "scope conflict"
        /// Too many or too few creation-time arguments.
        case argumentCount = "wrong number of arguments"
        /// A creation-time argument of the wrong type.
        case argumentType = "wrong argument type"
        /// A value is not of the type its key promises.
        case typeMismatch = "type mismatch"
        /// An initializer, closure or provider threw; ``Problem/underlying`` holds its error.
        case initializerFailed = "initializer failed"
        /// Dependencies nest deeper than the requesting thread's stack can hold.
        case tooDeep = "dependencies too deep"

        /// The kind as errors print it: `missing binding`, `dependency cycle`, …
        ///
        /// ```swift
        /// print(InjectionError.Kind.cyclicDependency)   // dependency cycle
        /// ```
        public var description: String { rawValue }
    }

    /// One mistake, with where it is and how to fix it.
    ///
    /// ```swift
    /// for problem in error.problems { print(problem.kind, problem.pathDescription) }
    /// ```
    public struct Problem: Sendable, CustomStringConvertible {
        /// What kind of mistake it is.
        ///
        /// ```swift
        /// let missing = error.problems.filter { $0.kind == .missingBinding }
        /// ```
        public let kind: Kind
        /// The key at fault, when there is one.
        ///
        /// ```swift
        /// print(problem.key?.description ?? "-")   // String(named: "endpoint")
        /// ```
        public let key: AnyKey?
        /// The dependency path from the requested (or bound) key to the key at fault:
        /// `[Screen, FeedService, Api]`.
        ///
        /// ```swift
        /// print(problem.path.map(\.typeName))   // ["Screen", "FeedService", "Api"]
        /// ```
        public internal(set) var path: [AnyKey]
        /// Where the declaration at fault is written, when known.
        ///
        /// ```swift
        /// print(problem.location.map { "\($0)" } ?? "-")   // App/FeedService.swift:14
        /// ```
        public let location: SourceLocation?
        /// What went wrong, in a sentence.
        ///
        /// ```swift
        /// print(problem.message)   // Nothing provides Api, needed by FeedService (argument 1).
        /// ```
        public let message: String
        /// What to change.
        ///
        /// ```swift
        /// print(problem.fix)   // Bind it in a module: binder.bind(Api.self).to(…).
        /// ```
        public let fix: String
        /// The error an initializer, closure or provider threw.
        ///
        /// ```swift
        /// if let cause = problem.underlying as? DecodingError { … }
        /// ```
        public let underlying: (any Error)?

        init(_ kind: Kind, key: AnyKey?, path: [AnyKey] = [], message: String, fix: String,
             location: SourceLocation? = nil, underlying: (any Error)? = nil) {
            self.kind = kind
            self.key = key
            self.path = path
            self.location = location
            self.message = message
            self.fix = fix
            self.underlying = underlying
        }

        /// The path written with arrows: `Screen → FeedService → Api`.
        ///
        /// ```swift
        /// print(problem.pathDescription)   // Screen → FeedService → Api
        /// ```
        public var pathDescription: String { path.map(\.description).joined(separator: " → ") }

        /// The problem in four lines: what, the path, where, and the fix.
        ///
        /// ```swift
        /// print(problem)
        /// // missing binding: Nothing provides Api, needed by FeedService (argument 1).
        /// //   path: Screen → FeedService → Api
        /// //   declared at: App/FeedService.swift:14
        /// //   fix: Bind it in a module: binder.bind(Api.self).to(…).
        /// ```
        public var description: String {
            var lines = ["\(kind): \(message)"]
            if !path.isEmpty { lines.append("  path: \(pathDescription)") }
            if let location { lines.append("  declared at: \(location)") }
            lines.append("  fix: \(fix)")
            return lines.joined(separator: "\n")
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

    init(_ kind: Kind, key: AnyKey?, path: [AnyKey] = [], message: String, fix: String,
         location: SourceLocation? = nil, underlying: (any Error)? = nil) {
        self.init(Problem(kind, key: key, path: path, message: message, fix: fix, location: location,
                          underlying: underlying))
    }

    /// Gathers the problems of a build; `nil` when there are none.
    init?(problems: [Problem]) {
        guard let first = problems.first else { return nil }
        self.init(problems: problems, first: first)
    }

    private init(problems: [Problem], first: Problem) {
        self.problems = problems
        self.first = first
    }

    /// Every problem, numbered when there are several.
    ///
    /// ```swift
    /// print(error)
    /// // The injector found 2 problems:
    /// // 1. missing binding: …
    /// ```
    public var description: String {
        if problems.count == 1 { return first.description }
        let numbered = problems.enumerated().map { index, problem in
            "\(index + 1). " + problem.description.replacingNewlines(with: "\n   ")
        }
        return "The injector found \(problems.count) problems:\n" + numbered.joined(separator: "\n")
    }

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

    /// Turns any error thrown while building `key` into an `InjectionError` whose path starts
    /// at `key`.
    static func wrap(_ error: any Error, at key: AnyKey) -> InjectionError {
        if let error = error as? InjectionError { return error.prepending(key) }
        return InjectionError(Problem(
            .initializerFailed, key: key, path: [key],
            message: "Building \(key) threw: \(error)",
            fix: "Handle the condition that makes it throw, or catch the error where \(key) is requested.",
            underlying: error))
    }

    /// Turns any error escaping a request into an `InjectionError`.
    static func request(_ error: any Error, key: AnyKey) -> InjectionError {
        (error as? InjectionError) ?? wrap(error, at: key)
    }
}

extension String {
    func replacingNewlines(with replacement: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
