import ActShareCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Writes to stdout and stderr with `write(2)`: no buffering surprises when a provider
/// also writes, and no C globals (which Swift 6 rejects).
enum StandardStreams {
    static func out(_ text: String) {
        wroteOutput.store(true, ordering: .relaxed)
        write(to: 1, text)
    }

    /// Whether anything went to stdout (JSONFailure prints a result only if not).
    static let wroteOutput = Atomic(false)
    static func err(_ text: String) { write(to: 2, text) }

    /// Prints `actshare: MESSAGE` on stderr.
    /// Control characters in it (from a provider, a file name or a peer) are shown, not
    /// obeyed (TerminalText).
    static func error(_ message: String) { err("actshare: \(TerminalText.visible(message))\n") }

    /// Prints text that came from outside on stdout: exactly as it is into a pipe or a
    /// file (a file name's bytes as they are), with control characters and bytes that
    /// are not UTF-8 made visible on a terminal.
    static func outsideText(_ text: String) {
        if isTerminal(1) { return out(TerminalText.visible(text)) }
        wroteOutput.store(true, ordering: .relaxed)
        FileSystem.writeAll(PathName.bytes(text), to: 1)
    }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    static func write(to fd: Int32, _ text: String) {
        FileSystem.writeAll(Array(text.utf8), to: fd)
    }
}
