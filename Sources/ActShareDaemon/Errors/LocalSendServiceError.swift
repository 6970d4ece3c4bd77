/// What can go wrong with LocalSend devices (``LocalSendService``).
///
/// A case and its facts, never a sentence: the words and the exit code are
/// `LocalSendServiceError+Words.swift`'s. Text from a peer has been through ``Daemon/quoted(_:)``.
enum LocalSendServiceError: Error, Sendable {
    case off
    /// `handoff.localsend: receive-only`.
    case sendingOff
    /// The device announces another certificate than the one pinned for its name.
    case certificateChanged(device: String, pinned: String, announced: String)
    /// The certificate presented is not the one the device announced.
    case certificateNotAnnounced(device: String, announced: String, presented: String)
    case pinRequired(device: String)
    case pinWrong(device: String)
    case busy(device: String)
    case tooManyAttempts(device: String)
    /// An HTTP status the protocol does not give that step.
    case answered(device: String, status: Int)
    case cancelledThere(device: String)
    /// Nothing answers at the address it announced (the app closed, the phone asleep).
    case noAnswer(device: String, PeerAddress)
    case badAnswer(device: String)
    case noRequest(id: String)
}
