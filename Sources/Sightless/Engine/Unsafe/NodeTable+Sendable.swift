/// Invariant: the base index is immutable once made; `latest` and `compilingThread` are atomics;
/// what compiling changes is inside `compiling`, a `Locked`; `teardown` is touched only when the
/// table is freed, by the one thread that frees it.
extension NodeTable: @unchecked Sendable {}

/// Invariant: entries are added only under the owning `NodeTable`'s `compiling` lock, each
/// written before its type word is stored with release ordering, and never changed after; a
/// reader loads the type word with acquire ordering before it reads the entry. The memory is
/// allocated in `init` and freed in `deinit`, and the table keeps every node it points to alive
/// through the `NodeTable`'s `laterNodes`.
extension LaterIndex: @unchecked Sendable {}

/// Invariant: the entries and the nodes array are immutable once made, and the nodes array keeps
/// alive every node an entry points to.
extension NodeIndex: @unchecked Sendable {}
