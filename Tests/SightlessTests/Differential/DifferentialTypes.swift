import Sightless

// The fixed pool of types the differential suite's configurations bind and request. Each
// describes itself structurally (`shape`), so that values built on different paths, by
// different injectors, compare equal when they are built alike; and each names the object whose
// identity tells which requests shared a value (`kept`).

/// A value the suite compares: its structure, and the object a scope may share.
protocol DfValue {
    var shape: String { get }
    var kept: AnyObject? { get }
}

/// A value of a named key `k…`, built by a closure or given as an instance.
final class DfBox: Sendable, DfValue {
    let label: String
    let parts: [DfBox]
    init(_ label: String, _ parts: [DfBox] = []) {
        self.label = label
        self.parts = parts
    }
    var shape: String { parts.isEmpty ? label : "\(label)(\(parts.map(\.shape).joined(separator: ",")))" }
    var kept: AnyObject? { self }
}

final class DfLeaf: Injectable, DfValue, Sendable {
    static let initializer = Initializer(DfLeaf.init)
    var shape: String { "Leaf" }
    var kept: AnyObject? { self }
}

/// A singleton by its own declaration, needing nothing a child is made with.
final class DfShared: Injectable, DfValue, Sendable {
    let leaf: DfLeaf
    init(leaf: DfLeaf) { self.leaf = leaf }
    static let initializer = Initializer(DfShared.init(leaf:))
    static var scope: Scope { .singleton }
    var shape: String { "Shared(\(leaf.shape))" }
    var kept: AnyObject? { self }
}

/// What a template binds: it reaches the family's singleton `DfShared`.
final class DfHolder: Injectable, DfValue, Sendable {
    let shared: DfShared
    let later: Lazy<DfLeaf>
    init(shared: DfShared, later: Lazy<DfLeaf>) {
        self.shared = shared
        self.later = later
    }
    static let initializer = Initializer(DfHolder.init(shared:later:))
    var shape: String { "Holder(\(shared.shape))" }
    var kept: AnyObject? { shared }
}

/// Built with `await`.
final class DfAsyncLeaf: Injectable, DfValue, Sendable {
    init() async {}
    static let initializer = Initializer(DfAsyncLeaf.init)
    var shape: String { "AsyncLeaf" }
    var kept: AnyObject? { self }
}

/// A singleton built with `await`.
final class DfAsyncShared: Injectable, DfValue, Sendable {
    let leaf: DfLeaf
    init(leaf: DfLeaf) async { self.leaf = leaf }
    static let initializer = Initializer(DfAsyncShared.init(leaf:))
    static var scope: Scope { .singleton }
    var shape: String { "AsyncShared(\(leaf.shape))" }
    var kept: AnyObject? { self }
}

/// Isolated to the main actor.
@MainActor
final class DfMain: MainActorInjectable, DfValue {
    init() {}
    static let initializer = Initializer(DfMain.init)
    nonisolated var shape: String { "Main" }
    nonisolated var kept: AnyObject? { self }
}

/// Isolated to the main actor, and a singleton by its own declaration.
@MainActor
final class DfMainShared: MainActorInjectable, DfValue {
    init() {}
    static let initializer = Initializer(DfMainShared.init)
    static var scope: Scope { .singleton }
    nonisolated var shape: String { "MainShared" }
    nonisolated var kept: AnyObject? { self }
}

/// Takes a nested optional, and an optional of a type that can always be built.
final class DfNested: Injectable, DfValue, Sendable {
    let value: Int??
    let leaf: DfLeaf?
    init(value: Int??, leaf: DfLeaf?) {
        self.value = value
        self.leaf = leaf
    }
    static let initializer = Initializer(DfNested.init(value:leaf:))
    var shape: String { "Nested(\(String(describing: value)),\(leaf?.shape ?? "nil"))" }
    var kept: AnyObject? { self }
}

/// Recurses through a `Factory` with a creation-time argument.
final class DfDeep: Injectable, DfValue, Sendable {
    let depth: Int
    let inner: DfDeep?
    init(depth: Int, factory: Factory<DfDeep, Int>) throws {
        self.depth = depth
        inner = depth > 0 ? try factory.make(depth - 1) : nil
    }
    static let initializer = Initializer(DfDeep.init(depth:factory:), .dynamic, .inject)
    var shape: String { "Deep(\(depth)\(inner.map { "," + $0.shape } ?? ""))" }
    var kept: AnyObject? { self }
}

/// Recurses with `await` through a `Factory` with a creation-time argument.
final class DfAsyncDeep: Injectable, DfValue, Sendable {
    let depth: Int
    let inner: DfAsyncDeep?
    init(depth: Int, factory: Factory<DfAsyncDeep, Int>) async throws {
        self.depth = depth
        inner = depth > 0 ? try await factory.instance(depth - 1) : nil
    }
    static let initializer = Initializer(DfAsyncDeep.init(depth:factory:), .dynamic, .inject)
    var shape: String { "AsyncDeep(\(depth)\(inner.map { "," + $0.shape } ?? ""))" }
    var kept: AnyObject? { self }
}

/// The roots that start the two recursions, with no argument of their own.
final class DfDeepRoot: Injectable, DfValue, Sendable {
    let deep: DfDeep
    init(factory: Factory<DfDeep, Int>) throws { deep = try factory.make(3) }
    static let initializer = Initializer(DfDeepRoot.init(factory:))
    var shape: String { "DeepRoot(\(deep.shape))" }
    var kept: AnyObject? { self }
}

final class DfAsyncDeepRoot: Injectable, DfValue, Sendable {
    let deep: DfAsyncDeep
    init(factory: Factory<DfAsyncDeep, Int>) async throws { deep = try await factory.instance(3) }
    static let initializer = Initializer(DfAsyncDeepRoot.init(factory:))
    var shape: String { "AsyncDeepRoot(\(deep.shape))" }
    var kept: AnyObject? { self }
}

/// A protocol key, bound to one of its implementations.
protocol DfService: AnyObject, Sendable {}

final class DfPlainService: DfService, Injectable {
    static let initializer = Initializer(DfPlainService.init)
}

@MainActor
final class DfMainService: DfService, MainActorInjectable {
    init() {}
    static let initializer = Initializer(DfMainService.init)
}

/// The value each template child is made with.
final class DfToken: Sendable {}
