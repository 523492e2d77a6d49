#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard error, where the library reports what it cannot throw (a dependency
/// read where it stands that fell back to its default outside every scope that reports it).
///
/// Invariant: the pointer `withCString` hands out is valid, and holds `strlen` bytes, for the
/// duration of its closure, which is all `write(2)` reads; file descriptor 2 is the process's
/// standard error, which the library never closes. One call writes the whole line, so lines
/// written from several threads do not interleave within a line.
enum StandardError {
    /// Writes `line` and a line break.
    static func write(_ line: String) {
        unsafe (line + "\n").withCString { text in
            _ = unsafe writeToDescriptor(2, text, strlen(text))
        }
    }
}

/// The C library's `write`, by a name that the type's own `write` does not hide.
@inline(__always)
private func writeToDescriptor(_ descriptor: Int32, _ bytes: UnsafePointer<CChar>, _ count: Int) -> Int {
    unsafe write(descriptor, bytes, count)
}
