import Dispatch
import Foundation
import Sightless
import Testing

// A main-actor object is built in one main-actor region: its initializer, its properties and its
// `awakeFromInjection()`, after one check; and a request found on the main actor is not looked
// at again below it. These tests pin what that must not change: the order of the steps, and
// `offActor` wherever a request runs off the main actor, however deep.

/// What each test's main-actor objects did, in order, under the test's name.
private let events = Locked<[String: [String]]>([:])

private func record(_ test: String, _ event: String) { events.withLock { $0[test, default: []].append(event) } }
private func recorded(_ test: String) -> [String] { events.withLock { $0[test] ?? [] } }

private final class Settings: Injectable, Sendable {
    static let initializer = Initializer(Settings.init)
}

/// Built by the parameter-pack form (one argument, with a slot).
@MainActor
private final class ProfileModel: MainActorInjectable {
    let test: String
    var settings: Settings? { didSet { record(test, "property") } }
    init(test: String) {
        self.test = test
        record(test, "initializer")
    }
    static let initializer = Initializer(ProfileModel.init(test:), .named("test"))
    static let properties = Properties<ProfileModel>().inject(\.settings)
    func awakeFromInjection() { record(test, "awake of \(settings == nil ? "unset" : "set") properties") }
}

/// Built by a fixed-arity form (two arguments).
@MainActor
private final class AccountModel: MainActorInjectable {
    let test: String
    var settings: Settings? { didSet { record(test, "property") } }
    init(test: String, profile: ProfileModel) {
        self.test = test
        record(test, "initializer")
    }
    static let initializer = Initializer(AccountModel.init(test:profile:), .named("test"), .inject)
    static let properties = Properties<AccountModel>().inject(\.settings)
    func awakeFromInjection() { record(test, "awake of \(settings == nil ? "unset" : "set") properties") }
}

@MainActor
private final class Badge: MainActorInjectable {
    static let initializer = Initializer(Badge.init)
}

/// Nonisolated, between two main-actor objects.
private final class BadgePresenter: Injectable, Sendable {
    let badge: Badge
    init(badge: Badge) { self.badge = badge }
    static let initializer = Initializer(BadgePresenter.init(badge:))
}

@MainActor
private final class TabModel: MainActorInjectable {
    let presenter: BadgePresenter
    init(presenter: BadgePresenter) { self.presenter = presenter }
    static let initializer = Initializer(TabModel.init(presenter:))
}

/// Nonisolated, built under a main-actor request: its initializer asks for a main-actor value on
/// a thread of its own, and keeps what that request threw.
private final class Courier: Injectable, Sendable {
    let thrown: InjectionError.Kind?
    init(injector: Injector) {
        let thrown = Locked<InjectionError.Kind?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                _ = try injector.getInstance(Badge.self)
            } catch {
                thrown.withLock { $0 = (error as? InjectionError)?.kind }
            }
            done.signal()
        }
        thread.start()
        done.wait()
        self.thrown = thrown.withLock { $0 }
    }
    static let initializer = Initializer(Courier.init(injector:))
}

@MainActor
private final class Inbox: MainActorInjectable {
    let courier: Courier
    init(courier: Courier) { self.courier = courier }
    static let initializer = Initializer(Inbox.init(courier:))
}

/// A main-actor value a decorator replaces, argument of another.
@MainActor
private final class Stamp: MainActorInjectable {
    nonisolated let tag: String
    init() { tag = "built" }
    private init(tag: String) { self.tag = tag }
    nonisolated static func decorating(_ value: Stamp) -> Stamp {
        MainActor.assumeIsolated { Stamp(tag: value.tag + "+decorated") }
    }
    static let initializer = Initializer(Stamp.init)
}

@MainActor
private final class StampHolder: MainActorInjectable {
    let stamp: Stamp
    init(stamp: Stamp) { self.stamp = stamp }
    static let initializer = Initializer(StampHolder.init(stamp:))
}

/// A main-actor singleton, argument of two main-actor objects.
@MainActor
private final class SharedClock: MainActorInjectable {
    init() {}
    static let initializer = Initializer(SharedClock.init)
    static var scope: Scope { .singleton }
}

@MainActor
private final class ClockFace: MainActorInjectable {
    let clock: SharedClock
    init(clock: SharedClock) { self.clock = clock }
    static let initializer = Initializer(ClockFace.init(clock:))
}

@MainActor
private final class ClockPair: MainActorInjectable {
    let first: ClockFace, second: ClockFace
    init(first: ClockFace, second: ClockFace) {
        self.first = first
        self.second = second
    }
    static let initializer = Initializer(ClockPair.init(first:second:))
}

private struct Refused: Error {}

@MainActor
private final class Refusing: MainActorInjectable {
    init() throws { throw Refused() }
    static let initializer = Initializer(Refusing.init)
}

@MainActor
private final class RefusingHolder: MainActorInjectable {
    init(refusing: Refusing) {}
    static let initializer = Initializer(RefusingHolder.init(refusing:))
}

private struct RegionModule: Module {
    let test: String
    func configure(_ binder: Binder) {
        binder.bind(Key<String>(named: "test")).to(instance: test)
    }
}

@Suite("Main-actor regions")
struct MainActorRegionTests {
    @Test("a main-actor object's initializer, properties and awakeFromInjection run once each, in that order")
    @MainActor
    func stepsInOrder() throws {
        let injector = try Injector(modules: [RegionModule(test: #function)])
        let profile = try injector.getInstance(ProfileModel.self)
        #expect(profile.settings != nil)
        #expect(recorded(#function) == ["initializer", "property", "awake of set properties"])
    }

    @Test("a main-actor object over another is built with both in order, each completed before its consumer starts")
    @MainActor
    func nestedStepsInOrder() throws {
        let injector = try Injector(modules: [RegionModule(test: #function)])
        let account = try injector.getInstance(AccountModel.self)
        #expect(account.settings != nil)
        #expect(recorded(#function) == [
            "initializer", "property", "awake of set properties",   // the profile, an argument
            "initializer", "property", "awake of set properties",   // the account
        ])
    }

    @Test("a decorated main-actor argument of a main-actor object is built decorated")
    @MainActor
    func decoratedArgument() throws {
        let injector = try Injector(modules: [AnyModule { binder in
            binder.decorate(Stamp.self) { value, _ in Stamp.decorating(value) }
        }])
        #expect(try injector.getInstance(StampHolder.self).stamp.tag == "built+decorated")
    }

    @Test("a main-actor singleton argument of main-actor objects is built once and shared")
    @MainActor
    func singletonArgument() throws {
        let injector = try Injector(modules: [])
        let pair = try injector.getInstance(ClockPair.self)
        #expect(pair.first !== pair.second)
        #expect(pair.first.clock === pair.second.clock)
        #expect(try injector.getInstance(ClockFace.self).clock === pair.first.clock)
    }

    @Test("a main-actor argument's error names the way from the request to it")
    @MainActor
    func argumentErrorPath() throws {
        let injector = try Injector(modules: [])
        let error = #expect(throws: InjectionError.self) { try injector.getInstance(RefusingHolder.self) }
        #expect(error?.kind == .initializerFailed)
        #expect(error?.underlying is Refused)
        #expect(error?.path.map { "\($0.type)" } == ["\(RefusingHolder.self)", "\(Refusing.self)"])
    }

    @Test("a main-actor value below a nonisolated one below a main-actor one is built on the main actor")
    @MainActor
    func mainActorBelowNonisolated() throws {
        let injector = try Injector(modules: [])
        let tab = try injector.getInstance(TabModel.self)
        _ = tab.presenter.badge
    }

    @Test("off the main actor, a request of a main-actor value over a nonisolated one over a main-actor one throws offActor")
    @MainActor
    func chainOffMainActor() async throws {
        let injector = try Injector(modules: [])
        _ = try injector.getInstance(TabModel.self)   // compiled on the main actor
        #expect(await kindOffMainActor { _ = try injector.getInstance(TabModel.self) } == .offActor)
        #expect(await kindOffMainActor { _ = try injector.getInstance(BadgePresenter.self) } == .offActor)
    }

    @Test("a request an initializer starts on another thread, under a main-actor request, throws offActor for a main-actor value")
    @MainActor
    func otherThreadUnderMainActorRequest() throws {
        let injector = try Injector(modules: [])
        _ = try injector.getInstance(Badge.self)   // compiled on the main actor
        let inbox = try injector.getInstance(Inbox.self)
        #expect(inbox.courier.thrown == .offActor)
    }
}
