#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// A crash ends the test process before any `Issue.record` can name the seed that caused it.
// While the configuration fuzz test runs, a handler for the crash signals writes the seed of
// the running case (only for a crash on the fuzz thread), then restores the previous handler
// so that the crash goes on as it would have (and the runtime's backtrace, if any, follows).

#if canImport(Glibc)
private let fzCrashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]
nonisolated(unsafe) private let fzPreviousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 6)
nonisolated(unsafe) private let fzCrashMessage = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
private let fzCrashMessageLength = Atomic<Int>(0)
private let fzFuzzThread = Atomic<UInt>(0)
private let fzAlternateStackSize = 64 * 1024

private func fzCrashHandler(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    if fzFuzzThread.load(ordering: .relaxed) == UInt(pthread_self()) {
        _ = write(2, fzCrashMessage, fzCrashMessageLength.load(ordering: .relaxed))
    }
    for index in 0..<6 where fzCrashSignals[index] == signal {
        sigaction(signal, fzPreviousActions + index, nil)
    }
    // A fault repeats when the handler returns, now reaching the previous handler; a signal
    // that was raised must be raised again.
    if signal == SIGTRAP || signal == SIGABRT { raise(signal) }
}
#endif

enum FzCrashReporter {
    /// Installs the handlers; pair with `uninstall()`.
    static func install() {
        #if canImport(Glibc)
        for (index, signal) in fzCrashSignals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = fzCrashHandler
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, fzPreviousActions + index)
        }
        #endif
    }

    static func uninstall() {
        #if canImport(Glibc)
        for (index, signal) in fzCrashSignals.enumerated() {
            sigaction(signal, fzPreviousActions + index, nil)
        }
        #endif
    }

    /// Marks the calling thread as the fuzz thread and gives it a stack for the handler, so
    /// that a stack overflow can still be reported. Returns what `leaveThread` needs.
    static func adoptThread() -> UnsafeMutableRawPointer? {
        #if canImport(Glibc)
        guard let memory = malloc(fzAlternateStackSize) else { return nil }
        var stack = stack_t(ss_sp: memory, ss_flags: 0, ss_size: fzAlternateStackSize)
        sigaltstack(&stack, nil)
        fzFuzzThread.store(UInt(pthread_self()), ordering: .relaxed)
        return memory
        #else
        return nil
        #endif
    }

    static func leaveThread(_ memory: UnsafeMutableRawPointer?) {
        #if canImport(Glibc)
        fzFuzzThread.store(0, ordering: .relaxed)
        var stack = stack_t()
        stack.ss_flags = Int32(SS_DISABLE)
        sigaltstack(&stack, nil)
        free(memory)
        #endif
    }

    /// Sets what a crash from now on prints.
    static func setMessage(_ message: String) {
        #if canImport(Glibc)
        let bytes = Array(message.utf8.prefix(511))
        fzCrashMessageLength.store(0, ordering: .relaxed)
        for (index, byte) in bytes.enumerated() { fzCrashMessage[index] = byte }
        fzCrashMessageLength.store(bytes.count, ordering: .relaxed)
        #endif
    }
}
