import Sightless

// What a configuration of the differential suite means, predicted from the documented rules
// alone (DESIGN.md's "Semantics", Scopes.md, Composition.md, Concurrency.md): plain recursion
// over the configuration, sharing nothing with the library. Every path is compared with it; the
// differences between paths it allows are the ones it predicts: `needsAwait` on a synchronous
// path for a key whose build needs `await`, `offActor` on a synchronous path off the main actor
// for a key built on the main actor.

/// What the model predicts of one request, whatever the path.
struct DfExpectation: CustomStringConvertible {
    /// The outcome of an awaited request, or of any path that may build the value.
    var outcome: DfOutcome
    /// Whether building the value needs `await` (an `async` build the path's injector did not run).
    var needsAwait = false
    /// Whether the value is built on the main actor.
    var mainActor = false

    /// The outcome `path` must give.
    func outcome(on path: DfPath) -> DfOutcome {
        guard outcome.kind == nil, path.isSynchronous else { return outcome }
        if needsAwait { return DfOutcome(kind: .needsAwait) }
        if mainActor && !path.isOnMainActor { return DfOutcome(kind: .offActor) }
        return outcome
    }

    var description: String {
        "\(outcome)\(needsAwait ? ", needs await" : "")\(mainActor ? ", on the main actor" : "")"
    }
}

/// The model of one configuration.
struct DfModel {
    let configuration: DfConfiguration

    /// The structure of the value of `k<index>`.
    func shape(ofBox index: Int) -> String {
        let inner: String
        switch configuration.boxes[index] {
        case .instance: inner = "i\(index)"
        case .closure(let needs, _): inner = "c\(index)" + (needs.map { "(\(shape(ofBox: $0)))" } ?? "")
        case .alias(let target, _): inner = shape(ofBox: target)
        }
        return configuration.decorated.contains(index) ? "d\(index)(\(inner))" : inner
    }

    /// Whether two requests of `k<index>`, the first held while the second is made, get one
    /// object: a scope that keeps it (a singleton, a weak value while held) shares what it built;
    /// a decorator makes a new value on every build; an instance is one object; an alias that
    /// keeps nothing hands out what its target hands out.
    func sharesBox(_ index: Int) -> Bool {
        let binding = configuration.boxes[index]
        let keeps: Bool
        switch binding {
        case .instance: keeps = false
        case .closure(_, let scope), .alias(_, let scope): keeps = scope == .singleton || scope == .weak
        }
        if keeps { return true }
        if configuration.decorated.contains(index) { return false }
        switch binding {
        case .instance: return true
        case .closure: return false
        case .alias(let target, _): return sharesBox(target)
        }
    }

    /// A value kept per key: shared with the second request and with the family's.
    private func value(_ shape: String, shared: Bool?) -> DfOutcome {
        DfOutcome(shape: shape, kind: nil, shared: shared, sharedWithFamily: shared)
    }

    /// The value an `Int??` dependency gets: `Int?` can always be given (`nil` when `Int` is not
    /// bound), so the outer optional is always filled.
    private var nestedInt: String { configuration.bindsInt ? "Optional(Optional(11))" : "Optional(nil)" }

    /// What a request named `name` (as `DfRun` names them) gives.
    func expectation(for name: String) -> DfExpectation? {
        if name.hasPrefix("k"), let index = Int(name.dropFirst()), configuration.boxes.indices.contains(index) {
            return DfExpectation(outcome: value(shape(ofBox: index), shared: sharesBox(index)))
        }
        switch name {
        case "DfLeaf": return DfExpectation(outcome: value("Leaf", shared: false))
        case "DfShared": return DfExpectation(outcome: value("Shared(Leaf)", shared: true))
        // The holder is new each time; the object it is compared by is the family's singleton.
        case "DfHolder": return DfExpectation(outcome: value("Holder(Shared(Leaf))", shared: true))
        case "DfAsyncLeaf": return DfExpectation(outcome: value("AsyncLeaf", shared: false), needsAwait: true)
        case "DfAsyncShared": return DfExpectation(outcome: value("AsyncShared(Leaf)", shared: true), needsAwait: true)
        case "DfMain": return DfExpectation(outcome: value("Main", shared: false), mainActor: true)
        case "DfMainShared": return DfExpectation(outcome: value("MainShared", shared: true), mainActor: true)
        case "DfNested":
            let leaf = configuration.contextualLeaf ? "nil" : "Leaf"
            return DfExpectation(outcome: value("Nested(\(nestedInt),\(leaf))", shared: false))
        case "Int??": return DfExpectation(outcome: DfOutcome(shape: nestedInt, kind: nil, shared: nil, sharedWithFamily: nil))
        case "DfDeepRoot":
            return DfExpectation(outcome: value("DeepRoot(\(deep("Deep", 3)))", shared: false))
        case "DfAsyncDeepRoot":
            return DfExpectation(outcome: value("AsyncDeepRoot(\(deep("AsyncDeep", 3)))", shared: false), needsAwait: true)
        case "DfService":
            guard let service = configuration.service else { return DfExpectation(outcome: DfOutcome(kind: .missingBinding)) }
            return DfExpectation(outcome: value("DfService", shared: service.singleton), mainActor: service.mainActor)
        case "[DfBox]":
            guard let first = configuration.contributed.first else {
                return DfExpectation(outcome: DfOutcome(kind: .missingBinding))
            }
            let shapes = configuration.contributed.map { shape(ofBox: $0) }.joined(separator: ",")
            return DfExpectation(outcome: value("[\(shapes)]", shared: sharesBox(first)))
        default: return nil
        }
    }

    /// A recursion through a `Factory` from `depth` down to 0.
    private func deep(_ label: String, _ depth: Int) -> String {
        "\(label)(\(depth)" + (depth > 0 ? "," + deep(label, depth - 1) : "") + ")"
    }
}
