/// What can go wrong sending files (``LocalTree``, ``TransferSender``, ``TransferService``,
/// ``TransferQueue``) and receiving them (``TransferReceiver``; `receiver` is this device's name).
///
/// A case and its facts, never a sentence: the words and the exit code are
/// `TransferError+Words.swift`'s. Text from a peer has been through ``Daemon/quoted(_:)``.
enum TransferError: Error, Sendable {
    /// The connection broke while files went to `device`: `sent` of `total` bytes had gone
    /// (the receiver keeps them), `why` in words. The send waits in the queue.
    case brokeOff(device: String, sent: UInt64, total: UInt64, why: String)
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
    /// The sender cancelled the transfer under way.
    case cancelledBySender(sender: String)
    /// Receiving failed for a reason not told to the sender (this machine's own).
    case receivingFailed
    /// A LocalSend device or a phone declined the files.
    case declinedFiles(device: String)
}
