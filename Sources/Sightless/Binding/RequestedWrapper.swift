/// A type whose value a request may ask for without a binding of its own, because it wraps a key
/// that may have one: `T?` (`nil` when nothing can build `T`), `Lazy<T>` and `Factory<T, …>`.
/// Requested, it is built from `T` exactly as an initializer's argument of that type would be.
protocol RequestedWrapper {
    static func requestRecipe(name: String?) -> Recipe
}

extension Recipe {
    /// The recipe of a requested wrapper of key `key`: its one dependency is the key itself, which
    /// the graph compiler follows to the key it wraps.
    static func wrapper<Value>(_ key: Key<Value>) -> Recipe {
        let dependency = Dependency(role: .target, key: key.erased, isDynamic: false,
                                    location: SourceLocation(fileID: "", line: 0))
        return Recipe(key, source: .wrapper, location: nil, dependencies: [dependency]) { linker in
            try linker.plan(for: dependency, as: Value.self)
        }
    }
}

extension Optional: RequestedWrapper {
    static func requestRecipe(name: String?) -> Recipe {
        .wrapper(Key<Wrapped?>(named: name))
    }
}
