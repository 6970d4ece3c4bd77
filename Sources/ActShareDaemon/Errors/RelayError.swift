/// What can go wrong with activities between the paired devices (``ActivityRelay``,
/// ``HandlerManifest``).
///
/// A case and its facts, never a sentence: the words and the exit code are
/// `RelayError+Words.swift`'s. Text from a peer has been through ``Daemon/quoted(_:)``.
enum RelayError: Error, Sendable {
    case activityRefused(problem: String)
    case noCurrentActivity(id: String)
    case noRemoteActivity(id: String?)
    case nothingToContinue(id: String)
    case originNoLongerPaired(id: String)
    case didNotSendActivity(device: String, reason: String?)
    case sentAnotherActivity(device: String, id: String)
    case sentRefusedActivity(device: String, problem: String)
    case cannotHandOff(problem: String)
    case handOffRefused(device: String, reason: String?)
    case handlerOfAnotherTeam(handler: String, type: String, handlerTeam: String?, activityTeam: String?)
    case activityTooNew(type: String, version: Int, handler: String, maxVersion: Int)
    case noHandler(type: String, team: String?)

    // What this device answers a paired device (``ActivityRelay``'s peer side).

    /// Handed off: an activity that is neither a URL nor text.
    case onlyURLsAndTextHandedOff
    /// Handed off: a URL that is not http or https.
    case notAWebURL
    /// Handed off: text without its text.
    case noHandedOffText
    /// Fetched or continued: an id that is no current activity here (not echoed: it is the peer's).
    case noSuchActivity
}
