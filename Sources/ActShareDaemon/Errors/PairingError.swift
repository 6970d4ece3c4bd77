/// What can go wrong pairing with a device (``PairingFlow``), on either side.
///
/// A case and its facts, never a sentence: the words and the exit code are
/// `PairingError+Words.swift`'s. Text from a peer has been through ``Daemon/quoted(_:)``.
enum PairingError: Error, Sendable {
    case notAnswered(PeerAddress)
    case refused(PeerAddress, reason: String?)
    case tooManyAttempts
    case refusedNameOrPort(PeerAddress)
    case leftBeforeConfirming(device: String)
    case unexpectedDevice(name: String, id: String, expected: String?)
    case alreadyWaiting
    case noRequest(seconds: Int)
    case cancelled
    case unanswered
    case anonymousRequest
    case refusedRequestNameOrPort
    case brokenCommitment(device: String)
    case declinedHere(device: String)
    case declinedThere(device: String)
    case ambiguousNearbyName(String, ids: [String])
    /// Pairing with a device failed on the way, and why.
    indirect case failed(HandoffError)
}
