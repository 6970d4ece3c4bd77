#if canImport(Glibc)
import Glibc
#endif

/// Lines read from a descriptor, without their newlines, each at most `limit` bytes: the
/// share sheet's answers.
final class LineReader {
    let fd: Int32
    let limit: Int
    private var pending: [UInt8] = []
    private var ended = false

    init(fd: Int32, limit: Int) {
        self.fd = fd
        self.limit = limit
    }

    /// Whether a whole line is already read, so that `next()` will not wait.
    var hasLine: Bool { pending.contains(UInt8(ascii: "\n")) }

    /// The next line, waiting for it; nil at the end (a last line without a newline is
    /// dropped) or when a line runs past `limit`.
    func next() -> [UInt8]? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            guard !ended, pending.count <= limit else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                ended = true
                return nil
            }
            pending += chunk[..<count]
        }
    }
}
