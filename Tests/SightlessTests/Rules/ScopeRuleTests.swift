@testable import Sightless
import Testing

private final class ClosedConnection: Injectable {
    static let initializer = Initializer(ClosedConnection.init)
}

private final class ScopedTitle: Injectable {
    init(title: String) {}
    static let initializer = Initializer(ScopedTitle.init(title:), .dynamic)
}

/// A request's resource that holds something to release.
private final class RequestLease: Injectable, Closable {
    static let initializer = Initializer(RequestLease.init)
    func close() {}
}

/// A resource that closes with `await`.
private final class RequestFeed: Injectable, AsyncClosable {
    static let initializer = Initializer(RequestFeed.init)
    func close() async {}
}

/// A resource made with an argument: the caller's, to close.
private final class NamedLease: Injectable, Closable {
    init(name: String) {}
    static let initializer = Initializer(NamedLease.init(name:), .dynamic)
    func close() {}
}

private final class LeaseHandler: Injectable {
    init(lease: RequestLease) {}
    static let initializer = Initializer(LeaseHandler.init(lease:))
}

private final class UserLeaseHandler: Injectable {
    init(user: String, lease: RequestLease) {}
    static let initializer = Initializer(UserLeaseHandler.init(user:lease:))
}

private final class FeedHandler: Injectable {
    init(feed: RequestFeed) {}
    static let initializer = Initializer(FeedHandler.init(feed:))
}

/// Takes the lease under the name an alias of its type binds.
private final class NamedLeaseHandler: Injectable {
    init(lease: RequestLease) {}
    static let initializer = Initializer(NamedLeaseHandler.init(lease:), .named("lease"))
}

private final class LeaseMaker: Injectable {
    init(leases: Factory<RequestLease>, named: Factory<NamedLease, String>) {}
    static let initializer = Initializer(LeaseMaker.init(leases:named:))
}

@Suite("Rule: scope")
struct ScopeRuleTests {
    @Test("a singleton with dynamic arguments is reported with its scope and slots")
    func singletonWithArguments() {
        let problems = ScopeRule().check(ruleGraph { $0.bind(ScopedTitle.self).in(.singleton) })
        guard case .scopedWithArguments(let key, let scope, let slots)? = problems.first?.detail else {
            Issue.record("expected scopedWithArguments, got \(problems)")
            return
        }
        #expect(key == Key<ScopedTitle>().erased)
        #expect(scope == "singleton")
        #expect(slots.count == 1)
    }

    @Test("a singleton alias of a type with dynamic arguments is reported with its target's slots")
    func singletonAliasWithArguments() {
        let problems = ScopeRule().check(ruleGraph { binder in
            binder.bind(Key<ScopedTitle>(named: "kept")).to(ScopedTitle.self).in(.singleton)
        })
        guard case .scopedWithArguments(let key, let scope, let slots)? = problems.first?.detail else {
            Issue.record("expected scopedWithArguments, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<ScopedTitle>(named: "kept").erased)
        #expect(scope == "singleton")
        #expect(slots == [.init(role: .argument(1), key: Key<String>().erased)])
    }

    @Test("an unscoped type with dynamic arguments is no problem")
    func unscopedWithArguments() {
        #expect(ScopeRule().check(ruleGraph { $0.bind(ScopedTitle.self) }).isEmpty)
    }

    @Test("a closer on a weak binding is reported with its scope: nothing keeps the value until shutdown")
    func closerOnWeakBinding() {
        let problems = ScopeRule().check(ruleGraph { $0.bind(ClosedConnection.self).in(.weak).onShutdown { _ in } })
        guard case .closerNotKept(let key, let scope)? = problems.first?.detail else {
            Issue.record("expected closerNotKept, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<ClosedConnection>().erased)
        #expect(scope == "weak")
    }

    @Test("a closer on a singleton or an eager singleton is no problem")
    func closerOnKeptBinding() {
        #expect(ScopeRule().check(ruleGraph { $0.bind(ClosedConnection.self).in(.singleton).onShutdown { _ in } }).isEmpty)
        #expect(ScopeRule().check(ruleGraph { binder in
            binder.bind(ClosedConnection.self).in(.eagerSingleton).onShutdown { _ async in }
        }).isEmpty)
    }

    @Test("an unscoped Closable type the injector builds into another value is reported as closableNotKept: nothing would close it")
    func unscopedClosableReported() {
        let problems = ScopeRule().check(ruleGraph { $0.bind(LeaseHandler.self) })
        guard case .closableNotKept(let key, let scope)? = problems.first?.detail else {
            Issue.record("expected closableNotKept, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<RequestLease>().erased)
        #expect(scope == "unscoped")
        #expect(problems.first?.kind == .scopeConflict)
    }

    @Test("an AsyncClosable type kept per request and built into another value is reported as closableNotKept")
    func perRequestAsyncClosableReported() {
        let problems = ScopeRule().check(ruleGraph { binder in
            binder.bind(RequestFeed.self).in(.perRequest)
            binder.bind(FeedHandler.self)
        })
        guard case .closableNotKept(_, let scope)? = problems.first?.detail else {
            Issue.record("expected closableNotKept, got \(problems)")
            return
        }
        #expect(scope == "per request")
    }

    @Test("a Closable type a template's child leaves unbound, built just in time and unscoped, is refused when the template is declared")
    func templateUnboundClosableRefused() throws {
        let app = try Injector(modules: [])
        let error = try #require(#expect(throws: InjectionError.self) {
            _ = try app.childTemplate(providing: String.self) { $0.bind(UserLeaseHandler.self) }
        })
        let problem = try #require(error.problems.first)
        #expect(problem.message == "RequestLease has a close() to run (it is Closable or AsyncClosable), but it is an unscoped value, which the injector does not keep until shutdown: nothing would close it.")
        #expect(problem.fix.hasPrefix("Keep it until shutdown, which closes it: .in(.singleton) on its binding"), "\(problem.fix)")
    }

    @Test("a Closable singleton built into another value is no problem")
    func keptClosableAccepted() {
        #expect(ScopeRule().check(ruleGraph { binder in
            binder.bind(RequestLease.self).in(.singleton)
            binder.bind(LeaseHandler.self)
        }).isEmpty)
    }

    @Test("an injector whose module binds a type that needs an unscoped Closable type is refused")
    func rootRefused() throws {
        let error = #expect(throws: InjectionError.self) { _ = try Injector(modules: [Bindings { $0.bind(LeaseHandler.self) }]) }
        guard case .closableNotKept? = error?.problems.first?.detail else {
            Issue.record("expected closableNotKept, got \(String(describing: error))")
            return
        }
    }

    @Test("an unscoped Closable type an alias hands to whoever requests the alias is the caller's: no problem")
    func closableThroughAliasRequestedAccepted() {
        #expect(ScopeRule().check(ruleGraph { binder in
            binder.bind(RequestLease.self)
            binder.bind(Key<RequestLease>(named: "lease")).to(RequestLease.self)
        }).isEmpty)
    }

    @Test("an unscoped Closable type a singleton alias keeps is closed with the alias's values: no problem")
    func closableKeptByAliasAccepted() {
        #expect(ScopeRule().check(ruleGraph { binder in
            binder.bind(RequestLease.self)
            binder.bind(Key<RequestLease>(named: "lease")).to(RequestLease.self).in(.singleton)
            binder.bind(NamedLeaseHandler.self)
        }).isEmpty)
    }

    @Test("an unscoped Closable type built into another value through an alias that keeps nothing is reported as closableNotKept")
    func closableThroughAliasIntoValueReported() {
        let problems = ScopeRule().check(ruleGraph { binder in
            binder.bind(RequestLease.self)
            binder.bind(Key<RequestLease>(named: "lease")).to(RequestLease.self)
            binder.bind(NamedLeaseHandler.self)
        })
        guard case .closableNotKept(let key, let scope)? = problems.first?.detail else {
            Issue.record("expected closableNotKept, got \(problems)")
            return
        }
        #expect(problems.count == 1)
        #expect(key == Key<RequestLease>().erased)
        #expect(scope == "unscoped")
    }

    @Test("an unscoped Closable type requested, or made through a Factory, is the caller's: no problem")
    func callersClosableAccepted() {
        #expect(ScopeRule().check(ruleGraph { $0.bind(RequestLease.self) }).isEmpty)
        #expect(ScopeRule().check(ruleGraph { $0.bind(LeaseMaker.self) }).isEmpty)
    }
}
