/// The way from a value built on an actor only for what it holds (`Meaning.isolatedForBuild`)
/// to the value isolated there: what a request off that actor reports.
///
/// The nodes of a graph that hold an isolated value share one table of the next step of each
/// one's way, and a way is walked only when an error names it: a chain of kept values over one
/// main-actor value links in linear time, where a copy of each node's whole way would not.
struct HeldIsolation: Sendable {
    /// The key of every node of the graph, by index.
    let keys: [AnyKey]
    /// The next node of each node's way, `nil` at the isolated value (and for a node that holds
    /// none).
    let next: [Int?]
    /// Where this way starts.
    let node: Int

    /// The keys from the node to the isolated value, the node first.
    var path: [AnyKey] {
        var path: [AnyKey] = []
        var current: Int? = node
        while let index = current, path.count <= keys.count {
            path.append(keys[index])
            current = next[index]
        }
        return path
    }

    /// The isolated value at the end of the way.
    var isolated: AnyKey {
        var current = node, steps = 0
        while let following = next[current], steps <= keys.count {
            current = following
            steps += 1
        }
        return keys[current]
    }
}
