#if canImport(Glibc)
import ActShareCrypto
import Glibc
#endif

/// The SHA-256 of a file's first bytes, read from its descriptor's current offset: how
/// both sides of a resumed transfer check the part the receiver kept.
enum FilePrefixHash {
    /// Hashes up to `limit` bytes (all there are, when fewer); returns the hasher, to go on
    /// with the rest of the file, and the bytes read.
    static func of(_ fd: Int32, limit: UInt64) -> (hasher: SHA256, bytes: UInt64) {
        var hasher = SHA256()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var total: UInt64 = 0
        while total < limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, Int(min(UInt64($0.count), limit - total))) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            chunk.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            total += UInt64(count)
        }
        return (hasher, total)
    }
}
