/// The compiled properties of one ``Injectable`` type, for ``Injector/inject(into:)-(Value)``:
/// compiled and validated on first use, like a type first requested by `getInstance`.
struct MemberInjector<Value: Injectable>: Sendable {
    let inject: @Sendable (inout Value, inout Resolution) throws -> Void
}

/// Lets the graph compiler find the recipe of a `MemberInjector` key from the key's type.
protocol MemberInjection: SendableMetatype {
    static var recipe: Recipe { get }
}

extension MemberInjector: MemberInjection {
    static var recipe: Recipe {
        let properties = Value.properties
        let key = Key<MemberInjector<Value>>()
        var problems: [InjectionError.Problem] = []
        if !(Value.self is Value.Instance.Type) {
            problems.append(InjectionError.Problem(
                .propertiesOfOtherType(key: Key<Value>().erased, fills: AnyKey(type: Value.Instance.self, name: nil))))
        }
        return Recipe(key, source: .type(justInTime: true), location: nil,
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
