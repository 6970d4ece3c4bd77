import ActShareCore
import ActShareCrypto
import ActShareHandoff
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One accepted LocalSend transfer being received: its files planned into a hidden partial
/// folder of the receive directory by ``TransferReceiver``'s rules (safe names, nothing
/// over a file already there, no link followed, modes at most 0644, the disk's room
/// checked), a token for each, and each file's upload written there. When the last file
/// is whole, the top-level items move to their final names; a cancel, an expiry or a
/// file that arrives short or damaged removes everything.
final class LocalSendSession: Sendable {
    /// A file the device may upload: where it goes, its token and what it promised.
    struct Slot: Sendable {
        var index: Int
        var file: LocalSendFile
        var token: String
    }

    enum Upload: Sendable {
        /// Write `size` bytes to `fd`; check them against `sha256` when given.
        case write(fd: Int32, size: UInt64, sha256: String?)
        /// Already received: nothing to write (LocalSend retries an upload).
        case alreadyHere
    }

    let id: String
    let sender: String
    let senderID: String
    let address: String
    /// The request the user accepted (`handoff decline ID` stops it).
    let requestID: String
    let slots: [String: Slot]
    /// An upload must start within this long of the last activity, or the session ends.
    static let idleSeconds = 60.0

    private let receiver: TransferReceiver
    private let planned: [TransferReceiver.Planned]
    private let receiving: FolderDescriptor
    private let partialName: String
    private let partial: FolderDescriptor
    private struct State {
        var done: [Int: Delivery.File] = [:]
        var writing: Set<Int> = []
        var lastActivity = LocalSendDiscovery.now()
        var ended = false
    }
    private let state = Mutex(State())

    /// Plans `files` and makes the partial folder; throws the reason it cannot receive them.
    init(id: String, requestID: String, files: [LocalSendFile], from sender: String, senderID: String, address: String,
         directory: String, ownName: String) throws {
        self.id = id
        self.requestID = requestID
        self.sender = sender
        self.senderID = senderID
        self.address = address
        receiver = TransferReceiver(directory: directory, senderName: sender, senderID: senderID, ownName: ownName)
        let (entries, fileEntry) = try Self.entries(files)
        planned = try TransferReceiver.plan(entries)
        try receiver.checkSpace(for: planned)
        try FileSystem.createDirectories(directory)
        receiving = try receiver.usableReceiveFolder()
        partialName = "\(TransferReceiver.partialPrefix)\(senderID)-\(id)"
        TransferReceiver.keepFewPartials(of: senderID, in: receiving)
        if let error = receiving.makeFolder(partialName, mode: 0o700) { throw receiver.failure("cannot make its folder", error) }
        let receiver = receiver
        partial = try receiving.folder(partialName).mapError { receiver.failure("cannot open its folder", $0) }.get()
        for item in planned where item.entry.kind == .folder {
            _ = try partial.folder(item.relative, creating: 0o700).mapError { receiver.failure("cannot make \(item.relative)", $0) }.get()
        }
        var slots: [String: Slot] = [:]
        for file in files {
            slots[file.id] = Slot(index: fileEntry[file.id]!, file: file, token: LocalSendSession.randomToken())
        }
        self.slots = slots
    }

    /// Refuses what cannot be received at all (names that cannot be made safe, more than
    /// the disk holds), before the user is asked.
    static func check(_ files: [LocalSendFile], from sender: String, directory: String, ownName: String) throws {
        let receiver = TransferReceiver(directory: directory, senderName: sender, senderID: "", ownName: ownName)
        try receiver.checkSpace(for: try TransferReceiver.plan(try entries(files).entries))
    }

    /// The files as a transfer's entries, folders first, each once; where each file is.
    private static func entries(_ files: [LocalSendFile]) throws -> (entries: [TransferEntry], index: [String: Int]) {
        var entries: [TransferEntry] = [], folders = Set<String>(), fileEntry: [String: Int] = [:]
        for file in files.sorted(by: { $0.fileName < $1.fileName }) {
            let parts = file.fileName.split(separator: "/", omittingEmptySubsequences: true)
            guard !parts.isEmpty else { throw HandoffError.transfer(.emptyName) }
            for depth in 1..<parts.count {
                let folder = parts[..<depth].joined(separator: "/")
                if folders.insert(folder).inserted { entries.append(TransferEntry(path: folder, kind: .folder, size: 0, mode: 0o755)) }
            }
            fileEntry[file.id] = entries.count
            entries.append(TransferEntry(path: parts.joined(separator: "/"), kind: .file, size: file.size, mode: 0o644))
        }
        return (entries, fileEntry)
    }

    /// A token of 128 random bits, in hex.
    static func randomToken() -> String { Hex.string(RandomBytes.make(16)) }

    /// Whether nothing happened for ``idleSeconds``, or it ended.
    /// Whether it was cancelled, expired or finished: an upload under way stops.
    var hasEnded: Bool { state.withLock { $0.ended } }

    var isStale: Bool { state.withLock { $0.ended || LocalSendDiscovery.now() - $0.lastActivity > Self.idleSeconds } }

    /// Opens the file of `fileID` for its upload, if `token` is its own (compared in
    /// constant time) and it is neither done nor being written.
    func beginUpload(_ fileID: String, token: String) throws(LocalSendSessionError) -> Upload {
        guard let slot = slots[fileID], Self.same(token, slot.token) else { throw .forbidden }
        try state.withLock { state throws(LocalSendSessionError) in
            guard !state.ended else { throw .forbidden }
            guard !state.writing.contains(slot.index) else { throw .busy }
            state.lastActivity = LocalSendDiscovery.now()
            if state.done[slot.index] == nil { state.writing.insert(slot.index) }
        }
        if state.withLock({ $0.done[slot.index] != nil }) { return .alreadyHere }
        let relative = planned[slot.index].relative
        guard case .success(let folder) = partial.folder(TransferReceiver.parent(of: relative)) else {
            state.withLock { _ = $0.writing.remove(slot.index) }
            throw .cannotWrite
        }
        let fd = folder.openFile(FileSystem.baseName(relative), flags: O_WRONLY | O_CREAT | O_TRUNC)
        guard fd >= 0 else {
            state.withLock { _ = $0.writing.remove(slot.index) }
            throw .cannotWrite
        }
        return .write(fd: fd, size: slot.file.size, sha256: slot.file.sha256)
    }

    /// The upload of `fileID` ended: whole with this SHA-256, or not (nil: removed, to be
    /// sent again). When every file is whole, they are placed; what arrived is returned.
    func endUpload(_ fileID: String, sha256: String?) throws -> ReceivedTransfer? {
        guard let slot = slots[fileID] else { return nil }
        let relative = planned[slot.index].relative
        let complete: Bool = state.withLock { state in
            state.writing.remove(slot.index)
            state.lastActivity = LocalSendDiscovery.now()
            if let sha256 { state.done[slot.index] = Delivery.File(name: relative, bytes: slot.file.size, sha256: sha256) }
            guard state.done.count == slots.count, !state.ended else { return false }
            state.ended = true
            return true
        }
        if sha256 == nil, case .success(let folder) = partial.folder(TransferReceiver.parent(of: relative)) {
            folder.remove(FileSystem.baseName(relative))
        }
        guard complete else { return nil }
        for item in planned.reversed() where item.entry.kind == .folder {
            if case .success(let folder) = partial.folder(item.relative) { folder.setMode(TransferReceiver.folderMode(item.entry.mode)) }
        }
        do {
            let placed = try receiver.place(planned, from: partial, into: receiving)
            receiving.remove(partialName)
            var moved: [String: String] = [:]
            for (item, path) in zip(planned.filter { !$0.relative.contains("/") }, placed) { moved[item.relative] = path }
            let files = state.withLock { $0.done.values.sorted { $0.name < $1.name } }.map { file -> Delivery.File in
                var file = file
                let top = String(file.name.prefix { $0 != "/" })
                if let path = moved[top] { file.name = path + file.name.dropFirst(top.count) }
                return file
            }
            return ReceivedTransfer(from: sender, fromID: senderID, when: Double(time(nil)), paths: placed, files: files)
        } catch {
            receiving.remove(partialName)
            throw error
        }
    }

    /// Cancelled, expired or failed: nothing of it stays.
    func discard() {
        state.withLock { $0.ended = true }
        receiving.remove(partialName)
    }

    /// `a == b` in time that does not depend on where they differ.
    private static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
