import Dependencies
import Sightless

// The `read-where-it-stands` case: what reading a dependency from a property costs, beside a
// dependency taken in the initializer and beside swift-dependencies' `@Dependency`. Measured by
// instructions only (`--profile read-where-it-stands WAY N`); each operation makes one owner
// and reads its dependency once (`…-first`), or reads an existing owner's dependency once
// (`…-later`). WAY:
//   constructor-first, constructor-later   the dependency taken in the owner's initializer
//   injected-first, injected-later         `@Injected(default:)`, the owner made in `withCurrent`
//   injection-later                        an `Injection` kept in a `let`
//   dependency-first, dependency-later     swift-dependencies' `@Dependency(\.readClock)`
//   child-shutdown, with-child             a template's child made, asked for one value and shut
//                                          down by hand, or by `withChild`, which also makes it
//                                          current for its body: the difference is that binding

final class ReadClock: Sendable {
    init() {}
}

final class ConstructedReader {
    let clock: ReadClock
    init(clock: ReadClock) { self.clock = clock }
}

final class InjectedReader {
    @Injected(default: ReadClock()) var clock: ReadClock
    let injection = Injection<ReadClock>()
}

private enum ReadClockKey: DependencyKey {
    static let liveValue = ReadClock()
}

extension DependencyValues {
    var readClock: ReadClock {
        get { self[ReadClockKey.self] }
        set { self[ReadClockKey.self] = newValue }
    }
}

final class DependencyReader {
    // Qualified: Sightless has a type named Dependency too (what a declaration depends on).
    @Dependencies.Dependency(\.readClock) var clock: ReadClock
}

/// Runs `n` operations of one way of reading a dependency.
func standingReads(_ way: String, _ n: Int, _ sink: Sink) throws {
    let clock = ReadClock()
    switch way {
    case "constructor-first":
        for _ in 0..<n { sink.take(ConstructedReader(clock: clock).clock) }
    case "constructor-later":
        let reader = ConstructedReader(clock: clock)
        for _ in 0..<n { sink.take(reader.clock) }
    case "injected-first", "injected-later", "injection-later":
        let injector = try Injector(modules: [AnyModule { $0.bind(ReadClock.self).to(instance: clock) }])
        if way == "injected-first" {
            injector.withCurrent {
                for _ in 0..<n { sink.take(InjectedReader().clock) }
            }
            return
        }
        let reader = injector.withCurrent { InjectedReader() }
        guard reader.clock === clock, try reader.injection.get() === clock else {
            throw BenchmarkFailure(description: "Sightless: the reader did not read the bound clock")
        }
        if way == "injected-later" {
            for _ in 0..<n { sink.take(reader.clock) }
        } else {
            for _ in 0..<n { sink.take(try reader.injection.get()) }
        }
    case "dependency-first":
        withDependencies { $0.readClock = clock } operation: {
            for _ in 0..<n { sink.take(DependencyReader().clock) }
        }
    case "dependency-later":
        let reader = withDependencies { $0.readClock = clock } operation: { DependencyReader() }
        for _ in 0..<n { sink.take(reader.clock) }
    case "child-shutdown", "with-child":
        let injector = try Injector(modules: [AnyModule { $0.bind(ReadClock.self).to(instance: clock) }])
        let requests = try injector.childTemplate(providing: Key<String>(named: "user"))
        if way == "with-child" {
            for _ in 0..<n { try requests.withChild("ada") { child in sink.take(try child.getInstance(ReadClock.self)) } }
        } else {
            for _ in 0..<n {
                let child = try requests.child("ada")
                sink.take(try child.getInstance(ReadClock.self))
                try child.shutDown()
            }
        }
    default:
        throw BenchmarkFailure(description: "unknown way of reading \(way)")
    }
}
