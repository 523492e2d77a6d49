/// The values a ``ChildTemplate``'s children are made with, collected where the template is
/// declared: the key of each, recorded in the template's graph with a plan reading it from the
/// child, and where each lies in a child's buffer.
///
/// Declared with the values' types known (the fixed-arity `childTemplate(providing:…)`
/// overloads), the plans reading the values and the code destroying them are specialized for
/// their types; through the variadic overloads they run generically, which costs a few hundred
/// instructions per child.
@usableFromInline
final class ProvidedValues {
    @usableFromInline var keys: [ProvidedKey] = []
    @usableFromInline let layout = ProvidedLayout.Builder()
    /// The values in one piece, as a child takes them.
    @usableFromInline let tuple: ProvidedTuple

    /// Values to be added one by one, in the order of the types of `Values`, the tuple a child
    /// takes them as.
    @inlinable
    convenience init<Values>(as values: Values.Type) {
        self.init(tuple: ProvidedTuple(Values.self))
    }

    @usableFromInline
    init(tuple: ProvidedTuple) {
        self.tuple = tuple
    }

    /// Adds the value of `key`, after those added before.
    @inlinable
    func add<Value: Sendable>(_ key: Key<Value>) {
        keys.append(ProvidedKey(key, offset: layout.add(Value.self)))
    }
}

/// Records one provided key in a template's graph, with the plan reading its value from the
/// child running it.
@usableFromInline
struct ProvidedKey {
    @usableFromInline let record: (Binder, Int, SourceLocation) -> Void

    /// The key's value, lying at `offset` among a child's values.
    @inlinable
    init<Value: Sendable>(_ key: Key<Value>, offset: Int) {
        record = { binder, index, location in
            binder.provide(key, index: index, location: location) { index, owner in
                { resolution in
                    let value = resolution.borrowed.reading {
                        $0.providedValue(at: index, offset: offset, of: owner, as: Value.self)
                    }
                    guard let value else { throw Injector.outsideTemplateChild(AnyKey(type: Value.self, name: nil)) }
                    return value
                }
            }
        }
    }
}
