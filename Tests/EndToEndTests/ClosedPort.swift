import Foundation
import Testing

/// A TCP port that nothing answers, held for as long as this value lives: a socket bound to
/// it on every address, not listening and without `SO_REUSEADDR`, so the kernel gives the
/// port to nobody else and refuses connections to it at once.
final class ClosedPort {
    let port: Int
    private let descriptor: Int32

    /// `port` 0: one the kernel chooses.
    init(_ port: Int = 0) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0, "socket: \(String(cString: strerror(errno)))")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = INADDR_ANY
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        if !bound { close(descriptor) }
        try #require(bound, "cannot hold port \(port): \(String(cString: strerror(errno)))")
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
