#if canImport(Glibc)
import Glibc
#endif

/// The user's terminal (`/dev/tty`), for questions that must not mix with the
/// standard streams, which may carry items or JSON.
final class Terminal {
    private let fd: Int32

    /// Opens the controlling terminal, or returns nil when there is none.
    init?() {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    func write(_ text: String) { StandardStreams.write(to: fd, text) }

    /// Asks `prompt` and reads one line; nil at end of input.
    func ask(_ prompt: String) -> String? {
        write(prompt)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
