/// A dependency built on first use rather than before its consumer, then kept.
///
/// Inject `Lazy<T>` where `T` is costly and not always needed, or where two types need each
/// other: a `Lazy` edge may close a dependency cycle, since nothing is built until ``get()``.
///
/// ```swift
/// final class ReportScreen: Injectable {
///     let exporter: Lazy<PdfExporter>
///     init(exporter: Lazy<PdfExporter>) { self.exporter = exporter }
///     static let initializer = Initializer(ReportScreen.init(exporter:))
///
///     func export() throws { try exporter.get().export() }   // built here, once
/// }
/// ```
///
/// The first ``get()`` resolves `T` (its binding, or just in time) and keeps the result, so
/// every later call returns the same value, also when several threads call at once. A `Lazy`
/// holds its injector weakly: once the injector is gone, a first `get()` throws.
/// For a new instance on every call, inject a ``Factory`` instead.
public final class Lazy<Value>: Sendable {
    private weak let injector: Injector?
    private let reference: NodeReference<Value>
    private let storage: SingletonStorage

    init(injector: Injector, reference: NodeReference<Value>) {
        self.injector = injector
        self.reference = reference
        self.storage = SingletonStorage(key: reference.key)
    }

    /// The value: built on the first call, then the same one on every call.
    ///
    /// - Throws: an ``InjectionError`` when building the value fails (the next call tries
    ///   again), or when the injector has been released before the first call.
    public func get() throws(InjectionError) -> Value {
        if let value = storage.existing(as: Value.self) { return value }
        guard let injector, let node = reference.node else {
            throw InjectionError(.missingBinding, key: reference.key,
                                 message: "Lazy<\(reference.key.typeName)> was first used after its injector was released.",
                                 fix: "Keep the Injector alive for as long as objects it built use their Lazy dependencies.")
        }
        return try injector.run(node, active: []) { (resolution: inout Resolution) throws -> Value in
            try storage.instance(&resolution, build: node.plan)
        }
    }
}

extension Lazy: DeferredDependency {
    static var targetType: Any.Type { Value.self }
    static var factoryArguments: [Any.Type]? { nil }

    static func deferredPlan(linking linker: any Linking, dependency: Dependency) throws -> Any {
        let reference = try linker.deferredNode(for: dependency, as: Value.self)
        let plan: Plan<Lazy<Value>> = { resolution in Lazy(injector: resolution.injector, reference: reference) }
        return plan
    }
}
