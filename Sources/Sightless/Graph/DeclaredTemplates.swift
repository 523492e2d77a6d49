/// The child templates declared from one injector, as its errors name them: a key nothing in
/// an injector provides may be a value a template gives each of its children, or a key a
/// template's modules bind, which serve only that template's children. Recorded when a
/// template is declared, read only when a key is missing.
struct DeclaredTemplates: Sendable {
    /// One template: where it was declared, the keys its children are made with, and the keys
    /// its modules bind.
    struct Template: Sendable {
        let location: SourceLocation
        let provided: Set<AnyKey>
        let bound: Set<AnyKey>
    }

    /// What a template has to do with a key.
    enum Relation {
        /// Each child of the template is made with a value of the key.
        case provides(SourceLocation)
        /// The template's modules bind the key.
        case binds(SourceLocation)
    }

    private let templates = Locked<[Template]>([])

    /// Records a template declared from the injector; one declared again at the same place
    /// replaces the one before, so that a template made again and again is recorded once.
    func record(_ template: Template) {
        templates.withLock { templates in
            templates.removeAll { $0.location == template.location }
            templates.append(template)
        }
    }

    /// What the first template declared that provides `key`, or else binds it, has to do
    /// with it; `nil` when none does.
    func relation(to key: AnyKey) -> Relation? {
        templates.withLock { templates in
            if let template = templates.first(where: { $0.provided.contains(key) }) { return .provides(template.location) }
            if let template = templates.first(where: { $0.bound.contains(key) }) { return .binds(template.location) }
            return nil
        }
    }

    /// What the templates of the first of `registries` that has one to do with `key` have to
    /// do with it: an injector's own templates first, then its parent's, and so on up.
    static func relation(to key: AnyKey, in registries: [DeclaredTemplates]) -> Relation? {
        for registry in registries {
            if let relation = registry.relation(to: key) { return relation }
        }
        return nil
    }
}
