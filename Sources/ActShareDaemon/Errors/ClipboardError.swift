/// What can go wrong with the Universal Clipboard (``ClipboardService``).
///
/// A case and its facts, never a sentence: the words and the exit code are
/// `ClipboardError+Words.swift`'s. Text from a peer has been through ``Daemon/quoted(_:)``.
enum ClipboardError: Error, Sendable {
    case off
    /// This device's clipboard cannot be reached, and why (no display, the agent ended).
    case unreachable(String)
    case empty
    case secret
    case tooLarge(total: UInt64, maximum: UInt64)
    case notAnswered
    case notTaken(devices: [String])
    /// A peer's offer refused here, and why.
    case offerRefused(String)
    case offOn(device: String)

    // What this device answers a paired device (``ClipboardService``'s peer side).

    /// An offer message without its offer.
    case noOfferGiven
    /// A fetch of an offer that is not this device's current one (withdrawn or expired).
    case noSuchOffer
    /// The files of an offer that is not this device's current one, or has no files.
    case noSuchOfferOfFiles
}
