import NIOCore
import NIOPosix
import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to another daemon, in words a user can act on (not the TLS
/// library's error dump).
enum PeerFailure {
    /// Why `host:port` could not be reached or refused this device; `pairing` when this
    /// device was asking to pair.
    static func describe(_ error: any Error, host: String, port: Int, pairing: Bool = false) -> String {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        switch error {
        case let failure as HandoffFailure:
            return failure.message
        case is TimedOut:
            return "\(address) did not answer in time"
        case is FrameTooLarge:
            return "\(address) sent a message larger than 1 MiB, which is refused"
        case is NIOSSLError, is BoringSSLError:
            return pairing
                ? "\(address) refused to pair: it is not waiting for a pairing (run `actshare handoff pair --wait` there first)"
                : "\(address) refused this device (it is no longer paired with it, or another device answers there)"
        case is NIOConnectionError, is ChannelError:
            return "nothing answers at \(address) (is `actshare daemon` running there, on that port?)"
        case let io as IOError:
            return "nothing answers at \(address): \(String(cString: strerror(io.errnoCode)))"
        default:
            return "\(address): \(error)"
        }
    }
}
