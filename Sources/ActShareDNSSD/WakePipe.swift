#if canImport(Glibc)
import Glibc
#endif

/// A pipe that wakes a thread from poll(2): other threads write a byte, the thread polls
/// ``readEnd`` beside its socket and drains it. Both ends non-blocking and close-on-exec.
public struct WakePipe: Sendable {
    public let readEnd: Int32
    private let writeEnd: Int32

    public init() throws(DiscoveryError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw DiscoveryError("cannot make a pipe", errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Reads what woke the thread, so that the next poll waits again.
    public func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }

    public func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}
