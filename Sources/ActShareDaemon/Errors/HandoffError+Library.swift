import NIOCore
import NIOPosix
import NIOSSL

extension HandoffError {
    /// What `error`, met while reaching `address`, means for the user; `pairing` when this
    /// device was asking to pair (a TLS refusal then means nobody waits for it there).
    /// A ``HandoffError`` stays as it is.
    init(_ error: any Error, reaching address: PeerAddress, pairing: Bool = false) {
        switch error {
        case let known as HandoffError:
            self = known
        case is TimedOut:
            self = .timedOut(address)
        case is FrameTooLarge:
            self = .frameTooLarge(address)
        case is NIOSSLError, is BoringSSLError:
            self = pairing ? .notWaitingToPair(address) : .refusedThisDevice(address)
        case is NIOConnectionError, is ChannelError:
            self = .noAnswer(address)
        case let io as IOError:
            self = .connectionFailed(address, errno: io.errnoCode)
        default:
            self = .peerFailure(address, "\(error)")
        }
    }

    /// `error` as a ``HandoffError``: another component's error (a file that cannot be
    /// written, a JSON encoder) keeps its own words.
    init(_ error: any Error) {
        self = error as? HandoffError ?? .other("\(error)")
    }
}
