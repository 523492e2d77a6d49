import Sightless
import Testing

// A closure binding that takes creation-time arguments and asks for its own key, with other
// arguments, was reported as a cycle; the same recursion through an `Injectable` type and a
// `Factory` built. Taking creation-time arguments, it is a recursion on every path, bounded
// by the stack and `tooDeep`; a closure without them that asks for itself is still a cycle.

private let factorial = Key<Int>(named: "factorial")

private struct FactorialModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(factorial).to { (resolver, n: Int) in
            n <= 1 ? 1 : n * (try resolver.getInstance(factorial, arguments: n - 1))
        }
    }
}

private let endless = Key<Int>(named: "endless")

private struct EndlessModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(endless).to { (resolver, n: Int) in try resolver.getInstance(endless, arguments: n + 1) }
    }
}

private let selfish = Key<Int>(named: "selfish")

private struct SelfishModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(selfish).to { resolver in try resolver.getInstance(selfish) }
    }
}

/// A node of a tree whose closure binding builds its children through a `Factory` of itself.
private final class Branch: Sendable {
    let children: [Branch]
    init(children: [Branch]) { self.children = children }
    var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}

private struct BranchModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(Branch.self).to { (resolver, depth: Int) in
            let factory = try resolver.getInstance(Factory<Branch, Int>.self)
            return Branch(children: depth == 0 ? [] : [try factory.make(depth - 1), try factory.make(depth - 1)])
        }
    }
}

@Suite("Closure bindings with creation-time arguments recurse")
struct ClosureRecursionTests {
    @Test("a closure binding with creation-time arguments that asks for its own key recurses")
    func closureRecursesThroughGetInstance() throws {
        let injector = try Injector(modules: [FactorialModule()])
        #expect(try injector.getInstance(factorial, arguments: 5) == 120)
    }

    @Test("a closure binding with creation-time arguments recurses when awaited")
    func closureRecursesWhenAwaited() async throws {
        let injector = try Injector(modules: [FactorialModule()])
        #expect(try await injector.instance(factorial, arguments: 6) == 720)
    }

    @Test("a decorated closure binding with creation-time arguments recurses, each level decorated")
    func decoratedClosureRecurses() throws {
        let injector = try Injector(modules: [FactorialModule(), Bindings { binder in
            binder.decorate(factorial) { value, _ in value + 1 }
        }])
        // f(1) = 1 + 1; f(n) = n × f(n − 1) + 1.
        #expect(try injector.getInstance(factorial, arguments: 3) == 3 * (2 * 2 + 1) + 1)
    }

    @Test("a closure binding with creation-time arguments recurses when a child requests it")
    func closureRecursesFromChild() throws {
        let parent = try Injector(modules: [FactorialModule()])
        #expect(try parent.child(modules: []).getInstance(factorial, arguments: 5) == 120)
        #expect(try Injector(modules: []).child(modules: [FactorialModule()]).getInstance(factorial, arguments: 4) == 24)
    }

    @Test("a closure binding with creation-time arguments recurses through a Factory of its key")
    func closureRecursesThroughFactory() throws {
        let injector = try Injector(modules: [BranchModule()])
        #expect(try injector.getInstance(Branch.self, arguments: 4).count == 31)
        #expect(try injector.getInstance(Factory<Branch, Int>.self).make(3).count == 15)
    }

    @Test("a closure binding with creation-time arguments that recurses without end is tooDeep, not a cycle")
    func endlessClosureRecursionIsTooDeep() {
        let outcome = regressionRun(stackSize: regressionSmallStack) {
            let injector = try Injector(modules: [EndlessModule()])
            _ = try injector.getInstance(endless, arguments: 0)
        }
        #expect(outcome.error?.kind == .tooDeep, "\(outcome)")
    }

    @Test("a closure binding with creation-time arguments that recurses without end is tooDeep when awaited")
    func endlessAwaitedClosureRecursionIsTooDeep() async throws {
        let injector = try Injector(modules: [EndlessModule()])
        do {
            _ = try await injector.instance(endless, arguments: 0)
            Issue.record("an endless recursion returned")
        } catch {
            #expect(error.kind == .tooDeep, "\(error)")
        }
    }

    @Test("a closure binding without creation-time arguments that asks for its own key is a cycle")
    func closureWithoutArgumentsAskingForItselfIsACycle() async {
        let injector = try? Injector(modules: [SelfishModule()])
        #expect(throws: InjectionError.self) { _ = try injector?.getInstance(selfish) }
        do {
            _ = try injector?.getInstance(selfish)
        } catch {
            #expect(error.kind == .cyclicDependency)
        }
        do {
            _ = try await injector?.instance(selfish)
        } catch {
            #expect(error.kind == .cyclicDependency)
        }
    }
}
