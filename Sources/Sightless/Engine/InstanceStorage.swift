#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Keeps the one instance of a key for a storing scope, such as ``Scope/singleton``: one thread
/// builds it while the others that ask wait for it, whichever injectors share the storage (a
/// build that throws keeps nothing), and it is read without a lock once it exists.
///
/// A custom scope that keeps an instance hands its storage to ``Provision/stored(in:)``:
///
/// ```swift
/// func scope<Value>(_ unscoped: Provision<Value>) -> Provision<Value> {
///     unscoped.stored(in: InstanceStorage(unscoped.key))
/// }
/// ```
///
/// The instance lives in memory of its own, published by an atomic pointer. Nothing here is
/// generic over the value's type, so reading it asks the runtime for no type metadata beyond
/// the one comparison that checks the reader's type.
public final class InstanceStorage {
    /// The type of the instance: the type of the storage's key. A reader that asks for another
    /// type finds nothing, and a build of another type is not stored.
    @usableFromInline let valueType: ObjectIdentifier
    /// The instance, published once it is built; requests find the cell in the node index and
    /// read it directly (`InstanceCell`).
    @usableFromInline let stored: InstanceCell
    /// Which thread builds the instance, whether a shutdown sealed the storage, the awaited
    /// build under way, and when and how the instance was stored: fields only
    /// `BuildCoordinator.process` reads and writes, under its lock, whichever injectors of
    /// whichever families share the storage.
    var build = BuildState()
    /// How the binding closes the instance (`onShutdown`), in place of its own `close()`; set
    /// when the binding is linked, before any request can reach the storage.
    var closer: ValueCloser?

    /// `true` while an awaited build runs, read with no lock: a synchronous build of the instance
    /// would find it under way and fail, so the instance is not ready for one then.
    let awaitedBuildRuns = Atomic<Bool>(false)

    let key: AnyKey

    /// An empty storage for the instance of `key`.
    ///
    /// ```swift
    /// let storage = InstanceStorage(AnyKey(Key<Database>()))
    /// ```
    public init(_ key: AnyKey) {
        self.key = key
        self.valueType = ObjectIdentifier(key.type)
        self.stored = InstanceCell.allocate(valueType: valueType)
    }

    deinit {
        // Frees the instance, published or retired by a shutdown, with the cell.
        stored.free()
    }

    /// `true` once the instance has been built and stored.
    ///
    /// ```swift
    /// print(storage.isFilled)   // false until the first request
    /// ```
    public var isFilled: Bool { stored.isPublished }

    /// Whether an awaited request is building the instance now (`awaitInstance`).
    var isBuildingAwaited: Bool { awaitedBuildRuns.load(ordering: .acquiring) }

    /// The instance, if it has been built as a `Value`.
    @inlinable @inline(__always)
    func existing<Value>(as type: Value.Type) -> Value? {
        stored.existing(as: Value.self)
    }

    @inline(__always)
    func instance<Value>(_ resolution: inout Resolution, build: Plan<Value>) throws -> Value {
        if let value = existing(as: Value.self) { return value }
        return try create(&resolution, build: build)
    }

    /// The instance, built by `build` unless an awaited request is building it: then the error
    /// `whileAwaited` makes, telling the request to await it (`BuildCoordinator.Turn.awaited`).
    @inline(__always)
    func instance<Value>(
        _ resolution: inout Resolution, build: Plan<Value>, whileAwaited: @escaping @Sendable () -> InjectionError
    ) throws -> Value {
        if let value = existing(as: Value.self) { return value }
        return try create(&resolution, build: build, whileAwaited: whileAwaited)
    }

    @inline(never)
    private func create<Value>(
        _ resolution: inout Resolution, build: Plan<Value>, whileAwaited: (@Sendable () -> InjectionError)? = nil
    ) throws -> Value {
        let coordinator = BuildCoordinator.process
        switch coordinator.claim(self, thread: currentThread()) {
        case .built:
            break
        case .reentered:
            throw InjectionError(.reentered(key: key, through: .singleton), path: [key])
        case .deadlock:
            throw InjectionError(.reentered(key: key, through: .otherThread), path: [key])
        case .shutDown:
            throw InjectionError(.injectorShutDown(key: key), path: [key])
        case .awaited:
            throw whileAwaited?() ?? InjectionError(.needsAwait(key: key, awaited: key), path: [key])
        case .build:
            guard valueType == ObjectIdentifier(Value.self) else {
                coordinator.abandon(self)
                throw InjectionError(.internalInconsistency(.nodeType(key: key, expected: AnyKey.name(of: Value.self))), path: [key])
            }
            let value: Value
            do {
                value = try build(&resolution)
            } catch {
                coordinator.abandon(self)
                throw error
            }
            let kept = coordinator.finish(self, storing: value)
            // Built after the injector was shut down: handed to no one, closed here.
            guard kept else { throw Self.builtAfterShutDown(value, key: key, closer: closer) }
            return value
        }
        guard let value = existing(as: Value.self) else { throw missing() }
        return value
    }
}

extension InstanceStorage {
    /// The error of a request that found the instance built, then gone: a shutdown retired it
    /// in between (`injectorShutDown`); anything else would be a defect.
    func missing() -> InjectionError {
        guard BuildCoordinator.process.isSealed(self) else {
            return InjectionError(.internalInconsistency(.notStored(key: key)), path: [key])
        }
        return InjectionError(.injectorShutDown(key: key), path: [key])
    }

    /// `error`, the reason a synchronous request could not build the instance now (it needs
    /// `await`, or an awaited request builds it), unless the injector keeping the instance was
    /// shut down meanwhile and took it away: then `injectorShutDown`, as a request that starts
    /// after the shutdown is told. Asked only on that failure, under the coordinator's lock.
    func unlessShutDown(_ error: InjectionError) -> InjectionError {
        guard BuildCoordinator.process.isSealed(self) else { return error }
        return InjectionError(.injectorShutDown(key: key), path: [key])
    }

    /// The error of a build that ended after the injector keeping its instance was shut down:
    /// `injectorShutDown`, and `closeFailed` if closing the instance (which no one else will
    /// close) threw: closed by its binding's `closer` when it has one (one that awaits is left
    /// to `awaitedBuiltAfterShutDown`, as an ``AsyncClosable`` is), else by its own `close()`.
    static func builtAfterShutDown<Value>(_ value: Value, key: AnyKey, closer: ValueCloser?) -> InjectionError {
        do {
            if let closer {
                if case .synchronous(let close) = closer.bound(to: value)?.close { try close() }
            } else {
                try (value as? any Closable)?.close()
            }
            return shutDownError(key, closing: nil)
        } catch {
            return shutDownError(key, closing: error)
        }
    }

    /// `injectorShutDown` for `key`, with `closeFailed` when closing the value built threw.
    static func shutDownError(_ key: AnyKey, closing error: (any Error)?) -> InjectionError {
        var problems = [InjectionError.Problem(.injectorShutDown(key: key), path: [key])]
        if let error {
            problems.append(InjectionError.Problem(
                .closeFailed(key: key, error: String(describing: error)), path: [key], underlying: error))
        }
        return InjectionError(problems: problems) ?? InjectionError(.injectorShutDown(key: key), path: [key])
    }
}

/// An identity of the calling thread, never 0.
@inline(__always)
func currentThread() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
