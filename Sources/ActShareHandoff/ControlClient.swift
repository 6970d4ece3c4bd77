import ActShareCore
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Talks to the local daemon over its control socket: a JSON object per line each way.
///
/// One thread may `receive` while others `send`: sends are whole lines under a lock.
public final class ControlClient: @unchecked Sendable {
    private let fd: Int32
    // Touched only by the receiving thread.
    private var pending: [UInt8] = []
    private let sending = Mutex(())

    public static var userID: UInt32 { getuid() }

    /// Connects to the socket at `path`; fails with a message that says how to start the daemon.
    public init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ActShareError(.io, "cannot make a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw ActShareError(.io, "\(path): the socket path is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ActShareError(.noActivity, "no actshare daemon is running (\(path): \(reason)); start it with `actshare daemon` or `systemctl --user start actshare`")
        }
    }

    deinit { close(fd) }

    /// A descriptor of this connection of the caller's own (close-on-exec, numbered
    /// `atLeast` or above), which stays open when this client goes; -1 if none can be made.
    public func duplicateDescriptor(atLeast lowest: Int32) -> Int32 { fcntl(fd, F_DUPFD_CLOEXEC, lowest) }

    /// Ends the connection both ways (a thread blocked in `receive` returns).
    public func shutdown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    public func send(_ request: ControlRequest) throws {
        var line = try Self.encoder.encode(request)
        line.append(UInt8(ascii: "\n"))
        let written = sending.withLock { _ in line.withUnsafeBytes { FileSystem.writeAll(Array($0), to: fd) } }
        guard written else {
            throw ActShareError(.io, "the daemon closed its control socket")
        }
    }

    /// The next response; the daemon closing the socket is an error.
    public func receive() throws -> ControlResponse {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                do {
                    return try JSONDecoder().decode(ControlResponse.self, from: Data(line))
                } catch {
                    throw ActShareError(.io, "the daemon sent something that is not a response")
                }
            }
            let count = FileSystem.read(fd, appendingTo: &pending, atMost: 65536)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ActShareError(.io, "the daemon closed its control socket without an answer") }
        }
    }

    /// Sends `request` and returns the one response.
    public func call(_ request: ControlRequest) throws -> ControlResponse {
        try send(request)
        return try receive()
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
