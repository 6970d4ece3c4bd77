/// What can go wrong reaching another daemon and choosing among the paired devices
/// (``PeerLink``, ``PeerDirectory``).
///
/// A case and its facts, never a sentence: the words and the exit code are
/// `PeerError+Words.swift`'s. Text from a peer has been through ``Daemon/quoted(_:)``.
enum PeerError: Error, Sendable {
    /// No daemon accepted the connection.
    case noAnswer(PeerAddress)
    /// The connection failed with this `errno`.
    case connectionFailed(PeerAddress, errno: Int32)
    case timedOut(PeerAddress)
    case frameTooLarge(PeerAddress)
    /// TLS refused: the peer does not know this device (or another device answers there).
    case refusedThisDevice(PeerAddress)
    /// TLS refused while pairing: nobody waits for a pairing there.
    case notWaitingToPair(PeerAddress)
    case closedConnection(PeerAddress)
    /// Anything else a library said while reaching `PeerAddress`.
    case failure(PeerAddress, String)
    /// None of a device's addresses answered, for no more particular reason.
    case unreachable(device: String)
    /// `device` could not be reached, and why.
    indirect case deviceUnreachable(device: String, HandoffError)
    case noDevicePaired
    /// Several are paired and none was named; `howToChoose` is the option to use.
    case severalDevicesPaired(howToChoose: String)
    case noDeviceNamed(String)
    /// No paired device, LocalSend device or advertising phone has the name (Quick Share on).
    case noDeviceOrPhoneNamed(String)
    /// No paired device has this name, but a device nearby does: it can be paired.
    case deviceNotPaired(String)
    case noDeviceWithID(String)

    // What this device answers another daemon (``PeerServer``).

    /// A device that is not paired asked for something other than pairing.
    case notPairedHere
    /// A message of a kind that is not a request (`kind`: the protocol's name for it).
    case notARequest(kind: String)
}

extension PeerError {
    /// Whether the connection itself failed (it went, it broke, it was cut, nothing more
    /// came), rather than the other side refusing: a send that fails so is worth resuming.
    var isBrokenLink: Bool {
        switch self {
        case .noAnswer, .connectionFailed, .timedOut, .closedConnection, .failure: return true
        case .frameTooLarge, .refusedThisDevice, .notWaitingToPair, .unreachable, .deviceUnreachable, .noDevicePaired,
             .severalDevicesPaired, .noDeviceNamed, .noDeviceOrPhoneNamed, .deviceNotPaired, .noDeviceWithID, .notPairedHere, .notARequest:
            return false
        }
    }
}
