/// A unit of configuration: it records where things come from, and builds nothing.
///
/// ```swift
/// struct NetworkModule: Module {
///     func configure(_ binder: Binder) {
///         binder.bind(Api.self).to(HttpApi.self).in(.singleton)
///         binder.bind(Key<String>(named: "endpoint")).to(instance: "https://example.com")
///     }
/// }
///
/// let injector = try Injector(modules: [NetworkModule()])
/// ```
///
/// Several modules combine; binding the same key in two of them is an error unless the second
/// is passed as an override (`Injector(modules:overrides:)`), which is how a test swaps a real
/// service for a fake.
public protocol Module {
    /// Records this module's bindings.
    func configure(_ binder: Binder)
}

/// A module made of a closure that records its bindings, for bindings written in place.
@usableFromInline
struct RecordingModule: Module {
    let record: (Binder) -> Void

    @usableFromInline
    init(record: @escaping (Binder) -> Void) {
        self.record = record
    }

    @usableFromInline
    func configure(_ binder: Binder) {
        record(binder)
    }
}
