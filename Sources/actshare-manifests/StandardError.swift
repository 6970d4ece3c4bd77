#if canImport(Glibc)
import Glibc
#endif

/// Raw writes to the standard streams.
enum StandardError {
    static func write(_ text: String) {
        writeAll(Array(text.utf8), to: 2)
    }

    static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                exit(1)
            }
            offset += count
        }
    }
}
