import NIOCore
#if canImport(Glibc)
import Glibc
#endif

extension ByteBuffer {
    /// Appends up to `count` bytes read from `fd` (fewer only at its end, or on an error);
    /// returns how many. The sender reads files this way into the buffer it writes.
    mutating func writeFromFile(_ fd: Int32, count: Int) -> Int {
        writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            var total = 0
            while total < count {
                let got = read(fd, raw.baseAddress! + total, count - total)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                total += got
            }
            return total
        }
    }
}
