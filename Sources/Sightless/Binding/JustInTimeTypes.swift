/// What each type the graph compiler meets unbound declares to the injector, learnt once per
/// process: an ``Injectable`` or ``MainActorInjectable`` type, a member injector, or nothing.
///
/// The runtime tells whether a type conforms to a protocol by scanning every conformance record
/// of the process the first time it is asked about that type and protocol. A declaration whose
/// generic signature already says (`to(HttpApi.self)` with an `Injectable` `HttpApi`) records
/// the type here without asking, and a type asked about once is not asked again.
enum JustInTimeTypes {
    /// The recipe of `type` built just in time, or `nil` when it declares nothing.
    static func recipe(of type: Any.Type) -> Recipe? {
        let identity = ObjectIdentifier(type)
        let declared: Declared
        if let known = known.value(for: identity) {
            declared = known
        } else {
            declared = Declared(asking: type)
            known.set(declared, for: identity)
        }
        switch declared {
        case .injectable(let injectable): return .typeRecipe(injectable, name: nil, location: nil, justInTime: true)
        case .mainActor(let isolated): return .mainActorType(isolated, name: nil, location: nil, justInTime: true)
        case .members(let members): return members.recipe
        case .nothing: return nil
        }
    }

    /// Records that `type` is ``Injectable``, which its declaration's generic signature says.
    static func record<T: Injectable>(_ type: T.Type) {
        let identity = ObjectIdentifier(type)
        if known.value(for: identity) == nil { known.set(.injectable(type), for: identity) }
    }

    /// Records that `type` is ``MainActorInjectable``, which its declaration's generic signature
    /// says.
    static func record<T: MainActorInjectable>(_ type: T.Type) {
        let identity = ObjectIdentifier(type)
        if known.value(for: identity) == nil { known.set(.mainActor(type), for: identity) }
    }

    /// What a type declares to the injector.
    private enum Declared: Sendable {
        case injectable(any Injectable.Type)
        case mainActor(any MainActorInjectable.Type)
        case members(any MemberInjection.Type)
        case nothing

        /// Asked of the runtime, once, and the answer kept: ``Injectable`` first, which most
        /// types the graph meets unbound are, so that they cost one lookup; then whether the
        /// type is an `Optional`, a `Lazy` or a `Factory` (`DependencyTraits`, which the graph
        /// asks of such a type next anyway), which declares nothing; then the rest. A member
        /// injector is a struct, but public Swift tells a struct by nothing it promises.
        init(asking type: Any.Type) {
            if let injectable = type as? any Injectable.Type {
                self = .injectable(injectable)
            } else if DependencyTraits.isWrapper(type) {
                self = .nothing
            } else if let isolated = type as? any MainActorInjectable.Type {
                self = .mainActor(isolated)
            } else if let members = type as? any MemberInjection.Type {
                self = .members(members)
            } else {
                self = .nothing
            }
        }
    }

    /// Facts about types, which never change: shared by every injector, like the runtime's own
    /// conformance cache.
    private static let known = LockedDictionary<ObjectIdentifier, Declared>()
}
