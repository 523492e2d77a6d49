@testable import Sightless
import Testing

// Deep but finite graphs on threads with small stacks (64 KiB in some pools, 128 KiB a secondary
// thread's default under musl): each request either builds the whole chain or ends in `tooDeep`;
// it never overflows the stack.

private enum Deep {
    final class Link: Sendable {
        let length: Int
        init(length: Int) { self.length = length }
    }

    static func key(_ index: Int) -> Key<Link> { Key(named: "link \(index)") }

    /// `depth` closure bindings, each asking its resolver for the next.
    static func closures(depth: Int) -> Bindings {
        Bindings { binder in
            for index in 0..<depth - 1 {
                binder.bind(key(index)).to { resolver in Link(length: try resolver.getInstance(key(index + 1)).length + 1) }
            }
            binder.bind(key(depth - 1)).to(instance: Link(length: 1))
        }
    }

    /// `depth` raw initializers, each injected with the next.
    static func initializers(depth: Int) -> Bindings {
        Bindings { binder in
            for index in 0..<depth - 1 {
                binder.bind(key(index)).to(Initializer<Link>([.inject(key(index + 1))]) { arguments in
                    Link(length: try arguments.value(at: 0, as: Link.self).length + 1)
                })
            }
            binder.bind(key(depth - 1)).to(instance: Link(length: 1))
        }
    }

    /// Each level makes the next through the factory it is given, with the levels left.
    final class Level: Injectable {
        let length: Int
        init(next: Factory<Level, Int>, left: Int) throws {
            length = left == 0 ? 1 : try next.make(left - 1).length + 1
        }
        static let initializer = Initializer(Level.init(next:left:), .inject, .dynamic)
    }
}

@Suite("Deep graphs on small stacks")
struct SmallStackDepthTests {
    /// 64, 128 and 256 KiB; three times that under AddressSanitizer, whose redzones make every
    /// frame several times larger, so that a level of these chains takes about as much of the
    /// stack as it does uninstrumented.
    private static let stacks = [64 * 1024, 128 * 1024, 256 * 1024].map { $0 * (StackProbe.isAddressSanitized ? 3 : 1) }

    /// Runs `request` on a thread of each small stack size: it must return `depth`, or throw
    /// `tooDeep`.
    private func check(depth: Int, _ request: @escaping @Sendable () throws -> Int) {
        for stack in Self.stacks {
            let length = RecursionHolder<Int>()
            let outcome = regressionRun(stackSize: stack) { length.value = try request() }
            #expect(outcome.error?.kind == .tooDeep || (outcome.returned && length.value == depth),
                    "\(stack / 1024) KiB: \(outcome), length \(String(describing: length.value))")
        }
    }

    @Test("chains of closure bindings 10, 100 and 3,000 deep build or end in tooDeep on 64 to 256 KiB stacks")
    func closureChains() throws {
        for depth in [10, 100, 3_000] {
            let injector = try Injector(Deep.closures(depth: depth))
            check(depth: depth) { try injector.getInstance(Deep.key(0)).length }
        }
    }

    @Test("chains of initializers 10, 100 and 3,000 deep build or end in tooDeep on 64 to 256 KiB stacks")
    func initializerChains() throws {
        for depth in [10, 100, 3_000] {
            let injector = try Injector(Deep.initializers(depth: depth))
            check(depth: depth) { try injector.getInstance(Deep.key(0)).length }
        }
    }

    @Test("factories making each next level 10, 100 and 3,000 deep build or end in tooDeep on 64 to 256 KiB stacks")
    func factoryChains() throws {
        let injector = try Injector(modules: [])
        // `Level` is compiled, and a short chain built, on the test's own thread first: the
        // chains below are about depth. A first compile and a first build are the runtime's
        // first sight of the key paths and generic types they use, whose metadata it
        // instantiates then, with stack of its own; under AddressSanitizer, whose frames are
        // several times larger, that does not fit in what a 64 KiB stack keeps free, wherever
        // in the chain another test's order left it to happen first.
        #expect(try injector.getInstance(Deep.Level.self, arguments: 9).length == 10)
        for depth in [10, 100, 3_000] {
            check(depth: depth) { try injector.getInstance(Deep.Level.self, arguments: depth - 1).length }
        }
    }

    @Test("a chain 10 deep builds on a 128 KiB stack")
    func shallowChainBuilds() throws {
        let injector = try Injector(Deep.initializers(depth: 10))
        let length = RecursionHolder<Int>()
        let outcome = regressionRun(stackSize: 128 * 1024) { length.value = try injector.getInstance(Deep.key(0)).length }
        #expect(outcome.returned && length.value == 10, "\(outcome)")
    }
}
