/// What can go wrong with Quick Share (``QuickShareService``).
///
/// A case and its facts, never a sentence: the words and the exit code are
/// `QuickShareServiceError+Words.swift`'s. Text from a peer has been through ``Daemon/quoted(_:)``.
enum QuickShareServiceError: Error, Sendable {
    /// `handoff.quickshare: off`, or no port could be had.
    case off
    /// Visibility needs multicast DNS (`discovery: static` has none).
    case needsMulticast
    /// `handoff.quickshare: receive-only`.
    case sendingOff
    /// A folder, or a file inside one: Quick Share sends files.
    case filesOnly
    /// The connection to the phone failed (why, in the protocol's words).
    case failed(device: String, why: String)
    /// No phone advertised that it scanned the QR code shown, within `seconds`.
    case notScanned(seconds: Int)
    /// As many QR codes as may wait for their phones already do.
    case codesWaiting(limit: Int)
}
