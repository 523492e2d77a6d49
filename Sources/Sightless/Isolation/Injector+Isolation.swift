// How the awaiting entry points reach the main actor when the graph needs its descriptors: a
// `MainActorInjectable` type's initializer and properties are isolated to the main actor, so
// an injector compiling off it cannot read them synchronously (`descriptorsOffActor`). The
// awaiting entry points then compile again, on the main actor, which can.

extension Injector {
    /// Runs `compile` here; when it failed only because it needed descriptors isolated to the
    /// main actor, runs it again on the main actor.
    ///
    /// Compiling builds nothing (the modules only record their bindings), so compiling twice
    /// changes nothing but the time it takes.
    nonisolated(nonsending)
    static func compiledOnActor<Compiled>(
        _ compile: @escaping () throws(InjectionError) -> Compiled
    ) async throws(InjectionError) -> Compiled {
        do {
            return try compile()
        } catch where error.needsMainActorDescriptors {
            // The caller waits while the main actor compiles: one of them uses what `compile`
            // captures at a time.
            let boxed = unsafe Transfer(compile)
            let outcome = await MainActor.run { () -> Transfer<Result<Compiled, InjectionError>> in
                do throws(InjectionError) {
                    return unsafe Transfer(.success(try boxed.value()))
                } catch {
                    return unsafe Transfer(.failure(error))
                }
            }
            return try outcome.value.get()
        }
    }

    /// The node of a key for an awaited request, compiled on the main actor when its graph
    /// needs descriptors isolated there.
    nonisolated(nonsending)
    func awaitedNode<Value>(_ type: Value.Type, name: String?) async throws(InjectionError) -> Node<Value> {
        // Compiled already: nothing to compile, on any actor.
        if let compiled = compiled(Value.self, name: name) { return try compiled.object.typed(as: Value.self) }
        let node = try await Self.compiledOnActor { () throws(InjectionError) in
            unsafe Transfer(try self.compiledNode(Value.self, name: name))
        }
        return node.value
    }
}

extension InjectionError {
    /// Whether a compilation failed because it read, off the main actor, descriptors isolated
    /// to it: the one failure that compiling on the main actor cures.
    var needsMainActorDescriptors: Bool {
        problems.contains { problem in
            if case .descriptorsOffActor = problem.detail { true } else { false }
        }
    }
}
