import ActShareCore

/// Everything that can go wrong in the handoff daemon, as values a caller can switch on:
/// one case for each part, holding that part's own error.
///
/// The contract, which every part keeps:
/// - A part throws (or answers with) a case of its own error and its facts, never a
///   sentence. Each part's words and exit codes are in its `…Error+Words.swift`, every case
///   by name; this type only passes them on (`HandoffError+Words.swift`).
/// - Text that came from a peer (`reason:`) has been through ``Daemon/quoted(_:)`` before
///   it is put in a case; paths and names from this machine are put as they are.
/// - A library's error (SwiftNIO, NIOSSL, the system) does not leave the part that met
///   it: ``init(_:reaching:pairing:)`` turns it into the case that says what it means for
///   the user. One met outside an exchange with a peer is this machine's own failure
///   (``local(_:)``).
enum HandoffError: Error, Sendable {
    /// Reaching another daemon, and choosing among the paired devices.
    case peer(PeerError)
    case pairing(PairingError)
    /// The daemon itself, its sockets and the requests on its control socket.
    case control(ControlError)
    /// Activities between the paired devices.
    case relay(RelayError)
    /// Files sent and received.
    case transfer(TransferError)
    case clipboard(ClipboardError)
    case quickShare(QuickShareServiceError)
    case localSend(LocalSendServiceError)
    /// One of actshare's own components on this machine (a file that cannot be read, the
    /// config), with its words and its code (``ActShareError/wrapping(_:)`` for a library's).
    case local(ActShareError)
}

extension HandoffError {
    /// Whether the connection itself failed (it went, it broke, it was cut, nothing more
    /// came), rather than the other side refusing: a send that fails so is worth resuming.
    var isBrokenLink: Bool {
        switch self {
        case .peer(let error): return error.isBrokenLink
        case .transfer(.receiverClosed): return true
        case .pairing, .control, .relay, .transfer, .clipboard, .quickShare, .localSend, .local: return false
        }
    }
}
