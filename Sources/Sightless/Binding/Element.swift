/// One thing a module records, as data: the graph compiler reads the elements of every module,
/// the exporters draw them, and nothing is built while they are recorded.
///
/// Every case but a binding and an observer is boxed, so that an element is as small as a
/// binding: a binder keeps a list of them, and the rules read it again.
///
/// A binder keeps its elements in the order they were declared, and the graph's rules read them
/// in that order, the modules' before the overrides' (`RecordedElements`).
enum Element: Sendable {
    /// A key and how its values are built.
    case binding(Recipe)
    /// A key the app will request: validated, compiled and drawn with the rest of the graph
    /// when the injector is built.
    indirect case entryPoint(AnyKey, SourceLocation)
    /// A function wrapping every value of a key.
    indirect case decorator(Decorator)
    /// An element added to an array, a set or a map that several modules contribute to.
    indirect case contribution(Contribution)
    /// A binding that serves one consumer's dependencies on a key instead of the key's own.
    indirect case contextual(ContextualBinding)
    /// A type offered as an implementation of a protocol, for auto-wiring.
    indirect case candidate(Candidate)
    /// A callback for every instance the injector builds.
    case observer(@Sendable (InstanceEvent) -> Void)

    /// The binding this element records, if it is one.
    var recipe: Recipe? {
        switch self {
        case .binding(let recipe): recipe
        default: nil
        }
    }
}
