import Sightless
import Testing

private final class Vault: Injectable {
    init() async {}
    static let initializer = Initializer(Vault.init)
    static var scope: Scope { .singleton }
}

private final class Keeper: Injectable {
    init(vault: Vault) {}
    static let initializer = Initializer(Keeper.init(vault:))
    static var scope: Scope { .singleton }
}

private final class Reader: Injectable {
    init(vault: Vault) {}
    static let initializer = Initializer(Reader.init(vault:))
}

private struct Visitor: Sendable {}

/// A value of a template's child, kept per child, built with `await`.
private final class Pass: Sendable {}

private final class Gate: Injectable {
    let pass: Pass
    init(pass: Pass) { self.pass = pass }
    static let initializer = Initializer(Gate.init(pass:))
}

private final class Turnstile: Injectable {
    let pass: Pass
    init(pass: Pass) { self.pass = pass }
    static let initializer = Initializer(Turnstile.init(pass:))
    static var scope: Scope { .singleton }
}

/// What a child's requests ask for, bound to a `Booth` under a name.
private class Stall: @unchecked Sendable {}

/// A child's singleton that takes the child's awaited singleton as a property.
private final class Booth: Stall, Injectable, @unchecked Sendable {
    var pass: Pass?
    override init() {}
    static let initializer = Initializer(Booth.init)
    static let properties = Properties<Booth>().inject(\.pass)
    static var scope: Scope { .singleton }
}

@Suite("A kept value built with await, requested synchronously")
struct BuiltAwaitedSingletonTests {
    @Test("a singleton built with await is returned to a synchronous request once an awaited request built it")
    func builtSingletonReturned() async throws {
        let injector = try Injector(modules: [])
        let vault = try await injector.instance(Vault.self)
        #expect(try injector.getInstance(Vault.self) === vault)
    }

    @Test("an unscoped value whose awaited singleton is built is built by a synchronous request")
    func unscopedOverBuiltSingleton() async throws {
        let injector = try Injector(modules: [])
        _ = try await injector.instance(Vault.self)
        _ = try injector.getInstance(Reader.self)
    }

    @Test("a singleton whose awaited dependency is built is built by a synchronous request, once")
    func keptBuiltOverBuiltDependency() async throws {
        let injector = try Injector(modules: [])
        _ = try await injector.instance(Vault.self)
        let keeper = try injector.getInstance(Keeper.self)
        #expect(try injector.getInstance(Keeper.self) === keeper)
        #expect(try await injector.instance(Keeper.self) === keeper)
    }

    @Test("a singleton whose awaited dependency is not built yet is told it needs await")
    func keptNotBuiltBeforeDependency() throws {
        let injector = try Injector(modules: [])
        let error = try #require(#expect(throws: InjectionError.self) { _ = try injector.getInstance(Keeper.self) })
        #expect(error.kind == .needsAwait)
        guard case .keptNotBuilt(let key, let scope, let awaited, let awaitedIsBuilt)? = error.problems.first?.detail else {
            Issue.record("expected keptNotBuilt, got \(error)")
            return
        }
        #expect(key == Key<Keeper>().erased && scope == "singleton" && awaited == Key<Vault>().erased && !awaitedIsBuilt)
    }

    @Test("a singleton built with await, requested synchronously before any awaited request, is told it is not built yet")
    func singletonNotBuiltYet() throws {
        let injector = try Injector(modules: [])
        let error = try #require(#expect(throws: InjectionError.self) { _ = try injector.getInstance(Vault.self) })
        #expect(error.problems.first?.message == "Vault is a singleton built with await (its initializer, closure or provider is async), and was requested synchronously before an awaited request built it.")
    }

    @Test("once built by an awaited request, the singleton whose build awaits is read synchronously")
    func keptReadOnceBuilt() async throws {
        let injector = try Injector(modules: [])
        let keeper = try await injector.instance(Keeper.self)
        #expect(try injector.getInstance(Keeper.self) === keeper)
    }

    private func passTemplate() throws -> ChildTemplate<Visitor> {
        try Injector(modules: []).childTemplate(providing: Visitor.self) { binder in
            binder.bind(Pass.self).to { _ async in Pass() }.in(.singleton)
            binder.bind(Gate.self)
            binder.bind(Turnstile.self)
            binder.bind(Booth.self)
            binder.bind(Key<Booth>(named: "stall")).in(.singleton)
            binder.bind(Stall.self).to(Key<Booth>(named: "stall"))
        }
    }

    @Test("a template child's unscoped value over its awaited singleton, once built, is built by a synchronous request")
    func childUnscopedOverBuiltSingleton() async throws {
        let child = try passTemplate().child(Visitor())
        let pass = try await child.instance(Pass.self)
        let gate = try child.getInstance(Gate.self)
        #expect(gate.pass === pass)
    }

    @Test("a template child's singleton over its awaited singleton, once built, is built by a synchronous request")
    func childKeptOverBuiltSingleton() async throws {
        let child = try passTemplate().child(Visitor())
        let pass = try await child.instance(Pass.self)
        let turnstile = try child.getInstance(Turnstile.self)
        let again = try child.getInstance(Turnstile.self)
        #expect(turnstile.pass === pass && again === turnstile)
    }

    @Test("a template child's value over its awaited singleton is not ready while only another child holds it")
    func childNotReadyWithSiblingsSingleton() async throws {
        let template = try passTemplate()
        let first = try template.child(Visitor())
        let second = try template.child(Visitor())
        _ = try await first.instance(Pass.self)
        let error = #expect(throws: InjectionError.self) { _ = try second.getInstance(Gate.self) }
        #expect(error?.kind == .needsAwait)
        let pass = try await second.instance(Pass.self)
        let gate = try second.getInstance(Gate.self)
        #expect(gate.pass === pass)
    }

    @Test("a template child's singleton with its awaited singleton as a property, once that is built, is built by a synchronous request")
    func childKeptPropertyOverBuiltSingleton() async throws {
        let child = try passTemplate().child(Visitor())
        let pass = try await child.instance(Pass.self)
        let booth = try child.getInstance(Booth.self)
        #expect(booth.pass === pass)
    }

    @Test("an alias of a template child's singleton over its awaited singleton, once that is built, is built by a synchronous request")
    func childAliasOfKeptOverBuiltSingleton() async throws {
        let child = try passTemplate().child(Visitor())
        let pass = try await child.instance(Pass.self)
        let stall = try child.getInstance(Stall.self)
        #expect((stall as? Booth)?.pass === pass)
    }
}
