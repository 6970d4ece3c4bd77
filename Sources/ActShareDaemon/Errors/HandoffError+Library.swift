import ActShareCore
import NIOCore
import NIOPosix
import NIOSSL

extension HandoffError {
    /// What `error`, met while reaching `address`, means for the user; `pairing` when this
    /// device was asking to pair (a TLS refusal then means nobody waits for it there).
    /// A part's error stays as it is.
    init(_ error: any Error, reaching address: PeerAddress, pairing: Bool = false) {
        switch error {
        case is TimedOut:
            self = .peer(.timedOut(address))
        case is FrameTooLarge:
            self = .peer(.frameTooLarge(address))
        case is NIOSSLError, is BoringSSLError:
            self = .peer(pairing ? .notWaitingToPair(address) : .refusedThisDevice(address))
        case is NIOConnectionError, is ChannelError:
            self = .peer(.noAnswer(address))
        case let io as IOError:
            self = .peer(.connectionFailed(address, errno: io.errnoCode))
        default:
            self = HandoffError(error)
        }
    }

    /// `error` as a ``HandoffError``: a part's error in its case; the user giving up
    /// (Swift's cancellation) as a cancelled transfer; anything else, met outside an
    /// exchange with a peer, as this machine's own failure in its own words.
    init(_ error: any Error) {
        switch error {
        case let known as HandoffError: self = known
        case let part as PeerError: self = .peer(part)
        case let part as PairingError: self = .pairing(part)
        case let part as ControlError: self = .control(part)
        case let part as RelayError: self = .relay(part)
        case let part as TransferError: self = .transfer(part)
        case let part as ClipboardError: self = .clipboard(part)
        case let part as QuickShareServiceError: self = .quickShare(part)
        case let part as LocalSendServiceError: self = .localSend(part)
        case is CancellationError: self = .transfer(.cancelled)
        default: self = .local(ActShareError.wrapping(error))
        }
    }
}
