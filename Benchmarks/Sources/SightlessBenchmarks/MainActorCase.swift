import Sightless
import Swinject

// The `main-actor` case: a screen of an app whose view models are isolated to the main actor,
// requested on the main actor: a screen (main-actor) over its model (main-actor, two arguments)
// over an API client and the store it shares with the model (a singleton). Measured by
// instructions only (`--profile main-actor …`), against the same objects wired by hand and
// against Swinject, which makes the main-actor ones in `MainActor.assumeIsolated`.

final class ScreenStore: Injectable, Sendable {
    init() {}
    static let initializer = Initializer(ScreenStore.init)
    static var scope: Scope { .singleton }
}

final class ScreenApi: Injectable, Sendable {
    let store: ScreenStore
    init(store: ScreenStore) { self.store = store }
    static let initializer = Initializer(ScreenApi.init(store:))
}

@MainActor final class ScreenModel: MainActorInjectable {
    let api: ScreenApi
    let store: ScreenStore
    init(api: ScreenApi, store: ScreenStore) {
        self.api = api
        self.store = store
    }
    static let initializer = Initializer(ScreenModel.init(api:store:))
}

@MainActor final class ModelScreen: MainActorInjectable {
    let model: ScreenModel
    init(model: ScreenModel) { self.model = model }
    static let initializer = Initializer(ModelScreen.init(model:))
}

/// Requests `n` screens on the main actor.
@MainActor func mainActorRequests(_ contender: Contender, _ n: Int, _ sink: Sink) throws {
    switch contender {
    case .handWired:
        let store = ScreenStore()
        for _ in 0..<n {
            sink.take(ModelScreen(model: ScreenModel(api: ScreenApi(store: store), store: store)))
        }
    case .sightless:
        let injector = try Injector(modules: [AnyModule { binder in binder.entryPoint(ModelScreen.self) }])
        let first = try injector.getInstance(ModelScreen.self)
        guard first.model.api.store === first.model.store else {
            throw BenchmarkFailure(description: "Sightless: the store is not shared")
        }
        for _ in 0..<n { sink.take(try injector.getInstance(ModelScreen.self)) }
    case .swinject:
        let container = Container(defaultObjectScope: .transient)
        container.register(ScreenStore.self) { _ in ScreenStore() }.inObjectScope(.container)
        container.register(ScreenApi.self) { r in ScreenApi(store: r.resolve(ScreenStore.self)!) }
        container.register(ScreenModel.self) { r in
            let api = r.resolve(ScreenApi.self)!
            let store = r.resolve(ScreenStore.self)!
            return MainActor.assumeIsolated { ScreenModel(api: api, store: store) }
        }
        container.register(ModelScreen.self) { r in
            let model = r.resolve(ScreenModel.self)!
            return MainActor.assumeIsolated { ModelScreen(model: model) }
        }
        for _ in 0..<n { sink.take(try unwrap(container.resolve(ModelScreen.self), "ModelScreen")) }
    }
}
