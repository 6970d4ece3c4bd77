/// What can go wrong with the daemon itself and its sockets: starting, listening, and the
/// requests on its control socket (``Daemon``, ``ControlServer``, ``PeerServer``).
///
/// A case and its facts, never a sentence: the words and the exit code are
/// `ControlError+Words.swift`'s. Text from a peer has been through ``Daemon/quoted(_:)``.
enum ControlError: Error, Sendable {
    case alreadyRunning(controlSocket: String)
    case cannotListen(address: String, port: Int, reason: String)
    case tooManyPairedConnections
    case sandboxedCaller(pid: Int32)
    case notAControlRequest
    case badRequest(String)
    case restrictedAlready
    case notAllowedWhenRestricted(operation: String)
    /// A restricted connection named a device it may not send to: not paired, nor a
    /// LocalSend device the user pinned with "always".
    case notTrustedForProvider(device: String)
    case notExpectedHere(operation: String)
    case updateWithoutWillSave
    case continuedNeedsDevice
    case discoveryOff
}
