#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sightless
import Testing

// The differential suite: random configurations (`DfConfiguration`), and for each, the same
// requests made through every path a user has (`DfPath`), each path on an injector of its own
// built from the same modules. Every path must give what the model of the configuration
// predicts (`DfModel`, written from the documented rules): the same value (compared by its
// structure), the same sharing (whether two requests got one kept object, and whether a child's
// got its family's) and the same error kind. The only differences between paths are those the
// model predicts: `needsAwait` on a synchronous path for a key whose build needs `await` now (its
// own build is `async`, or it needs at once a value built with `await` that is not stored yet: a
// value over stored ones, kept or not, is built synchronously), and `offActor` on a synchronous
// path off the main actor for a key built on the main actor.
//
//   swift test --filter Differential                                     the default count
//   SIGHTLESS_DIFFERENTIAL_COUNT=20000 swift test --filter Differential  more configurations
//   SIGHTLESS_SEED=n swift test --filter Differential                    replays configuration n

/// A way to reach a value.
enum DfPath: String, CaseIterable, Sendable {
    case awaited, synchronous, mainActor, lazyGet, lazyValue, factoryMake, factoryInstance,
         plainChild, plainChildAwaited, templateChild, templateChildAwaited, argument

    /// Whether the path asks synchronously, so that a value needing `await` is refused.
    var isSynchronous: Bool {
        switch self {
        case .synchronous, .mainActor, .lazyGet, .factoryMake, .plainChild, .templateChild, .argument: true
        case .awaited, .lazyValue, .factoryInstance, .plainChildAwaited, .templateChildAwaited: false
        }
    }

    /// Whether the path runs on the main actor.
    var isOnMainActor: Bool { self == .mainActor }
}

/// What one path gave for one request.
struct DfOutcome: Equatable, Sendable, CustomStringConvertible {
    var shape: String?
    var kind: InjectionError.Kind?
    /// Whether two requests got one kept object.
    var shared: Bool?
    /// Whether the first request's kept object is its family's: the parent's, for a child;
    /// a third request's, otherwise.
    var sharedWithFamily: Bool?

    var description: String {
        if let kind { return "error \(kind)" }
        return "\(shape ?? "?"), shared: \(shared.map(String.init) ?? "-"), with family: \(sharedWithFamily.map(String.init) ?? "-")"
    }
}

/// One request, with how to describe its value.
struct DfRequest<Value: Sendable>: Sendable {
    let name: String
    let key: Key<Value>
    let keyName: String?
    let describe: @Sendable (Value) -> (shape: String, kept: AnyObject?)
    /// The value reached as an initializer's argument, for the `argument` path.
    var asArgument: (@Sendable (Injector) throws -> Value)?

    init(_ name: String, _ key: Key<Value>, named keyName: String? = nil,
         asArgument: (@Sendable (Injector) throws -> Value)? = nil,
         describe: @escaping @Sendable (Value) -> (shape: String, kept: AnyObject?)) {
        self.name = name
        self.key = key
        self.keyName = keyName
        self.asArgument = asArgument
        self.describe = describe
    }
}

/// A disagreement between a path and the model.
struct DfDisagreement: CustomStringConvertible {
    let seed: UInt64
    let configuration: String
    let request: String
    let path: DfPath
    let outcome: DfOutcome
    let expected: DfOutcome

    var description: String {
        "seed \(seed): \(request) through \(path.rawValue) gave \(outcome), the model predicts \(expected)\n"
            + "  configuration: \(configuration)\n  replay with: SIGHTLESS_SEED=\(seed) swift test --filter Differential"
    }
}

/// Runs every request of one configuration through every path.
struct DfRun {
    let seed: UInt64
    let configuration: DfConfiguration
    private(set) var disagreements: [DfDisagreement] = []
    private(set) var requests = 0

    init(seed: UInt64) {
        self.seed = seed
        configuration = DfConfiguration(seed: seed)
    }

    /// The injector of the configuration: built on the main actor when it binds a main-actor
    /// type, whose descriptors are read there.
    private func injector() async throws -> Injector {
        let module = DfModule(configuration: configuration)
        guard configuration.service?.mainActor == true else { return try Injector(modules: [module]) }
        return try await MainActor.run { try Injector(modules: [module]) }
    }

    /// Each path's injector (and template), made once per configuration: every path makes the
    /// same requests in the same order, each on injectors of its own.
    private var environments: [DfPath: Result<DfEnvironment, any Error>] = [:]
    /// The paths whose injector or template was not built.
    private var rejected: [DfDisagreement] = []

    mutating func run() async {
        for path in DfPath.allCases {
            do {
                let injector = try await injector()
                var template: ChildTemplate<DfToken>?
                if path == .templateChild || path == .templateChildAwaited {
                    template = try await MainActor.run {
                        try injector.childTemplate(providing: DfToken.self) { $0.bind(DfHolder.self) }
                    }
                }
                environments[path] = .success(DfEnvironment(injector: injector, template: template))
            } catch {
                environments[path] = .failure(error)
                // Every configuration is valid by the documented rules: its injector and its
                // template must be built.
                let kind = (error as? InjectionError)?.kind
                rejected.append(DfDisagreement(
                    seed: seed, configuration: configuration.description, request: "building the injector", path: path,
                    outcome: DfOutcome(shape: kind == nil ? "\(error)" : nil, kind: kind), expected: DfOutcome(shape: "built")))
            }
        }
        if let first = rejected.first {
            disagreements.append(first)
            return
        }
        let boxDescribe: @Sendable (DfBox) -> (shape: String, kept: AnyObject?) = { ($0.shape, $0) }
        for index in configuration.boxes.indices {
            await compare(DfRequest("k\(index)", Key<DfBox>(named: "k\(index)"), named: "k\(index)", describe: boxDescribe))
        }
        await compare(DfRequest("DfLeaf", Key<DfLeaf>()) { ($0.shape, $0.kept) })
        await compare(DfRequest("DfShared", Key<DfShared>(), asArgument: { try $0.getInstance(DfHolder.self).shared }) {
            ($0.shape, $0.kept)
        })
        await compare(DfRequest("DfHolder", Key<DfHolder>()) { ($0.shape, $0.kept) })
        await compare(DfRequest("DfAsyncLeaf", Key<DfAsyncLeaf>()) { ($0.shape, $0.kept) })
        await compare(DfRequest("DfAsyncShared", Key<DfAsyncShared>()) { ($0.shape, $0.kept) })
        await compare(DfRequest("DfMain", Key<DfMain>()) { ($0.shape, $0.kept) })
        await compare(DfRequest("DfMainShared", Key<DfMainShared>()) { ($0.shape, $0.kept) })
        await compare(DfRequest("DfNested", Key<DfNested>()) { ($0.shape, $0.kept) })
        await compare(DfRequest("Int??", Key<Int??>(), asArgument: { try $0.getInstance(DfNested.self).value }) {
            (String(describing: $0), nil)
        })
        await compare(DfRequest("DfDeepRoot", Key<DfDeepRoot>()) { ($0.shape, $0.kept) })
        await compare(DfRequest("DfAsyncDeepRoot", Key<DfAsyncDeepRoot>()) { ($0.shape, $0.kept) })
        await compare(DfRequest("DfService", Key<any DfService>()) { ("DfService", $0) })
        await compare(DfRequest("[DfBox]", Key<[DfBox]>()) { boxes in
            ("[" + boxes.map(\.shape).joined(separator: ",") + "]", boxes.first)
        })
    }

    /// Compares every path with the model: each must give what the model predicts for it, the
    /// awaited path included.
    private mutating func compare<Value: Sendable>(_ request: DfRequest<Value>) async {
        guard let expectation = DfModel(configuration: configuration).expectation(for: request.name) else {
            disagreements.append(DfDisagreement(seed: seed, configuration: configuration.description, request: request.name,
                                                path: .awaited, outcome: DfOutcome(shape: "no prediction"),
                                                expected: DfOutcome(shape: "a prediction")))
            return
        }
        for path in DfPath.allCases {
            if path == .argument && request.asArgument == nil { continue }
            let outcome = await outcome(of: request, on: path)
            requests += 3
            let expected = expectation.outcome(on: path)
            if outcome != expected {
                disagreements.append(DfDisagreement(seed: seed, configuration: configuration.description,
                                                    request: request.name, path: path, outcome: outcome, expected: expected))
            }
        }
    }

    /// Two requests through `path`, both held while the third (the family's) is made.
    private func outcome<Value: Sendable>(of request: DfRequest<Value>, on path: DfPath) async -> DfOutcome {
        do {
            guard let environment = try environments[path]?.get() else { return DfOutcome(shape: "no environment") }
            let injector = environment.injector
            let make = try maker(for: request, on: path, in: environment)
            let first = try await make()
            let second = try await make()
            let family = path.isChild ? try await injector.instance(request.key) : try await make()
            let (shape, kept) = request.describe(first)
            let secondKept = request.describe(second).kept, familyKept = request.describe(family).kept
            return DfOutcome(shape: shape, kind: nil,
                             shared: kept.map { object in secondKept.map { $0 === object } ?? false },
                             sharedWithFamily: kept.map { object in familyKept.map { $0 === object } ?? false })
        } catch let error as InjectionError {
            return DfOutcome(kind: error.kind)
        } catch {
            return DfOutcome(shape: "non-InjectionError \(error)")
        }
    }

    /// What makes one value of `request` through `path`: each call a new request (and for a
    /// child path, a new child).
    private func maker<Value: Sendable>(
        for request: DfRequest<Value>, on path: DfPath, in environment: DfEnvironment
    ) throws -> @Sendable () async throws -> Value {
        let key = request.key, name = request.keyName, injector = environment.injector
        switch path {
        case .awaited:
            return { try await injector.instance(key) }
        case .synchronous:
            return { try injector.getInstance(key) }
        case .mainActor:
            return { try await MainActor.run { try injector.getInstance(key) } }
        case .lazyGet:
            return { try injector.getInstance(Key<Lazy<Value>>(named: name)).get() }
        case .lazyValue:
            return { try await injector.instance(Key<Lazy<Value>>(named: name)).value }
        case .factoryMake:
            return { try injector.getInstance(Key<Factory<Value>>(named: name)).make() }
        case .factoryInstance:
            return { try await injector.instance(Key<Factory<Value>>(named: name)).instance() }
        case .plainChild, .plainChildAwaited:
            let awaited = path == .plainChildAwaited
            return {
                let child = try injector.child { $0.bind(Key<String>(named: "df-unrelated")).to(instance: "x") }
                return awaited ? try await child.instance(key) : try child.getInstance(key)
            }
        case .templateChild, .templateChildAwaited:
            guard let template = environment.template else { return { try injector.getInstance(key) } }
            let awaited = path == .templateChildAwaited
            return {
                let child = try template.child(DfToken())
                return awaited ? try await child.instance(key) : try child.getInstance(key)
            }
        case .argument:
            guard let asArgument = request.asArgument else { return { try injector.getInstance(key) } }
            return { try asArgument(injector) }
        }
    }
}

/// The injector a path makes its requests of, and for a template path, the template.
struct DfEnvironment: Sendable {
    let injector: Injector
    let template: ChildTemplate<DfToken>?
}

extension DfPath {
    var isChild: Bool {
        switch self {
        case .plainChild, .plainChildAwaited, .templateChild, .templateChildAwaited: true
        default: false
        }
    }
}

/// The seeds to run: `SIGHTLESS_SEED` alone, or `SIGHTLESS_DIFFERENTIAL_COUNT` of them (300 by
/// default) from a fixed start, so that every run checks the same configurations.
private func dfSeeds() -> [UInt64] {
    if let text = getenv("SIGHTLESS_SEED").map({ String(cString: $0) }), let seed = UInt64(text) { return [seed] }
    let count = getenv("SIGHTLESS_DIFFERENTIAL_COUNT").map { String(cString: $0) }.flatMap { Int($0) } ?? 1_000
    return (0..<UInt64(max(count, 1))).map { 0xD1FF_0000 + $0 }
}

@Suite("Differential: one meaning on every path")
struct DifferentialTests {
    @Test("every path gives the same values, sharing and error kinds for random configurations")
    func everyPathAgrees() async {
        var disagreements: [DfDisagreement] = []
        var requests = 0
        let seeds = dfSeeds()
        for seed in seeds {
            var run = DfRun(seed: seed)
            await run.run()
            requests += run.requests
            disagreements += run.disagreements
            if seeds.count == 1 { print("differential: seed \(seed): \(run.configuration)") }
        }
        print("differential: \(seeds.count) configurations, \(requests) requests, \(disagreements.count) disagreements")
        for disagreement in disagreements.prefix(20) { Issue.record("\(disagreement)") }
        #expect(disagreements.isEmpty)
    }

    @Test("the configurations cover every kind of binding, scope and declaration the generator knows")
    func configurationsCoverEveryKind() {
        let configurations = dfSeeds().map(DfConfiguration.init(seed:))
        let bindings = configurations.flatMap(\.boxes)
        #expect(bindings.contains(.instance))
        for scope in DfScope.allCases {
            #expect(bindings.contains { if case .closure(_, scope) = $0 { true } else { false } }, "closure in \(scope)")
            #expect(bindings.contains { if case .alias(_, scope) = $0 { true } else { false } }, "alias in \(scope)")
        }
        #expect(configurations.contains { !$0.decorated.isEmpty })
        #expect(configurations.contains { !$0.contributed.isEmpty })
        #expect(configurations.contains { $0.contextualLeaf })
        #expect(configurations.contains { $0.bindsInt })
        #expect(configurations.contains { !$0.bindsInt })
        #expect(configurations.contains { $0.service?.mainActor == true && $0.service?.singleton == true })
        #expect(configurations.contains { $0.service?.mainActor == false })
    }

    @Test("a configuration's declarations reach what they declare")
    func declarationsTakeEffect() async throws {
        var configuration = DfConfiguration(seed: 0)
        configuration.boxes = [.instance, .closure(needs: 0, scope: .singleton), .alias(of: 1, scope: .unscoped)]
        configuration.decorated = [2]
        configuration.contributed = [0, 2]
        configuration.contextualLeaf = true
        configuration.bindsInt = true
        configuration.service = (mainActor: true, singleton: true)
        let module = DfModule(configuration: configuration)
        let injector = try await MainActor.run { try Injector(modules: [module]) }
        #expect(try injector.getInstance(Key<DfBox>(named: "k2")).shape == "d2(c1(i0))")
        #expect(try injector.getInstance(Key<[DfBox]>()).map(\.shape) == ["i0", "d2(c1(i0))"])
        #expect(try injector.getInstance(DfNested.self).shape == "Nested(Optional(Optional(11)),nil)")
        let service = try await injector.instance(Key<any DfService>())
        #expect(service === (try await injector.instance(Key<any DfService>())))
    }

    @Test("a path that gives other than the model predicts is a disagreement")
    func disagreementIsReported() {
        let value = DfOutcome(shape: "Leaf", kind: nil, shared: false, sharedWithFamily: false)
        let other = DfOutcome(shape: "Leaf", kind: nil, shared: true, sharedWithFamily: false)
        #expect(value != other)
        #expect(DfExpectation(outcome: value).outcome(on: .synchronous) == value)
        #expect(DfExpectation(outcome: value).outcome(on: .synchronous) != DfOutcome(kind: .cyclicDependency))
    }

    @Test("the model allows needsAwait only for a key that needs await, and offActor only off the main actor for a main-actor key")
    func allowedDifferences() {
        let value = DfOutcome(shape: "AsyncLeaf", kind: nil, shared: false, sharedWithFamily: false)
        let awaited = DfExpectation(outcome: value, needsAwait: true)
        #expect(awaited.outcome(on: .synchronous) == DfOutcome(kind: .needsAwait))
        #expect(awaited.outcome(on: .factoryInstance) == value)
        #expect(DfExpectation(outcome: value).outcome(on: .synchronous) == value)
        let main = DfExpectation(outcome: value, mainActor: true)
        #expect(main.outcome(on: .lazyGet) == DfOutcome(kind: .offActor))
        #expect(main.outcome(on: .mainActor) == value)
        #expect(DfExpectation(outcome: DfOutcome(kind: .missingBinding), needsAwait: true).outcome(on: .synchronous)
                == DfOutcome(kind: .missingBinding))
    }

    @Test("the model predicts a configuration's values from its declarations")
    func modelPredictsDeclarations() {
        var configuration = DfConfiguration(seed: 0)
        configuration.boxes = [.instance, .closure(needs: 0, scope: .singleton), .alias(of: 1, scope: .unscoped)]
        configuration.decorated = [2]
        configuration.contributed = [0, 2]
        configuration.bindsInt = false
        configuration.contextualLeaf = true
        configuration.service = nil
        let model = DfModel(configuration: configuration)
        #expect(model.shape(ofBox: 2) == "d2(c1(i0))")
        #expect(model.sharesBox(0) && model.sharesBox(1) && !model.sharesBox(2))
        #expect(model.expectation(for: "[DfBox]")?.outcome.shape == "[i0,d2(c1(i0))]")
        #expect(model.expectation(for: "DfNested")?.outcome.shape == "Nested(Optional(nil),nil)")
        #expect(model.expectation(for: "DfService")?.outcome.kind == .missingBinding)
    }
}
