import ActShareCore
import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// The words of a ``TransferError`` and its exit code (``WordedError``): a sentence each, lower
/// case, saying what to do where there is something to do.
extension TransferError: WordedError {
    var phrase: Phrase {
        switch self {
        case .brokeOff(let device, let sent, let total, let why):
            return "the send to \(device) broke off after \(ByteCount.describe(sent)) of \(ByteCount.describe(total)) (\(why)); the rest goes by itself when \(device) is back"
        case .cannotStat(let path, let code):
            return "\(path): \(HandoffError.words(code))"
        case .twoItemsNamed(let name):
            return "two items are named \(name): send them one at a time"
        case .tooManyToSend(let limit):
            return "more than \(limit) files and folders in one transfer: send fewer at a time"
        case .unreadable(let path, let code):
            return "\(path) cannot be read: \(HandoffError.words(code))"
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
            return "\(path) cannot be read: \(HandoffError.words(code)); the send is stopped"
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
            return "cannot write \(path) on \(receiver): \(HandoffError.words(code))"
        case .diskWriteFailed(let receiver, let path, let code):
            if code == ENOSPC { return "\(receiver) could not write \(path): its disk is full" }
            return "\(receiver) could not write \(path): \(HandoffError.words(code))"
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
        case .declinedFiles(let device):
            return "\(device) declined the files"
        case .cancelledBySender(let sender):
            return "cancelled by \(sender)"
        case .receivingFailed:
            return "the transfer broke off"
        }
    }

    /// The exit code the CLI ends with (``HandoffFailureCode``, docs/CLI.md): every case by
    /// name, so that a new one is the compiler's question.
    var exitCode: HandoffFailureCode {
        switch self {
        case .brokeOff, .sourceShrank, .sourceUnreadableAgain, .receiverClosed, .filesRefused, .transferStopped, .filesNotKept,
             .notEveryDeviceGotFiles, .queueFull, .cannotQueue, .noTransferID, .emptyOffer, .tooManyOffered, .offeredTooDeep,
             .fileBeforeFolder, .emptyName, .tooManyOfOneName, .sizesOverflow, .diskFull, .receiveFolderUnusable, .receiverCannot,
             .cannotWrite, .diskWriteFailed, .noFreeName, .unexpectedFrame, .resumeWithoutPart, .moreBytesThanOffered,
             .fewerBytesThanOffered, .arrivedDamaged, .largeFrame, .declinedFiles, .cancelledBySender, .receivingFailed:
            return .failed
        case .cannotStat, .twoItemsNamed, .tooManyToSend, .unreadable, .nestedTooDeep, .linkInFolder, .notAnItemOfTheProvider,
             .linkNotFollowedForProvider, .notFileOrFolder, .nothingToSend, .sourceGone, .sourceNotRegular, .sourceReplaced, .noQueuedSend:
            return .badInput
        case .cancelled:
            return .cancelled
        }
    }
}
