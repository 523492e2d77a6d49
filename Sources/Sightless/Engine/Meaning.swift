/// What the graph decides once for each of its nodes, before anything is built: who keeps the
/// node's value, the actor it is built on, whether it needs `await`, and what asking for it
/// again while it is being built means. Every request path (synchronous, awaited, on the main
/// actor, through a `Lazy` or `Factory`, from a child or a template's child) reads these
/// decisions from the node; none derives them again, so one declaration means one thing on
/// every path.
@usableFromInline
struct Meaning: Sendable, Equatable {
    /// Which injector of a family keeps the node's value.
    enum Owner: Sendable, Equatable, CustomStringConvertible {
        /// Nobody: a new value for every request (or one the binding was given).
        case none
        /// The injector that compiled the node. A self-declared singleton first reached through
        /// a child, and needing nothing of the child's, is compiled by the parent, and so is the
        /// family's one.
        case injector
        /// Each child made from a template, for a node the template compiled.
        case eachChild
        /// A parent injector, which compiled the node before.
        case parent

        var description: String {
            switch self {
            case .none: "none"
            case .injector: "this injector"
            case .eachChild: "each child"
            case .parent: "parent"
            }
        }
    }

    /// What asking for a node again, from inside its own build, means.
    @usableFromInline
    enum Reentry: Sendable, Equatable {
        /// Nothing new to build from: it can only recur, so it is a cycle, on every path.
        case cycle
        /// It takes creation-time arguments, which may differ from level to level (a `Factory`
        /// building a tree): a recursion, bounded by the stack or by `tooDeep`, on every path.
        case recursion
    }

    var owner: Owner
    /// The actor the value is built on, or `nil` for a nonisolated one. An alias takes its
    /// target's: it shares the target's value, so it is built where the target is.
    var isolation: ActorIsolation?
    /// Whether the value is nonisolated and built on `isolation` only for what it holds: a
    /// value kept beyond its request (a nonisolated singleton, an actor) that needs, at once, a
    /// value isolated to an actor is first built on that actor, then shared like any kept
    /// value. (A flag, so that a meaning stays a plain value that copies without retaining;
    /// the linker is given the keys from it to the isolated value, `LinkingNode.heldIsolated`.)
    var isolatedForBuild = false
    /// The key whose `async` build makes the node need `await` (its own, or one it builds at
    /// once), or `nil`.
    var awaited: AnyKey?
    var reentry: Reentry

    /// The meaning of a node linked outside any graph (a test's, say): kept by nobody,
    /// nonisolated, synchronous, a cycle when re-entered.
    static let plain = Meaning(owner: .none, isolation: nil, awaited: nil, reentry: .cycle)
}
