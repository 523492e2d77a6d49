import Sightless
import Testing

// A type's descriptors (`initializer`, `properties`, `scope`) are read while the injector
// compiles the type on its first request, under the lock that serializes compiling. A
// descriptor that asked that injector for a key not compiled yet waited for that lock on the
// thread holding it: a hang. It now gets `cyclicDependency` (`.reentered(key:through:
// .descriptor)`), and the type compiles.

private enum Described {
    static let injector = RecursionHolder<Injector>()
    static let other = RecursionHolder<Injector>()
    /// What each descriptor's request ended in, by the descriptor's type.
    static let outcomes = Locked<[String: Result<Bool, InjectionError>]>([:])

    static func record(_ name: String, _ request: () throws -> Void) {
        let outcome: Result<Bool, InjectionError>
        do {
            try request()
            outcome = .success(true)
        } catch let error as InjectionError {
            outcome = .failure(error)
        } catch {
            outcome = .success(false)
        }
        outcomes.withLock { $0[name] = outcome }
    }

    final class NotCompiled: Injectable {
        init() {}
        static let initializer = Initializer(NotCompiled.init)
    }

    final class Compiled: Injectable {
        init() {}
        static let initializer = Initializer(Compiled.init)
    }

    /// Its initializer descriptor asks for a type the injector has not compiled.
    final class AsksForAnother: Injectable {
        init() {}
        static var initializer: Initializer<AsksForAnother> {
            Described.record("AsksForAnother") { _ = try Described.injector.value?.getInstance(NotCompiled.self) }
            return Initializer(AsksForAnother.init)
        }
    }

    /// Its initializer descriptor asks for its own type.
    final class AsksForItself: Injectable {
        init() {}
        static var initializer: Initializer<AsksForItself> {
            Described.record("AsksForItself") { _ = try Described.injector.value?.getInstance(AsksForItself.self) }
            return Initializer(AsksForItself.init)
        }
    }

    /// Its scope descriptor asks for a type the injector has compiled.
    final class AsksForCompiled: Injectable {
        init() {}
        static let initializer = Initializer(AsksForCompiled.init)
        static var scope: Scope {
            Described.record("AsksForCompiled") { _ = try Described.injector.value?.getInstance(Compiled.self) }
            return .unscoped
        }
    }

    /// Compiled by `injector`: its descriptor asks `other` for `Across`.
    final class Here: Injectable {
        init() {}
        static var initializer: Initializer<Here> {
            Described.record("Here") { _ = try Described.other.value?.getInstance(Across.self) }
            return Initializer(Here.init)
        }
    }

    /// Compiled by `other`: its descriptor asks `injector` for `NotCompiledEither`.
    final class Across: Injectable {
        init() {}
        static var initializer: Initializer<Across> {
            Described.record("Across") { _ = try Described.injector.value?.getInstance(NotCompiledEither.self) }
            return Initializer(Across.init)
        }
    }

    final class NotCompiledEither: Injectable {
        init() {}
        static let initializer = Initializer(NotCompiledEither.init)
    }

    static func outcome(_ name: String) -> Result<Bool, InjectionError>? {
        outcomes.withLock { $0[name] }
    }
}

/// The key of a `.reentered(key:through: .descriptor)` problem, if that is what `outcome` is.
private func descriptorReentry(_ outcome: Result<Bool, InjectionError>?) -> AnyKey? {
    guard case .failure(let error)? = outcome, error.kind == .cyclicDependency,
          case .reentered(let key, .descriptor)? = error.problems.first?.detail else { return nil }
    return key
}

@Suite("Requests made by a type's descriptors while it is compiled", .serialized)
struct DescriptorRequestTests {
    @Test("a descriptor asking the injector compiling it for a type not compiled yet gets cyclicDependency, and the type is built")
    func descriptorAsksForAnotherType() throws {
        let injector = try Injector(modules: [])
        Described.injector.value = injector
        defer { Described.injector.value = nil }
        let outcome = regressionRun { _ = try injector.getInstance(Described.AsksForAnother.self) }
        #expect(outcome.returned, "\(outcome)")
        #expect(descriptorReentry(Described.outcome("AsksForAnother")) == AnyKey(Key<Described.NotCompiled>()))
        // The type the descriptor asked for compiles on a request of its own.
        _ = try injector.getInstance(Described.NotCompiled.self)
    }

    @Test("a descriptor asking for its own type gets cyclicDependency, and the type is built")
    func descriptorAsksForItself() throws {
        let injector = try Injector(modules: [])
        Described.injector.value = injector
        defer { Described.injector.value = nil }
        let outcome = regressionRun { _ = try injector.getInstance(Described.AsksForItself.self) }
        #expect(outcome.returned, "\(outcome)")
        #expect(descriptorReentry(Described.outcome("AsksForItself")) == AnyKey(Key<Described.AsksForItself>()))
    }

    @Test("a descriptor asking for a type already compiled gets it")
    func descriptorAsksForCompiledType() throws {
        let injector = try Injector(modules: [])
        Described.injector.value = injector
        defer { Described.injector.value = nil }
        _ = try injector.getInstance(Described.Compiled.self)
        let outcome = regressionRun { _ = try injector.getInstance(Described.AsksForCompiled.self) }
        #expect(outcome.returned, "\(outcome)")
        #expect(try Described.outcome("AsksForCompiled")?.get() == true)
    }

    @Test("descriptors asking each other's injectors for types not compiled yet end in cyclicDependency, not a hang")
    func descriptorsAcrossTwoInjectors() throws {
        let injector = try Injector(modules: []), other = try Injector(modules: [])
        Described.injector.value = injector
        Described.other.value = other
        defer { Described.injector.value = nil; Described.other.value = nil }
        let outcome = regressionRun { _ = try injector.getInstance(Described.Here.self) }
        #expect(outcome.returned, "\(outcome)")
        #expect(descriptorReentry(Described.outcome("Across")) == AnyKey(Key<Described.NotCompiledEither>()))
        #expect(try Described.outcome("Here")?.get() == true)
    }
}
