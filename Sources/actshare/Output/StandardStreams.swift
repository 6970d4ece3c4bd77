import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes to stdout and stderr with `write(2)`: no buffering surprises when a provider
/// also writes, and no C globals (which Swift 6 rejects).
enum StandardStreams {
    static func out(_ text: String) { write(to: 1, text) }
    static func err(_ text: String) { write(to: 2, text) }

    /// Prints `actshare: MESSAGE` on stderr.
    static func error(_ message: String) { err("actshare: \(message)\n") }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    static func write(to fd: Int32, _ text: String) {
        FileSystem.writeAll(Array(text.utf8), to: fd)
    }
}
