/// The compiled properties of one ``Injectable`` type, for ``Injector/inject(into:)-(Value)``:
/// compiled and validated on first use, like a type first requested by `getInstance`.
struct MemberInjector<Value: Injectable> {
    let inject: (inout Value, inout Resolution) throws -> Void
}

extension Recipe {
    static func members<Value: Injectable>(of type: Value.Type) -> Recipe {
        let properties = Value.properties
        let key = Key<Value>()
        var problems: [InjectionError.Problem] = []
        if !(Value.self is Value.Instance.Type) {
            problems.append(InjectionError.Problem(
                .typeMismatch, key: key.erased,
                message: "\(Value.self).properties fills a \(Value.Instance.self), not a \(Value.self).",
                fix: "Declare Properties<\(Value.self)> for \(Value.self)."))
        }
        return Recipe(Key<MemberInjector<Value>>(), source: .type(justInTime: true), location: nil,
                      dependencies: properties.dependencies, problems: problems) { linker in
            let setProperties = try properties.link(linker)
            let injector = MemberInjector<Value> { instance, resolution in
                if let setProperties, var base = instance as? Value.Instance {
                    try setProperties(&base, &resolution)
                    if let updated = base as? Value { instance = updated }
                }
                instance.awakeFromInjection()
            }
            return { _ in injector }
        }
    }
}
