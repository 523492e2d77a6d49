import Synchronization

/// The fast path of a request with dynamic arguments: inlined where the request is made, so
/// that the arguments are placed at their slots' offsets with their types known, with no
/// conversion, no per-request signature walk and no copies through value witnesses. Anything
/// out of the ordinary (another type than the slot's, a nested request, a shut-down injector,
/// a key not yet compiled, arguments that do not fit on the stack) takes the general path,
/// which also reports every error.
extension Injector {
    /// A request with dynamic arguments, from `getInstance(_:arguments:)` or `Factory.make(_:)`.
    @inlinable @inline(__always)
    func requestPlacing<Value, each Argument>(
        _ type: Value.Type, name: String?, found: FoundNode<Value>? = nil, arguments: repeat each Argument
    ) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: name, found: found) { node in
            try runPlacing(node, arguments: repeat each arguments)
        } general: { () throws(InjectionError) in
            try request(Value.self, name: name, arguments: repeat each arguments)
        }
    }

    /// Places a parameter pack of arguments as one tuple and runs the node's plan: a loop over
    /// the pack, which Swift does not specialize, would place and destroy each argument through
    /// its type's value witnesses (`Factory.make` paid 330 instructions more per request than
    /// `getInstance(_:arguments:)` with one argument for that).
    @inlinable @inline(__always)
    func runPlacing<Value, each Argument>(_ node: Node<Value>, arguments: repeat each Argument) throws -> Value? {
        typealias Arguments = (repeat each Argument)
        guard let signature = node.signature, signature.byteCount <= MemoryLayout<InlineArguments>.size,
              signature.alignment <= MemoryLayout<InlineArguments>.alignment,
              signature.places(Arguments.self, matching: { matcher in repeat matcher.match((each Argument).self) })
        else { return nil }
        var storage = InlineArguments.zero
        return try storage.withTuple((repeat each arguments), token: signature.tokenIdentity) { arguments in
            var resolution = try Resolution(injector: self, arguments: arguments)
            defer { resolution.end() }
            return try node.plan(&resolution)
        }
    }

    /// A request with one dynamic argument, its type known where the request is made (a
    /// parameter pack's elements would be placed through value witnesses).
    @inlinable @inline(__always)
    func requestPlacing<Value, A>(_ type: Value.Type, name: String?, _ a: A) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: name) { node in
            try runPlacing(
                node,
                match: { matcher in matcher.match(A.self) },
                place: { placer in placer.place(a) },
                destroy: { placer in placer.destroy(A.self) }
            )
        } general: { () throws(InjectionError) in
            try request(Value.self, name: name, arguments: a)
        }
    }

    /// A request with two dynamic arguments, their types known where the request is made.
    @inlinable @inline(__always)
    func requestPlacing<Value, A, B>(_ type: Value.Type, name: String?, _ a: A, _ b: B) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: name) { node in
            try runPlacing(
                node,
                match: { matcher in matcher.match(A.self); matcher.match(B.self) },
                place: { placer in placer.place(a); placer.place(b) },
                destroy: { placer in placer.destroy(A.self); placer.destroy(B.self) }
            )
        } general: { () throws(InjectionError) in
            try request(Value.self, name: name, arguments: a, b)
        }
    }

    /// A request with three dynamic arguments, their types known where the request is made.
    @inlinable @inline(__always)
    func requestPlacing<Value, A, B, C>(
        _ type: Value.Type, name: String?, _ a: A, _ b: B, _ c: C
    ) throws(InjectionError) -> Value {
        try requestPlacing(Value.self, name: name) { node in
            try runPlacing(
                node,
                match: { matcher in matcher.match(A.self); matcher.match(B.self); matcher.match(C.self) },
                place: { placer in placer.place(a); placer.place(b); placer.place(c) },
                destroy: { placer in placer.destroy(A.self); placer.destroy(B.self); placer.destroy(C.self) }
            )
        } general: { () throws(InjectionError) in
            try request(Value.self, name: name, arguments: a, b, c)
        }
    }

    /// The fast path shared by every form: `run` places the arguments and runs the node's plan,
    /// or returns `nil` when they do not match its slots; `general`, the general path, serves
    /// anything out of the ordinary. `known` is the key's node when the caller found it before
    /// (a `Factory`, when it was made), saving the probe of the table.
    @inlinable @inline(__always)
    func requestPlacing<Value>(
        _ type: Value.Type, name: String?, found known: FoundNode<Value>? = nil,
        run: (Node<Value>) throws -> Value?, general: () throws(InjectionError) -> Value
    ) throws(InjectionError) -> Value {
        if !isShutDown.load(ordering: .relaxed), RequestFrame.current(of: self) == nil, !parentIsShutDown,
           let found = known ?? compiled(Value.self, name: name) {
            let placed: Value?
            do {
                placed = try found.withNode { node in try run(node) }
            } catch {
                throw InjectionError.request(error, key: AnyKey(type: Value.self, name: name))
            }
            if let placed { return placed }
        }
        return try general()
    }

    /// Places the arguments in a buffer on the stack at the offsets of the node's signature and
    /// runs its plan; `nil` when the arguments are not exactly of the slots' types, in order, or
    /// do not fit.
    @inlinable @inline(__always)
    func runPlacing<Value>(
        _ node: Node<Value>,
        match: (inout SlotMatcher) -> Void, place: (inout SlotPlacer) -> Void, destroy: (inout SlotPlacer) -> Void
    ) throws -> Value? {
        guard let signature = node.signature, signature.byteCount <= MemoryLayout<InlineArguments>.size,
              signature.alignment <= MemoryLayout<InlineArguments>.alignment else { return nil }
        var matcher = SlotMatcher(signature.types)
        match(&matcher)
        guard matcher.matches, matcher.index == signature.types.count else { return nil }
        var storage = InlineArguments.zero
        return try storage.withSlots(
            offsets: signature.offsets, token: signature.tokenIdentity, place: place, destroy: destroy
        ) { arguments in
            var resolution = try Resolution(injector: self, arguments: arguments)
            defer { resolution.end() }
            return try node.plan(&resolution)
        }
    }
}

extension DynamicSignature {
    /// Whether a request's arguments, as the tuple `Arguments` of their types, can be placed in
    /// one piece: its elements are exactly the slots' types, in order, and so lie at the slots'
    /// offsets (a tuple lays out its elements in order, each at the next offset aligned for its
    /// type, as `Builder` lays out the slots). `match` compares the elements one by one, once:
    /// the tuple's identity is kept, and compared from then on with the number of arguments
    /// alone. The number tells apart what the identity cannot: a pack of one argument is its
    /// element, so one tuple `(Int, String)` has the identity of the two arguments `Int` and
    /// `String`, and is one argument all the same.
    @inlinable @inline(__always)
    func places<Arguments>(_ type: Arguments.Type, matching match: (inout SlotMatcher) -> Void) -> Bool {
        let identity = UInt(bitPattern: Int(bitPattern: ObjectIdentifier(Arguments.self)))
        if placedTuple.load(ordering: .relaxed) == identity {
            var counter = SlotMatcher(counting: ())
            match(&counter)
            return counter.index == types.count
        }
        var matcher = SlotMatcher(types)
        match(&matcher)
        guard matcher.matches, matcher.index == types.count, MemoryLayout<Arguments>.size == byteCount else { return false }
        placedTuple.store(identity, ordering: .relaxed)
        return true
    }
}

/// Compares the types of a request's arguments with the slots' types, in order.
@usableFromInline
struct SlotMatcher {
    @usableFromInline let types: [ObjectIdentifier]
    @usableFromInline var index = 0
    @usableFromInline var matches = true

    @inlinable @inline(__always)
    init(_ types: [ObjectIdentifier]) { self.types = types }

    /// A matcher that only counts the arguments (in `index`), comparing no type.
    @inlinable @inline(__always)
    init(counting: Void) {
        types = []
        matches = false
    }

    @inlinable @inline(__always)
    mutating func match<Argument>(_ type: Argument.Type) {
        matches = matches && index < types.count && types[index] == ObjectIdentifier(type)
        index &+= 1
    }
}
