extension PeerMessage {
    /// An `error` frame: what this device refuses or failed, in the words of its error
    /// (English: the peer shows them as they are).
    static func error(_ error: HandoffError) -> PeerMessage {
        PeerMessage(.error, message: error.description)
    }
}
