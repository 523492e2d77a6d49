import Sightless

// The types and bindings of the configuration fuzz test. Every key's value is an `FzNode` (or
// a subclass from the pool), which records which binding built it and the dynamic values
// it received, and keeps the `Lazy` and `Factory` values it was given so the test can use them
// after the request.

/// Bounds the work of one case: every request, `Lazy.get` and `Factory.make` that a binding
/// makes costs one unit, and none is made once the fuel is spent. Recursion the library does
/// not stop therefore ends anyway, at a depth that overflows the fuzz thread's small stack when
/// nothing guards it.
final class FzContext: @unchecked Sendable {
    private var fuel: Int
    /// Creation-time values no request passed: read from the wrong bytes.
    private(set) var corruptions: [String] = []
    init(fuel: Int) { self.fuel = fuel }

    /// Checks a dynamic `String` an object received: every one the test passes is `s…`,
    /// `made` or `used`. Reading its characters crashes on most wrong bytes already.
    func received(_ label: String, by receiver: String) {
        guard !(label.hasPrefix("s") || label == "made" || label == "used") else { return }
        corruptions.append("\(receiver) received the dynamic String \(label.debugDescription), which no request passed")
    }

    /// Checks a dynamic `Int` an object received: every one the test passes is in
    /// `0..<FzArgs.largestInt`.
    func received(_ number: Int, by receiver: String) {
        guard !(0..<FzArgs.largestInt).contains(number) else { return }
        corruptions.append("\(receiver) received the dynamic Int \(number), which no request passed")
    }

    /// Takes one unit of fuel; `false` when there is none left.
    func spend() -> Bool {
        guard fuel > 0 else { return false }
        fuel -= 1
        return true
    }
}

/// A `Lazy` or `Factory` an object was given.
enum FzDeferred: @unchecked Sendable {
    case lazy(Lazy<FzNode>)
    case factory(Factory<FzNode>)
    case factoryInt(Factory<FzNode, Int>)
    case factoryString(Factory<FzNode, String>)
    case lazyTyped(Lazy<FzTyped>)
    case level(Factory<FzLevel, Int>)
}

class FzNode: @unchecked Sendable {
    /// The binding (`k3`) or pool type (`FzTyped`) that built it.
    let origin: String
    /// The dynamic values it received, in order.
    let dynamics: [FzValue]
    /// The deferred values it was given.
    var deferred: [FzDeferred] = []

    init(origin: String, dynamics: [FzValue] = []) {
        self.origin = origin
        self.dynamics = dynamics
    }
}

final class FzTyped: FzNode, Injectable, @unchecked Sendable {
    var later: Lazy<FzNode>?
    var maybe: FzNode?

    init(context: FzContext, next: Lazy<FzNode>, factory: Factory<FzNode>, optional: FzNode?) throws {
        super.init(origin: "FzTyped")
        deferred = [.lazy(next), .factory(factory)]
        if context.spend() { _ = try next.get() }
    }

    static let initializer = Initializer(FzTyped.init(context:next:factory:optional:), .inject, .named("k1"), .named("k0"), .named("k2"))
    static let properties = Properties<FzTyped>()
        .inject(\.later, named: "k2")
        .inject(\.maybe, named: "k3")
}

final class FzDyn: FzNode, Injectable, @unchecked Sendable {
    init(context: FzContext, label: String, next: Lazy<FzNode>) {
        context.received(label, by: "FzDyn")
        super.init(origin: "FzDyn", dynamics: [.string(label)])
        deferred = [.lazy(next)]
    }

    static let initializer = Initializer(FzDyn.init(context:label:next:), .inject, .dynamic, .named("k0"))
}

final class FzDynPair: FzNode, Injectable, @unchecked Sendable {
    init(number: Int, context: FzContext, label: String) {
        context.received(number, by: "FzDynPair")
        context.received(label, by: "FzDynPair")
        super.init(origin: "FzDynPair", dynamics: [.int(number), .string(label)])
    }

    static let initializer = Initializer(FzDynPair.init(number:context:label:), .dynamic, .inject, .dynamic)
}

final class FzLevel: FzNode, Injectable, @unchecked Sendable {
    init(context: FzContext, children: Factory<FzLevel, Int>, depth: Int) throws {
        context.received(depth, by: "FzLevel")
        super.init(origin: "FzLevel", dynamics: [.int(depth)])
        deferred = [.level(children)]
        if depth > 0, context.spend() { _ = try children.make(depth - 1) }
    }

    static let initializer = Initializer(FzLevel.init(context:children:depth:), .inject, .inject, .dynamic)
}

final class FzSelfLazy: FzNode, Injectable, @unchecked Sendable {
    init(context: FzContext, me: Lazy<FzSelfLazy>) throws {
        super.init(origin: "FzSelfLazy")
        if context.spend() { _ = try me.get() }
    }

    static let initializer = Initializer(FzSelfLazy.init(context:me:))
}

class FzAnimal: FzNode, Injectable, @unchecked Sendable {
    init(context: FzContext) {
        super.init(origin: "FzAnimal")
    }

    static let initializer = Initializer(FzAnimal.init(context:))
}

/// Inherits `FzAnimal`'s initializer, which builds an `FzAnimal`, not an `FzPuppy`.
final class FzPuppy: FzAnimal, @unchecked Sendable {}

/// Takes a dynamic `Int` and the optional key `o0`, and is built just in time (compiled
/// on its first request, after the bindings).
final class FzOuter: FzNode, Injectable, @unchecked Sendable {
    init(context: FzContext, maybe: FzNode?, n: Int) {
        context.received(n, by: "FzOuter")
        super.init(origin: "FzOuter", dynamics: [.int(n)])
    }

    static let initializer = Initializer(FzOuter.init(context:maybe:n:), .inject, .named("o0"), .dynamic)
}

/// Injectable, and not an `FzNode`.
final class FzStranger: Injectable, @unchecked Sendable {
    init(typed: Lazy<FzTyped>) {}
    static let initializer = Initializer(FzStranger.init(typed:))
}

/// What resolves keys: the injector, or a closure's resolver. One name for the overloads the
/// fuzz test calls, so a request is written once for both.
protocol FzResolving {
    func fzGet<Value>(_ key: Key<Value>) throws(InjectionError) -> Value
    func fzGet<Value>(_ key: Key<Value>, _ a: Int) throws(InjectionError) -> Value
    func fzGet<Value>(_ key: Key<Value>, _ a: String) throws(InjectionError) -> Value
    func fzGet<Value>(_ key: Key<Value>, _ a: Int, _ b: String) throws(InjectionError) -> Value
    func fzGet<Value>(_ key: Key<Value>, _ a: String, _ b: Int) throws(InjectionError) -> Value
}

extension Injector: FzResolving {
    func fzGet<Value>(_ key: Key<Value>) throws(InjectionError) -> Value { try getInstance(key) }
    func fzGet<Value>(_ key: Key<Value>, _ a: Int) throws(InjectionError) -> Value { try getInstance(key, arguments: a) }
    func fzGet<Value>(_ key: Key<Value>, _ a: String) throws(InjectionError) -> Value { try getInstance(key, arguments: a) }
    func fzGet<Value>(_ key: Key<Value>, _ a: Int, _ b: String) throws(InjectionError) -> Value { try getInstance(key, arguments: a, b) }
    func fzGet<Value>(_ key: Key<Value>, _ a: String, _ b: Int) throws(InjectionError) -> Value { try getInstance(key, arguments: a, b) }
}

extension Resolver: FzResolving {
    func fzGet<Value>(_ key: Key<Value>) throws(InjectionError) -> Value { try getInstance(key) }
    func fzGet<Value>(_ key: Key<Value>, _ a: Int) throws(InjectionError) -> Value { try getInstance(key, arguments: a) }
    func fzGet<Value>(_ key: Key<Value>, _ a: String) throws(InjectionError) -> Value { try getInstance(key, arguments: a) }
    func fzGet<Value>(_ key: Key<Value>, _ a: Int, _ b: String) throws(InjectionError) -> Value { try getInstance(key, arguments: a, b) }
    func fzGet<Value>(_ key: Key<Value>, _ a: String, _ b: Int) throws(InjectionError) -> Value { try getInstance(key, arguments: a, b) }
}

/// Makes the requests of a configuration.
enum FzRequester {
    static func ask<Value>(_ key: Key<Value>, _ arguments: FzArgs, _ resolving: some FzResolving) throws(InjectionError) -> Value {
        switch arguments {
        case .none: try resolving.fzGet(key)
        case .int(let a): try resolving.fzGet(key, a)
        case .string(let a): try resolving.fzGet(key, a)
        case .intString(let a, let b): try resolving.fzGet(key, a, b)
        case .stringInt(let a, let b): try resolving.fzGet(key, a, b)
        }
    }

    /// Makes one request and returns the `FzNode` it gave, if any. A `Lazy` or `Factory` is
    /// used at once when there is fuel for it.
    static func perform(_ request: FzRequest, _ resolving: some FzResolving, _ context: FzContext) throws -> FzNode? {
        let arguments = request.arguments
        switch request.key {
        case .node(let index): return try ask(Key<FzNode>(named: "k\(index)"), arguments, resolving)
        case .unbound(let index): return try ask(Key<FzNode>(named: "u\(index)"), arguments, resolving)
        case .optional(let index): return try ask(Key<FzNode?>(named: "k\(index)"), arguments, resolving)
        case .optionalUnbound(let index): return try ask(Key<FzNode?>(named: "u\(index)"), arguments, resolving)
        case .optionalAlias(let index): return try ask(Key<FzNode?>(named: "o\(index)"), arguments, resolving)
        case .lazy(let index):
            let lazy = try ask(Key<Lazy<FzNode>>(named: "k\(index)"), arguments, resolving)
            return context.spend() ? try lazy.get() : nil
        case .factory(let index):
            let factory = try ask(Key<Factory<FzNode>>(named: "k\(index)"), arguments, resolving)
            return context.spend() ? try factory.make() : nil
        case .factoryInt(let index):
            let factory = try ask(Key<Factory<FzNode, Int>>(named: "k\(index)"), arguments, resolving)
            return context.spend() ? try factory.make(3) : nil
        case .factoryString(let index):
            let factory = try ask(Key<Factory<FzNode, String>>(named: "k\(index)"), arguments, resolving)
            return context.spend() ? try factory.make("made") : nil
        case .pool(let pool): return try performPool(pool, arguments, resolving)
        case .optionalPool(let pool): return try performOptionalPool(pool, arguments, resolving)
        case .injector:
            _ = try ask(Key<Injector>(), arguments, resolving)
            return nil
        }
    }

    private static func performPool(_ pool: FzPool, _ arguments: FzArgs, _ resolving: some FzResolving) throws -> FzNode? {
        switch pool {
        case .typed: return try ask(Key<FzTyped>(), arguments, resolving)
        case .dyn: return try ask(Key<FzDyn>(), arguments, resolving)
        case .dynPair: return try ask(Key<FzDynPair>(), arguments, resolving)
        case .level: return try ask(Key<FzLevel>(), arguments, resolving)
        case .selfLazy: return try ask(Key<FzSelfLazy>(), arguments, resolving)
        case .animal: return try ask(Key<FzAnimal>(), arguments, resolving)
        case .puppy: return try ask(Key<FzPuppy>(), arguments, resolving)
        case .outer: return try ask(Key<FzOuter>(), arguments, resolving)
        case .stranger:
            _ = try ask(Key<FzStranger>(), arguments, resolving)
            return nil
        }
    }

    private static func performOptionalPool(_ pool: FzPool, _ arguments: FzArgs, _ resolving: some FzResolving) throws -> FzNode? {
        switch pool {
        case .typed: return try ask(Key<FzTyped?>(), arguments, resolving)
        case .dyn: return try ask(Key<FzDyn?>(), arguments, resolving)
        case .dynPair: return try ask(Key<FzDynPair?>(), arguments, resolving)
        case .level: return try ask(Key<FzLevel?>(), arguments, resolving)
        case .selfLazy: return try ask(Key<FzSelfLazy?>(), arguments, resolving)
        case .animal: return try ask(Key<FzAnimal?>(), arguments, resolving)
        case .puppy: return try ask(Key<FzPuppy?>(), arguments, resolving)
        case .outer: return try ask(Key<FzOuter?>(), arguments, resolving)
        case .stranger:
            _ = try ask(Key<FzStranger?>(), arguments, resolving)
            return nil
        }
    }

    /// Uses a deferred value once, if there is fuel.
    static func use(_ deferred: FzDeferred, _ context: FzContext) throws {
        guard context.spend() else { return }
        switch deferred {
        case .lazy(let lazy): _ = try lazy.get()
        case .factory(let factory): _ = try factory.make()
        case .factoryInt(let factory): _ = try factory.make(5)
        case .factoryString(let factory): _ = try factory.make("used")
        case .lazyTyped(let lazy): _ = try lazy.get()
        case .level(let factory): _ = try factory.make(2)
        }
    }
}

/// The bindings of a configuration.
struct FzModule: Module {
    let configuration: FzConfiguration
    let context: FzContext

    func configure(_ binder: Binder) {
        binder.bind(FzContext.self).to(instance: context)
        for (index, binding) in configuration.bindings.enumerated() {
            bind(index, binding, binder)
        }
        for (pool, singleton) in configuration.poolBindings {
            let scope: Scope = singleton ? .singleton : .unscoped
            switch pool {
            case .typed: binder.bind(FzTyped.self).in(scope)
            case .dyn: binder.bind(FzDyn.self).in(scope)
            case .dynPair: binder.bind(FzDynPair.self).in(scope)
            case .level: binder.bind(FzLevel.self).in(scope)
            case .selfLazy: binder.bind(FzSelfLazy.self).in(scope)
            case .animal: binder.bind(FzAnimal.self).in(scope)
            case .puppy: binder.bind(FzPuppy.self).in(scope)
            case .stranger: binder.bind(FzStranger.self).in(scope)
            case .outer: binder.bind(FzOuter.self).in(scope)
            }
        }
        for (index, target) in configuration.optionalAliases {
            let key = Key<FzNode?>(named: "o\(index)")
            switch target {
            case .optional(let other): binder.bind(key).to(Key<FzNode?>(named: "k\(other)"))
            case .optionalUnbound(let other): binder.bind(key).to(Key<FzNode?>(named: "u\(other)"))
            case .optionalAlias(let other): binder.bind(key).to(Key<FzNode?>(named: "o\(other)"))
            case .optionalPool(let pool): Self.bindOptional(key, toPool: pool, binder)
            default: binder.bind(key).to(Key<FzNode>(named: "k0"))
            }
        }
    }

    private static func bindOptional(_ key: Key<FzNode?>, toPool pool: FzPool, _ binder: Binder) {
        switch pool {
        case .typed: binder.bind(key).to(Key<FzTyped?>())
        case .dyn: binder.bind(key).to(Key<FzDyn?>())
        case .dynPair: binder.bind(key).to(Key<FzDynPair?>())
        case .level: binder.bind(key).to(Key<FzLevel?>())
        case .selfLazy: binder.bind(key).to(Key<FzSelfLazy?>())
        case .animal: binder.bind(key).to(Key<FzAnimal?>())
        case .puppy: binder.bind(key).to(Key<FzPuppy?>())
        case .stranger: binder.bind(key).to(Key<FzStranger?>())
        case .outer: binder.bind(key).to(Key<FzOuter?>())
        }
    }

    private func bind(_ index: Int, _ binding: FzConfiguration.Binding, _ binder: Binder) {
        let key = Key<FzNode>(named: "k\(index)")
        let context = context
        let scope: Scope = binding.singleton ? .singleton : .unscoped
        let origin = "k\(index)"
        switch binding.source {
        case .instance:
            binder.bind(key).to(instance: FzNode(origin: origin))
        case .closure(let requests):
            binder.bind(key).to { resolver in
                try Self.run(requests, resolver, context)
                return FzNode(origin: origin)
            }.in(scope)
        case .provider(let requests):
            binder.bind(key).to(provider: FzNodeProvider { resolver in
                try Self.run(requests, resolver, context)
                return FzNode(origin: origin)
            }).in(scope)
        case .alias(let target):
            Self.bindAlias(key, to: target, scope: scope, binder)
        case .initializer(let slots, let uses, let request):
            let initializer = Initializer<FzNode>(slots.map(Self.anySlot)) { arguments in
                var dynamics: [FzValue] = []
                var deferred: [FzDeferred] = []
                var injector: Injector?
                for (position, slot) in slots.enumerated() {
                    let used = uses.contains(position)
                    switch slot {
                    case .dynamicInt:
                        let number: Int = try arguments.value(at: position)
                        context.received(number, by: origin)
                        dynamics.append(.int(number))
                    case .dynamicString:
                        let text: String = try arguments.value(at: position)
                        context.received(text, by: origin)
                        dynamics.append(.string(text))
                    case .inject(let key):
                        if let value = try Self.read(key, arguments, position, &injector) {
                            deferred.append(value)
                            if used { try FzRequester.use(value, context) }
                        }
                    }
                }
                if let injector, let request, context.spend() {
                    _ = try FzRequester.perform(request, injector, context)
                }
                let node = FzNode(origin: origin, dynamics: dynamics)
                node.deferred = deferred
                return node
            }
            binder.bind(key).to(initializer).in(scope)
        }
    }

    private static func run(_ requests: [FzRequest], _ resolver: Resolver, _ context: FzContext) throws {
        for request in requests {
            guard context.spend() else { return }
            switch request.via {
            case .resolver: _ = try FzRequester.perform(request, resolver, context)
            case .injector: _ = try FzRequester.perform(request, resolver.injector, context)
            }
        }
    }

    /// Reads a slot of a raw initializer as its key's type; returns the deferred value it is,
    /// if it is one.
    private static func read(
        _ key: FzKey, _ arguments: Initializer<FzNode>.Arguments, _ position: Int, _ injector: inout Injector?
    ) throws -> FzDeferred? {
        switch key {
        case .node, .unbound: _ = try arguments.value(at: position, as: FzNode.self)
        case .optional, .optionalUnbound, .optionalAlias: _ = try arguments.value(at: position, as: FzNode?.self)
        case .lazy: return .lazy(try arguments.value(at: position))
        case .factory: return .factory(try arguments.value(at: position))
        case .factoryInt: return .factoryInt(try arguments.value(at: position))
        case .factoryString: return .factoryString(try arguments.value(at: position))
        case .pool(let pool): try readPool(pool, arguments, position)
        case .optionalPool: _ = try arguments.value(at: position, as: Any.self)
        case .injector: injector = try arguments.value(at: position, as: Injector.self)
        }
        return nil
    }

    private static func readPool(_ pool: FzPool, _ arguments: Initializer<FzNode>.Arguments, _ position: Int) throws {
        switch pool {
        case .stranger: _ = try arguments.value(at: position, as: FzStranger.self)
        default: _ = try arguments.value(at: position, as: FzNode.self)
        }
    }

    private static func anySlot(_ slot: FzSlot) -> RawSlot {
        switch slot {
        case .dynamicInt: return .dynamic(Int.self)
        case .dynamicString: return .dynamic(String.self)
        case .inject(let key):
            switch key {
            case .node(let index): return .inject(Key<FzNode>(named: "k\(index)"))
            case .unbound(let index): return .inject(Key<FzNode>(named: "u\(index)"))
            case .optional(let index): return .inject(Key<FzNode?>(named: "k\(index)"))
            case .optionalUnbound(let index): return .inject(Key<FzNode?>(named: "u\(index)"))
            case .optionalAlias(let index): return .inject(Key<FzNode?>(named: "o\(index)"))
            case .lazy(let index): return .inject(Key<Lazy<FzNode>>(named: "k\(index)"))
            case .factory(let index): return .inject(Key<Factory<FzNode>>(named: "k\(index)"))
            case .factoryInt(let index): return .inject(Key<Factory<FzNode, Int>>(named: "k\(index)"))
            case .factoryString(let index): return .inject(Key<Factory<FzNode, String>>(named: "k\(index)"))
            case .pool(let pool): return poolSlot(pool)
            case .optionalPool(let pool): return optionalPoolSlot(pool)
            case .injector: return .inject(Injector.self)
            }
        }
    }

    private static func poolSlot(_ pool: FzPool) -> RawSlot {
        switch pool {
        case .typed: .inject(FzTyped.self)
        case .dyn: .inject(FzDyn.self)
        case .dynPair: .inject(FzDynPair.self)
        case .level: .inject(FzLevel.self)
        case .selfLazy: .inject(FzSelfLazy.self)
        case .animal: .inject(FzAnimal.self)
        case .puppy: .inject(FzPuppy.self)
        case .stranger: .inject(FzStranger.self)
        case .outer: .inject(FzOuter.self)
        }
    }

    private static func optionalPoolSlot(_ pool: FzPool) -> RawSlot {
        switch pool {
        case .typed: .inject(FzTyped?.self)
        case .dyn: .inject(FzDyn?.self)
        case .dynPair: .inject(FzDynPair?.self)
        case .level: .inject(FzLevel?.self)
        case .selfLazy: .inject(FzSelfLazy?.self)
        case .animal: .inject(FzAnimal?.self)
        case .puppy: .inject(FzPuppy?.self)
        case .stranger: .inject(FzStranger?.self)
        case .outer: .inject(FzOuter?.self)
        }
    }

    private static func bindAlias(_ key: Key<FzNode>, to target: FzKey, scope: Scope, _ binder: Binder) {
        switch target {
        case .node(let index): binder.bind(key).to(Key<FzNode>(named: "k\(index)")).in(scope)
        case .unbound(let index): binder.bind(key).to(Key<FzNode>(named: "u\(index)")).in(scope)
        case .optional(let index): binder.bind(key).to(Key<FzNode?>(named: "k\(index)")).in(scope)
        case .optionalUnbound(let index): binder.bind(key).to(Key<FzNode?>(named: "u\(index)")).in(scope)
        case .optionalAlias(let index): binder.bind(key).to(Key<FzNode?>(named: "o\(index)")).in(scope)
        case .pool(let pool):
            switch pool {
            case .typed: binder.bind(key).to(FzTyped.self).in(scope)
            case .dyn: binder.bind(key).to(FzDyn.self).in(scope)
            case .dynPair: binder.bind(key).to(FzDynPair.self).in(scope)
            case .level: binder.bind(key).to(FzLevel.self).in(scope)
            case .selfLazy: binder.bind(key).to(FzSelfLazy.self).in(scope)
            case .animal: binder.bind(key).to(FzAnimal.self).in(scope)
            case .puppy: binder.bind(key).to(FzPuppy.self).in(scope)
            case .stranger: binder.bind(key).to(FzStranger.self).in(scope)
            case .outer: binder.bind(key).to(FzOuter.self).in(scope)
            }
        case .optionalPool(let pool):
            switch pool {
            case .dyn: binder.bind(key).to(Key<FzDyn?>()).in(scope)
            case .dynPair: binder.bind(key).to(Key<FzDynPair?>()).in(scope)
            default: binder.bind(key).to(Key<FzTyped?>()).in(scope)
            }
        case .lazy, .factory, .factoryInt, .factoryString, .injector:
            binder.bind(key).to(Key<FzNode>(named: "k0")).in(scope)
        }
    }
}

private struct FzNodeProvider: Provider {
    let make: @Sendable (Resolver) throws -> FzNode
    func provide(_ resolver: Resolver) throws -> FzNode { try make(resolver) }
}
