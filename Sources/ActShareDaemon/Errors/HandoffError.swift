/// Everything that can go wrong in the handoff daemon, as values a caller can switch on.
///
/// The contract, which every part keeps:
/// - A part throws (or answers with) a case and its facts, never a sentence. The words a
///   person reads are made in one place, `HandoffError+Description.swift`; the exit code
///   and the control protocol's `error` in another, `HandoffError+Response.swift`.
/// - Text that came from a peer (`reason:`) has been through ``Daemon/quoted(_:)`` before
///   it is put in a case; paths and names from this machine are put as they are.
/// - A library's error (SwiftNIO, NIOSSL, the system) does not leave the part that met
///   it: ``init(_:reaching:pairing:)`` turns it into a case that says what it means for
///   the user.
///
/// Cases are grouped by the part that raises them; a new failure is a new case, worded
/// and coded in those two files.
enum HandoffError: Error, Sendable {
    // MARK: Reaching another daemon (PeerLink, PeerDirectory)

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
    /// The connection broke while files went to `device`: `sent` of `total` bytes had gone
    /// (the receiver keeps them), `why` in words. The send waits in the queue.
    case brokeOff(device: String, sent: UInt64, total: UInt64, why: String)
    /// Anything else a library said while reaching `PeerAddress`.
    case peerFailure(PeerAddress, String)
    /// None of a device's addresses answered, for no more particular reason.
    case unreachable(device: String)
    /// `device` could not be reached, and why.
    indirect case deviceUnreachable(device: String, HandoffError)

    // MARK: Choosing devices (PeerDirectory)

    case noDevicePaired
    /// Several are paired and none was named; `howToChoose` is the option to use.
    case severalDevicesPaired(howToChoose: String)
    case noDeviceNamed(String)
    /// No paired device, LocalSend device or advertising phone has the name (Quick Share on).
    case noDeviceOrPhoneNamed(String)
    /// No paired device has this name, but a device nearby does: it can be paired.
    case deviceNotPaired(String)
    case noDeviceWithID(String)

    // MARK: Pairing (PairingFlow)

    case pairingNotAnswered(PeerAddress)
    case pairingRefused(PeerAddress, reason: String?)
    case tooManyPairingAttempts
    case refusedNameOrPort(PeerAddress)
    case leftBeforeConfirming(device: String)
    case unexpectedDevice(name: String, id: String, expected: String?)
    case pairingAlreadyWaiting
    case noPairingRequest(seconds: Int)
    case pairingCancelled
    case pairingUnanswered
    case anonymousPairingRequest
    case refusedPairingNameOrPort
    case brokenCommitment(device: String)
    case pairingDeclinedHere(device: String)
    case pairingDeclinedThere(device: String)
    case ambiguousNearbyName(String, ids: [String])
    /// Pairing with a device failed on the way, and why.
    indirect case cannotPair(HandoffError)

    // MARK: The daemon and its sockets (Daemon, ControlServer, PeerServer)

    case alreadyRunning(controlSocket: String)
    case cannotListen(address: String, port: Int, reason: String)
    case tooManyPairedConnections
    case sandboxedCaller(pid: Int32)
    case notAControlRequest
    case badControlRequest(String)
    case restrictedAlready
    case notAllowedWhenRestricted(operation: String)
    /// A restricted connection named a device it may not send to: not paired, nor a
    /// LocalSend device the user pinned with "always".
    case notTrustedForProvider(device: String)
    case notExpectedHere(operation: String)
    case updateWithoutWillSave
    case continuedNeedsDevice
    case discoveryOff

    // MARK: Activities (ActivityRelay, HandlerManifest)

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

    // MARK: Sending files (LocalTree, TransferSender, TransferService, TransferQueue)

    case cannotStat(path: String, errno: Int32)
    case twoItemsNamed(String)
    case tooManyToSend(limit: Int)
    case unreadable(path: String, errno: Int32)
    case nestedTooDeep(path: String, limit: Int)
    case linkInFolder(path: String)
    /// A restricted connection's path is not one of its items, nor beneath one.
    case notAnItemOfTheProvider(path: String)
    /// A restricted connection's path leads through a link.
    case linkNotFollowedForProvider(path: String)
    case notFileOrFolder(path: String, kind: String)
    case nothingToSend
    case sourceGone(path: String, errno: Int32)
    case sourceNotRegular(path: String)
    case sourceReplaced(path: String)
    case sourceShrank(path: String)
    case sourceUnreadableAgain(path: String)
    case receiverClosed(device: String)
    case filesRefused(device: String, reason: String?)
    case transferStopped(device: String, reason: String?)
    case filesNotKept(device: String, reason: String?)
    case cancelled
    case notEveryDeviceGotFiles
    case queueFull(limit: Int)
    case noQueuedSend(id: String)
    case cannotQueue(folder: String)

    // MARK: Receiving files (TransferReceiver); `receiver` is this device's name

    case noTransferID
    case emptyOffer
    case tooManyOffered(limit: Int)
    case offeredTooDeep(pathPrefix: String, limit: Int)
    case fileBeforeFolder
    case emptyName
    case tooManyOfOneName
    case sizesOverflow
    /// The files and the room kept free (``TransferReceiver/reserve(for:)``) do not fit.
    case diskFull(receiver: String, needed: UInt64, free: UInt64, reserve: UInt64)
    case receiveFolderUnusable(receiver: String)
    /// A step on the receiving side failed: `what` ("cannot make its folder"), the reason.
    case receiverCannot(receiver: String, what: String, reason: String)
    case cannotWrite(path: String, receiver: String, errno: Int32)
    case diskWriteFailed(receiver: String, path: String, errno: Int32)
    case noFreeName(path: String, receiver: String)
    case unexpectedFrame(sender: String)
    case resumeWithoutPart(sender: String, path: String)
    case moreBytesThanOffered(sender: String, path: String)
    case fewerBytesThanOffered(sender: String, path: String)
    case arrivedDamaged(path: String)
    case largeFrame

    // MARK: The Universal Clipboard (ClipboardService)

    case clipboardOff
    /// This device's clipboard cannot be reached, and why (no display, the agent ended).
    case clipboardUnreachable(String)
    case clipboardEmpty
    case clipboardSecret
    case clipboardTooLarge(total: UInt64, maximum: UInt64)
    case clipboardNotAnswered
    case clipboardNotTaken(devices: [String])
    /// A peer's offer refused here, and why.
    case clipboardOfferRefused(String)
    case clipboardOffOn(device: String)

    // MARK: Quick Share (QuickShareService)

    /// `handoff.quickshare: off`, or no port could be had.
    case quickShareOff
    /// Visibility needs multicast DNS (`discovery: static` has none).
    case quickShareNeedsMulticast
    /// `handoff.quickshare: receive-only`.
    case quickShareSendingOff
    /// A folder, or a file inside one: Quick Share sends files.
    case quickShareFilesOnly
    /// The connection to the phone failed (why, in the protocol's words).
    case quickShareFailed(device: String, why: String)
    /// No phone advertised that it scanned the QR code shown, within `seconds`.
    case quickShareNotScanned(seconds: Int)
    /// As many QR codes as may wait for their phones already do.
    case quickShareCodesWaiting(limit: Int)
    /// A LocalSend device or a phone declined the files.
    case declinedFiles(device: String)

    // MARK: LocalSend devices (LocalSendService)

    case localSendOff
    /// `handoff.localsend: receive-only`.
    case localSendSendingOff
    /// The device announces another certificate than the one pinned for its name.
    case localSendCertificateChanged(device: String, pinned: String, announced: String)
    /// The certificate presented is not the one the device announced.
    case localSendCertificateNotAnnounced(device: String, announced: String, presented: String)
    case localSendPinRequired(device: String)
    case localSendPinWrong(device: String)
    case localSendBusy(device: String)
    case localSendTooManyAttempts(device: String)
    /// An HTTP status the protocol does not give that step.
    case localSendAnswered(device: String, status: Int)
    case localSendCancelledThere(device: String)
    /// Nothing answers at the address it announced (the app closed, the phone asleep).
    case localSendNoAnswer(device: String, PeerAddress)
    case localSendBadAnswer(device: String)
    case noLocalSendRequest(id: String)

    // MARK: Other components

    /// Another component's error in its own words (ActShareError, a system call's).
    case other(String)
}

extension HandoffError {
    /// Whether the connection itself failed (it went, it broke, it was cut, nothing more
    /// came), rather than the other side refusing: a send that fails so is worth resuming.
    var isBrokenLink: Bool {
        switch self {
        case .noAnswer, .connectionFailed, .timedOut, .closedConnection, .peerFailure, .receiverClosed: return true
        default: return false
        }
    }
}
