/// One element a module adds to a collection: an array, a set or a map of a type, gathered
/// from every module that contributes (Guice's `Multibinder` and `MapBinder`, Dagger's
/// `@IntoSet` and `@IntoMap`).
///
/// Each contribution is an ordinary binding of a key of its own (the element's type under a
/// name that says which collection and which contribution), so it has its own target, scope
/// and dependencies, validated and drawn like any binding. The collection's key is bound by the
/// graph compiler to a recipe that gathers them.
struct Contribution: Sendable {
    /// The collection's key: `[HealthCheck]`, `Set<Tag>` or `[String: Route]`.
    let collection: AnyKey
    /// The key of the contribution's own binding.
    let element: AnyKey
    /// For a map, the entry's key.
    let mapKey: (any Hashable & Sendable)?
    let location: SourceLocation
    /// Whether the contribution was recorded by an override module.
    let isOverride: Bool
    /// Makes the collection's recipe from its contributions, in order.
    let gather: @Sendable ([Contribution]) -> Recipe

    /// For a map, the entry's key as Swift writes it (`"home"`), written when an error reads it:
    /// writing a value asks the runtime for its conformances.
    var mapKeyDescription: String? {
        mapKey.map { Dependency.written(mapKey: $0) }
    }

    /// The contribution as a child injector sees its parent's: one of the modules', which the
    /// child's overrides may replace.
    var inherited: Contribution {
        Contribution(collection: collection, element: element, mapKey: mapKey,
                     location: location, isOverride: false, gather: gather)
    }
}

extension Binder {
    /// Adds an element to an array of a type that several modules contribute to: plugins,
    /// middleware, health checks. The result binds the element as any key is bound.
    ///
    /// ```swift
    /// binder.contribute(to: [HealthCheck].self).to(DatabaseCheck.self).in(.singleton)
    /// binder.contribute(to: [HealthCheck].self).to { _ in DiskCheck(minimumFree: 1 << 30) }
    /// let checks = try injector.getInstance([HealthCheck].self)
    /// ```
    ///
    /// The array holds the contributions in the order the modules recorded them, then those of
    /// the overrides: an override module adds to a collection. To replace the whole collection
    /// in a test, override the collection's key itself: `binder.bind([HealthCheck].self).to(instance: [])`.
    public func contribute<Element>(
        to collection: [Element].Type, fileID: String = #fileID, line: Int = #line
    ) -> BindingBuilder<Element> {
        contribution(to: Key<[Element]>(), mapKey: nil, fileID: fileID, line: line) { contributions in
            Recipe.gathering(Key<[Element]>(), contributions) { (elements: [Element]) in elements }
        }
    }

    /// Adds an element to a set of a type that several modules contribute to; equal elements
    /// count once.
    ///
    /// ```swift
    /// binder.contribute(to: Set<String>.self).to(instance: "beta")
    /// ```
    public func contribute<Element: Hashable & SendableMetatype>(
        to collection: Set<Element>.Type, fileID: String = #fileID, line: Int = #line
    ) -> BindingBuilder<Element> {
        contribution(to: Key<Set<Element>>(), mapKey: nil, fileID: fileID, line: line) { contributions in
            Recipe.gathering(Key<Set<Element>>(), contributions) { (elements: [Element]) in Set(elements) }
        }
    }

    /// Adds an entry to a map of a type that several modules contribute to: route handlers by
    /// path, commands by name. Two contributions of one map key are an error naming both.
    ///
    /// ```swift
    /// binder.contribute(to: [String: Route].self, key: "notes").to(NotesRoute.self)
    /// let routes = try injector.getInstance([String: Route].self)
    /// ```
    ///
    /// An override module's entry replaces the modules' entry of the same key, and adds any
    /// other; overriding the map's key itself replaces the whole map.
    public func contribute<MapKey: Hashable & Sendable, Element>(
        to collection: [MapKey: Element].Type, key: MapKey, fileID: String = #fileID, line: Int = #line
    ) -> BindingBuilder<Element> {
        contribution(to: Key<[MapKey: Element]>(), mapKey: key, fileID: fileID, line: line) { contributions in
            let keys = contributions.map { $0.mapKey as? MapKey }
            return Recipe.gathering(Key<[MapKey: Element]>(), contributions) { (elements: [Element]) in
                var map: [MapKey: Element] = [:]
                map.reserveCapacity(elements.count)
                for (key, element) in zip(keys, elements) {
                    if let key { map[key] = element }
                }
                return map
            }
        }
    }

    private func contribution<Collection, Element>(
        to collection: Key<Collection>, mapKey: (any Hashable & Sendable)?, fileID: String, line: Int,
        gather: @escaping @Sendable ([Contribution]) -> Recipe
    ) -> BindingBuilder<Element> {
        let index = nextContributionNumber(of: collection.erased)
        let location = SourceLocation(fileID: fileID, line: line)
        // Named by what sets it apart; written in full only when an error or an export reads it.
        let name = ContributionName(prefix: contributionPrefix, isOverride: isRecordingOverrides, index: index,
                                    collection: Collection.self, module: recordingModule, location: location).recorded()
        let element = Key<Element>(named: name)
        record(.contribution(Contribution(
            collection: collection.erased, element: element.erased, mapKey: mapKey,
            location: location, isOverride: isRecordingOverrides, gather: gather)))
        return bind(element, fileID: fileID, line: line)
    }
}

extension Recipe {
    /// The recipe of a collection: one dependency per contribution, in order, and `assemble`
    /// turning their values into the collection. Unscoped: each request gathers the elements
    /// anew, each element kept as its own binding's scope says.
    static func gathering<Collection, Element>(
        _ key: Key<Collection>, _ contributions: [Contribution],
        assemble: @escaping @Sendable ([Element]) -> Collection
    ) -> Recipe {
        let dependencies = contributions.enumerated().map { index, contribution in
            if let mapKey = contribution.mapKey {
                return Dependency(mapEntry: mapKey, key: contribution.element, location: contribution.location)
            }
            return Dependency(role: .contribution("\(index + 1)"), key: contribution.element,
                              isDynamic: false, location: contribution.location)
        }
        return Recipe(key, source: .collection, location: contributions.first?.location, dependencies: dependencies) { linker in
            let plans = try dependencies.map { dependency in try linker.plan(for: dependency, as: Element.self) }
            return { resolution in
                var elements: [Element] = []
                elements.reserveCapacity(plans.count)
                for plan in plans { elements.append(try plan(&resolution)) }
                return assemble(elements)
            }
        }
    }
}
