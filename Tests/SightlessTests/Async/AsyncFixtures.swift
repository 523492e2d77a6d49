import Sightless

// Types built with `await`, shared by the async suites.

/// Opens in an `async` initializer.
final class DatabasePool: Injectable, Sendable {
    let url: String
    init(url: String) async throws {
        await Task.yield()
        self.url = url
    }
    static let initializer = Initializer(DatabasePool.init(url:), .named("databaseURL"))
}

/// Needs an awaited dependency, built synchronously itself.
final class RecordStore: Injectable, Sendable {
    let pool: DatabasePool
    init(pool: DatabasePool) { self.pool = pool }
    static let initializer = Initializer(RecordStore.init(pool:))
}

/// Needs a repository: two levels above the awaited build.
final class ReportService: Injectable, Sendable {
    let repository: RecordStore
    let api: any Api
    init(repository: RecordStore, api: any Api) {
        self.repository = repository
        self.api = api
    }
    static let initializer = Initializer(ReportService.init(repository:api:))
}

/// Made by an `async` static factory with a dynamic argument.
final class UserSession: Injectable, Sendable {
    let pool: DatabasePool
    let user: String
    private init(pool: DatabasePool, user: String) {
        self.pool = pool
        self.user = user
    }
    static func open(pool: DatabasePool, user: String) async throws -> UserSession {
        await Task.yield()
        return UserSession(pool: pool, user: user)
    }
    static let initializer = Initializer(UserSession.open(pool:user:), .inject, .dynamic)
}

/// Refuses to open.
enum OpenError: Error { case refused(String) }

/// Binds the database URL and `Api`, which every async graph here needs.
func asyncBindings(_ more: @escaping @Sendable (Binder) -> Void = { _ in }) -> Bindings {
    Bindings { binder in
        binder.bind(Key<String>(named: "databaseURL")).to(instance: "postgres://db")
        binder.bind((any Api).self).to(HttpApi.self)
        more(binder)
    }
}
