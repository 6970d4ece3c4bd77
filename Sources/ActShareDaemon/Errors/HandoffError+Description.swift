import ActShareCore
import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// The one place a ``HandoffError`` becomes words: what the CLI prints after
/// "actshare: " (in the person's language: the control protocol carries the phrase), the
/// sheet and the daemon's log show, and a peer reads in an `error` frame (in English). A
/// sentence each, lower case, saying what to do where there is something to do.
extension HandoffError: CustomStringConvertible {
    var description: String { phrase.description }

    var phrase: Phrase {
        switch self {
        case .noAnswer(let address):
            return "nothing answers at \(address) (is `actshare daemon` running there, on that port?)"
        case .connectionFailed(let address, let code):
            return "nothing answers at \(address): \(Self.words(code))"
        case .timedOut(let address):
            return "\(address) did not answer in time"
        case .frameTooLarge(let address):
            return "\(address) sent a message larger than 1 MiB, which is refused"
        case .refusedThisDevice(let address):
            return "\(address) refused this device (it is no longer paired with it, or another device answers there)"
        case .notWaitingToPair(let address):
            return "\(address) refused to pair: it is not waiting for a pairing (run `actshare handoff pair --wait` there first)"
        case .closedConnection(let address):
            return "\(address) closed the connection"
        case .brokeOff(let device, let sent, let total, let why):
            return "the send to \(device) broke off after \(ByteCount.describe(sent)) of \(ByteCount.describe(total)) (\(why)); the rest goes by itself when \(device) is back"
        case .peerFailure(let address, let what):
            return "\(address): \(what)"
        case .unreachable(let device):
            return "\(device) is not reachable"
        case .deviceUnreachable(let device, let why):
            return "\(device) is not reachable: \(why)"

        case .noDevicePaired:
            return "no device is paired: pair one with `actshare handoff pair`"
        case .severalDevicesPaired(let howToChoose):
            return "several devices are paired: \(howToChoose)"
        case .noDeviceNamed(let name):
            return "no paired device is called \(name)"
        case .noDeviceOrPhoneNamed(let name):
            return "no paired device, LocalSend device or phone showing its Quick Share is called \(name). A phone shows here only while its Quick Share looks for receivers, which this device cannot start (that takes Bluetooth): send with `actshare handoff send --qr` and scan the code with the phone instead"
        case .deviceNotPaired(let name):
            return "\(name) is nearby but not paired: pair it first, with `actshare handoff pair \(ShellWord.quoted(name))` here and `actshare handoff pair --wait` on \(name)"
        case .noDeviceWithID(let id):
            return "no paired device has the id \(id)"

        case .pairingNotAnswered(let address):
            return "\(address) refused to pair (is `actshare handoff pair --wait` running there?)"
        case .pairingRefused(let address, let reason):
            return reason.map { "\(address) refused to pair: \($0)" } ?? "\(address) refused to pair: not waiting for a pairing"
        case .tooManyPairingAttempts:
            return "too many pairing attempts: wait ten seconds"
        case .refusedNameOrPort(let address):
            return "\(address) gave a name or port that is refused (control characters, or too long)"
        case .leftBeforeConfirming(let device):
            return "\(device) went away before confirming"
        case .unexpectedDevice(let name, let id, let expected):
            return "\(name) (\(id)) asked to pair, not the expected device \(expected ?? ""): refused"
        case .pairingAlreadyWaiting:
            return "another pairing is already waiting"
        case .noPairingRequest(let seconds):
            return "no device asked to pair within \(seconds) s"
        case .pairingCancelled:
            return "the pairing was cancelled"
        case .pairingUnanswered:
            return "the pairing ended without an answer"
        case .anonymousPairingRequest:
            return "a device asked to pair without saying who it is"
        case .refusedPairingNameOrPort:
            return "a device asked to pair with a name or port that is refused (control characters, or too long)"
        case .brokenCommitment(let device):
            return "\(device) broke its commitment: the pairing is refused"
        case .pairingDeclinedHere(let device):
            return "pairing with \(device) declined here"
        case .pairingDeclinedThere(let device):
            return "pairing declined on \(device)"
        case .cannotPair(let why):
            return "cannot pair: \(why)"
        case .ambiguousNearbyName(let name, let ids):
            return "several devices nearby are called \(name): pair by id (\(ids.joined(separator: ", ")))"

        case .alreadyRunning(let socket):
            return "another actshare daemon is running for this user (its control socket \(socket) answers)"
        case .cannotListen(let address, let port, let reason):
            return "cannot listen for peers on \(address) port \(port): \(reason) (another actshare daemon? give it another --port)"
        case .tooManyPairedConnections:
            return "too many connections of paired devices"
        case .sandboxedCaller(let pid):
            return "actshare's daemon does not act for a sandboxed process (pid \(pid)): a provider hands off only through the connection actshare opens for it (permissions: handoff: true)"
        case .notAControlRequest:
            return "not a control request"
        case .badControlRequest(let message):
            return Phrase(verbatim: message)
        case .restrictedAlready:
            return "this connection is restricted already"
        case .notAllowedWhenRestricted(let operation):
            return "this connection may only hand off the items actshare gave the provider, to a paired device (\(operation) is not allowed)"
        case .notTrustedForProvider(let device):
            return "a provider may hand off only to a paired device, or to a LocalSend device pinned with \"always\" (handoff accept --always): \(device) is neither"
        case .notExpectedHere(let operation):
            return "\(operation) is not expected here"
        case .updateWithoutWillSave:
            return "update answers a will-save event"
        case .continuedNeedsDevice:
            return "continued needs a device"
        case .discoveryOff:
            return "discovery is off here (config handoff.discovery: static, or the daemon's log says why)"

        case .activityRefused(let problem):
            return "the activity is refused: \(problem)"
        case .noCurrentActivity(let id):
            return "no current activity has the id \(id)"
        case .noRemoteActivity(let id):
            return id.map { "no paired device has the activity \($0)" } ?? "no paired device has a current activity"
        case .nothingToContinue(let id):
            return "\(id) carries nothing to continue"
        case .originNoLongerPaired(let id):
            return "the device of \(id) is no longer paired"
        case .didNotSendActivity(let device, let reason):
            return reason.map { Phrase(verbatim: $0) } ?? "\(device) did not send the activity"
        case .sentAnotherActivity(let device, let id):
            return "\(device) sent another activity than \(id)"
        case .sentRefusedActivity(let device, let problem):
            return "\(device) sent an activity that is refused: \(problem)"
        case .cannotHandOff(let problem):
            return "cannot hand it off: \(problem)"
        case .handOffRefused(let device, let reason):
            return reason.map { "\(device) refused it: \($0)" } ?? "\(device) refused it: no reason given"
        case .handlerOfAnotherTeam(let handler, let type, let handlerTeam, let activityTeam):
            return "\(handler) continues \(type), but for \(Self.team(handlerTeam)), not \(Self.team(activityTeam)) as the activity says"
        case .activityTooNew(let type, let version, let handler, let maxVersion):
            return "\(type) version \(version) is newer than \(handler) accepts (max-version \(maxVersion))"
        case .noHandler(let type, let team):
            return team.map { "no application here continues \(type) (team \($0))" } ?? "no application here continues \(type)"

        case .cannotStat(let path, let code):
            return "\(path): \(Self.words(code))"
        case .twoItemsNamed(let name):
            return "two items are named \(name): send them one at a time"
        case .tooManyToSend(let limit):
            return "more than \(limit) files and folders in one transfer: send fewer at a time"
        case .unreadable(let path, let code):
            return "\(path) cannot be read: \(Self.words(code))"
        case .nestedTooDeep(let path, let limit):
            return "\(path) is nested more than \(limit) folders deep"
        case .linkInFolder(let path):
            return "\(path) is a symbolic link: links inside a folder are not sent (send what it points to by name)"
        case .notAnItemOfTheProvider(let path):
            return "this connection may only hand off the items actshare gave the provider (\(path) is not one of them)"
        case .linkNotFollowedForProvider(let path):
            return "\(path) is, or passes through, a symbolic link: a provider's send follows none"
        case .notFileOrFolder(let path, let kind):
            return "\(path) is \(kind): only files and folders are sent"
        case .nothingToSend:
            return "nothing to send"
        case .sourceGone(let path, let code):
            if code == ELOOP { return "\(path) cannot be read: it is a link now; the send is stopped" }
            return "\(path) cannot be read: \(Self.words(code)); the send is stopped"
        case .sourceNotRegular(let path):
            return "\(path) is no longer a regular file"
        case .sourceReplaced(let path):
            return "\(path) was replaced by another file while the files were sent; the send is stopped"
        case .sourceShrank(let path):
            return "\(path) became shorter while it was sent"
        case .sourceUnreadableAgain(let path):
            return "\(path) cannot be read again"
        case .receiverClosed(let device):
            return "\(device) closed the connection"
        case .filesRefused(let device, let reason):
            return reason.map { "\(device) refused the files: \($0)" } ?? "\(device) refused the files: no reason given"
        case .transferStopped(let device, let reason):
            return reason.map { "\(device) stopped the transfer: \($0)" } ?? "\(device) stopped the transfer: no reason given"
        case .filesNotKept(let device, let reason):
            return reason.map { "\(device) did not keep the files: \($0)" } ?? "\(device) did not keep the files: no reason given"
        case .cancelled:
            return "cancelled"
        case .notEveryDeviceGotFiles:
            return "not every device got the files"
        case .queueFull(let limit):
            return "\(limit) sends already wait: cancel some (`actshare handoff queue --cancel ID`)"
        case .noQueuedSend(let id):
            return "no queued send has the id \(id)"
        case .cannotQueue(let folder):
            return "cannot copy the files to wait in \(folder)"

        case .noTransferID:
            return "the transfer has no valid id"
        case .emptyOffer:
            return "the transfer offers nothing"
        case .tooManyOffered(let limit):
            return "more than \(limit) files and folders in one transfer"
        case .offeredTooDeep(let prefix, let limit):
            return "\(prefix)… is nested more than \(limit) folders deep"
        case .fileBeforeFolder:
            return "a file is offered before its folder"
        case .emptyName:
            return "an empty name is offered"
        case .tooManyOfOneName:
            return "too many files of one name are offered"
        case .sizesOverflow:
            return "the sizes offered add up to more than a disk holds"
        case .diskFull(let receiver, let needed, let free, let reserve):
            return needed > free
                ? "the disk of \(receiver) is too full: \(ByteCount.describe(needed)) needed, \(ByteCount.describe(free)) free"
                : "the disk of \(receiver) would be too full: \(ByteCount.describe(free)) free, and after the \(ByteCount.describe(needed)) less than the \(ByteCount.describe(reserve)) it keeps free"
        case .receiveFolderUnusable(let receiver):
            return "\(receiver) cannot receive files: its receive folder cannot be used"
        case .receiverCannot(let receiver, let what, let reason):
            return "\(receiver) \(what): \(reason)"
        case .cannotWrite(let path, let receiver, let code):
            return "cannot write \(path) on \(receiver): \(Self.words(code))"
        case .diskWriteFailed(let receiver, let path, let code):
            if code == ENOSPC { return "\(receiver) could not write \(path): its disk is full" }
            return "\(receiver) could not write \(path): \(Self.words(code))"
        case .noFreeName(let path, let receiver):
            return "no free name for \(path) on \(receiver)"
        case .unexpectedFrame(let sender):
            return "\(sender) sent something else than the next file"
        case .resumeWithoutPart(let sender, let path):
            return "\(sender) asked to resume \(path) where nothing was kept"
        case .moreBytesThanOffered(let sender, let path):
            return "\(sender) sent more bytes of \(path) than it offered"
        case .fewerBytesThanOffered(let sender, let path):
            return "\(sender) sent fewer bytes of \(path) than it offered"
        case .arrivedDamaged(let path):
            return "\(path) arrived damaged: its SHA-256 differs"
        case .largeFrame:
            return "a frame larger than 1 MiB was sent"

        case .clipboardOff:
            return "the Universal Clipboard is off here (config handoff.clipboard: manual or auto turns it on)"
        case .clipboardUnreachable(let why):
            return "this device's clipboard cannot be reached: \(why)"
        case .clipboardEmpty:
            return "the clipboard is empty: copy something first"
        case .clipboardSecret:
            return "the clipboard holds a password (a password manager marked it): it is never sent"
        case .clipboardTooLarge(let total, let maximum):
            return "the clipboard holds \(ByteCount.describe(total)), more than clipboard-max (\(ByteCount.describe(maximum))): send it as a file (actshare handoff send)"
        case .clipboardNotAnswered:
            return "the application that owns the clipboard did not answer"
        case .clipboardNotTaken(let devices):
            return devices.isEmpty ? "no paired device took the clipboard" : "no paired device took the clipboard (\(devices.joined(separator: "; ")))"
        case .clipboardOfferRefused(let why):
            return "refused: \(why)"
        case .clipboardOffOn(let device):
            return "the Universal Clipboard is off on \(device)"

        case .quickShareOff:
            return "Quick Share is off here (config handoff.quickshare: on turns it on)"
        case .quickShareNeedsMulticast:
            return "phones cannot see this device: Quick Share is found by multicast DNS, and discovery is static here (config handoff.discovery)"
        case .quickShareSendingOff:
            return "sending to phones with Quick Share is off here (config handoff.quickshare: receive-only)"
        case .quickShareFilesOnly:
            return "Quick Share sends files, not folders: send the files themselves"
        case .quickShareFailed(let device, let why):
            return "the files did not reach \(device): \(why)"
        case .quickShareNotScanned(let seconds):
            return "no phone scanned the QR code within \(seconds) seconds: nothing was sent"
        case .quickShareCodesWaiting(let limit):
            return "\(limit) QR codes already wait for their phones: scan one, or let them lapse (2 minutes), first"
        case .localSendOff:
            return "LocalSend is off here (config handoff.localsend: on turns it on)"
        case .localSendSendingOff:
            return "sending to LocalSend devices is off here (config handoff.localsend: receive-only)"
        case .localSendCertificateChanged(let device, let pinned, let announced):
            return "\(device) announces another certificate than the one pinned for it: pinned \(pinned), now \(announced). Another device may be posing as it. If \(device) was reset or its app reinstalled, forget the old one (actshare handoff unpair '\(device)') and send again"
        case .localSendCertificateNotAnnounced(let device, let announced, let presented):
            return "\(device) presented another certificate than the one it announced (announced \(announced), presented \(presented)): nothing was sent"
        case .localSendPinRequired(let device):
            return "\(device) asks for a PIN: give the one it shows with --pin"
        case .localSendPinWrong(let device):
            return "\(device) refused the PIN: give the one it shows with --pin"
        case .declinedFiles(let device):
            return "\(device) declined the files"
        case .localSendBusy(let device):
            return "\(device) is busy with another transfer: try again when it is done"
        case .localSendTooManyAttempts(let device):
            return "\(device) refuses for now after too many attempts: wait a minute"
        case .localSendAnswered(let device, let status):
            return "\(device) answered with HTTP status \(status)"
        case .localSendCancelledThere(let device):
            return "\(device) cancelled the transfer"
        case .localSendNoAnswer(let device, let address):
            return "\(device) does not answer at \(address.host):\(address.port): is LocalSend open on it, and the device awake?"
        case .noLocalSendRequest(let id):
            return "no LocalSend device waits for an answer under \(id) (actshare handoff requests lists those that do)"
        case .localSendBadAnswer(let device):
            return "\(device) answered with something that is not LocalSend's answer"

        case .other(let words):
            return Phrase(verbatim: words)
        }
    }

    /// "team ID", or "no team".
    private static func team(_ id: String?) -> Phrase {
        id.map { "team \($0)" } ?? "no team"
    }

    /// The system's words for `errno`.
    static func words(_ code: Int32) -> String { String(cString: strerror(code)) }
}

extension Phrase.StringInterpolation {
    /// An error inside an error's words is said in the same language.
    mutating func appendInterpolation(_ error: HandoffError) {
        appendInterpolation(error.phrase)
    }
}
