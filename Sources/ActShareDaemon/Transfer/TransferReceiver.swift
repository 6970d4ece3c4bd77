import ActShareCore
import ActShareCrypto
import ActShareHandoff
import CActShareSystem
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Receives one transfer from a paired device into the receive directory.
///
/// Everything lands first in a hidden folder of its own, `.actshare-partial-DEVICE-ID`, and each
/// top-level file or folder is moved to its final name only when every file in it is
/// complete and its SHA-256 checked, with `renameat2(RENAME_NOREPLACE)`: nothing partial
/// is ever seen under a final name, and nothing there is ever replaced (`a (1).txt`).
/// Names are made safe with ``ReceivedName``; only files and folders are made, never
/// links; nothing received is opened or run. Every file operation goes through a folder's
/// descriptor with `O_NOFOLLOW` (``FolderDescriptor``), so a link swapped in mid-transfer
/// is refused, not followed; modes are masked (``fileMode(_:)``); the receive directory
/// must be the user's own folder, not a link, at each transfer. A transfer cancelled or refused leaves
/// nothing; one cut off leaves its hidden folder, and the same files sent again go on
/// from there (see ``TransferPart``), until ``removeStale(in:olderThan:)`` removes it.
struct TransferReceiver {
    let directory: String
    /// Who sends: its name, as the user knows it, and its id (a paired device's, or
    /// `ls` and the start of a LocalSend device's certificate fingerprint).
    let senderName: String
    let senderID: String
    /// This device's name, for the messages the sender shows.
    let ownName: String

    /// The most room kept free on the disk beyond what a transfer needs. A transfer keeps
    /// as much again as it brings, up to this: a note may fill a nearly full disk to its
    /// last 2 KB, a film must leave 64 MB (f_bavail already leaves out root's reserve).
    static let spareBytes: UInt64 = 64 << 20

    /// The room a transfer of `total` bytes must leave free.
    static func reserve(for total: UInt64) -> UInt64 { min(total, spareBytes) }

    /// A planned entry: where it goes inside the partial folder.
    struct Planned {
        var entry: TransferEntry
        var relative: String
    }

    /// Receives the transfer `offer` opened, reading its frames; returns what arrived.
    func receive(_ offer: PeerMessage, frames: inout PeerFrames,
                 outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> ReceivedTransfer? {
        let planned: [Planned]
        let receiving: FolderDescriptor
        let partialName: String
        let partial: FolderDescriptor
        var kept: [Int: (part: TransferPart, hasher: SHA256)] = [:]
        do {
            guard let id = offer.transfer, ActivityChecks.isActivityID(id) else { throw HandoffError.transfer(.noTransferID) }
            planned = try Self.plan(offer.entries ?? [])
            try checkSpace(for: planned)
            try FileSystem.createDirectories(directory)
            receiving = try usableReceiveFolder()
            // The same files from the same device: what an interrupted attempt left is kept.
            partialName = "\(Self.partialPrefix)\(senderID)-\(id)"
            let resuming = receiving.status(partialName).map { $0.st_mode & S_IFMT == S_IFDIR } == true
            if !resuming {
                Self.keepFewPartials(of: senderID, in: receiving)
                if let error = receiving.makeFolder(partialName, mode: 0o700) { throw failure("cannot make its folder", error) }
            }
            // Its time says when it was last used, for ``removeStale``.
            receiving.touch(partialName)
            partial = try receiving.folder(partialName).mapError { failure("cannot open its folder", $0) }.get()
            for item in planned where item.entry.kind == .folder {
                _ = try partial.folder(item.relative, creating: 0o700).mapError { failure("cannot make \(item.relative)", $0) }.get()
            }
            // Only an earlier attempt's folder can hold parts.
            for (index, item) in planned.enumerated() where resuming && item.entry.kind == .file {
                if let part = Self.keptPart(item.relative, in: partial, index: index, limit: item.entry.size) { kept[index] = part }
            }
        } catch let failure as HandoffError {
            DaemonLog.line("refused files from \(senderName): \(failure)")
            try await outbound.write(try Wire.encode(PeerMessage.error(failure)))
            return nil
        }
        do {
            try await outbound.write(try Wire.encode(PeerMessage(.transferAccept, have: kept.values.map(\.part).sorted { $0.index < $1.index })))
            var files: [Delivery.File] = []
            var done = Set<Int>()
            var folders = FolderCache(partial)
            let expected = planned.indices.filter { planned[$0].entry.kind == .file }
            while done.count < expected.count {
                let frame = try await Self.next(&frames)
                let begin = try Wire.decode(PeerMessage.self, from: frame)
                if begin.type == .transferCancel { throw Cancelled() }
                guard begin.type == .fileBegin, let index = begin.index, planned.indices.contains(index),
                      planned[index].entry.kind == .file, !done.contains(index) else {
                    throw HandoffError.transfer(.unexpectedFrame(sender: senderName))
                }
                let item = planned[index]
                let offset = begin.offset ?? 0
                guard offset == 0 || offset == kept[index]?.part.bytes else {
                    throw HandoffError.transfer(.resumeWithoutPart(sender: senderName, path: item.entry.path))
                }
                let digest = try await receiveFile(item, into: &folders, from: offset, hasher: offset == 0 ? SHA256() : kept[index]!.hasher,
                                                   frames: &frames)
                let endFrame = try await Self.next(&frames)
                guard let end = try? Wire.decode(PeerMessage.self, from: endFrame), end.type == .fileEnd || end.type == .transferCancel else {
                    throw HandoffError.transfer(.moreBytesThanOffered(sender: senderName, path: item.entry.path))
                }
                if end.type == .transferCancel { throw Cancelled() }
                guard end.index == index, end.sha256 == digest else {
                    // Not kept for a resume either: the same bytes would come again.
                    if case .success(let folder) = partial.folder(Self.parent(of: item.relative)) { folder.remove(FileSystem.baseName(item.relative)) }
                    throw HandoffError.transfer(.arrivedDamaged(path: item.entry.path))
                }
                done.insert(index)
                files.append(Delivery.File(name: item.relative, bytes: item.entry.size, sha256: digest))
            }
            // Folder modes last: a folder without write permission would have kept its files out.
            for item in planned.reversed() where item.entry.kind == .folder {
                let folder = try partial.folder(item.relative).mapError { failure("cannot open \(item.relative)", $0) }.get()
                folder.setMode(Self.folderMode(item.entry.mode))
            }
            let placed = try place(planned, from: partial, into: receiving)
            receiving.remove(partialName)
            try await outbound.write(try Wire.encode(PeerMessage(.transferDone, received: placed.map(FileSystem.baseName))))
            // Each file where it is now: under its top-level item's final name.
            var moved: [String: String] = [:]
            for (item, path) in zip(planned.filter { !$0.relative.contains("/") }, placed) { moved[item.relative] = path }
            let located = files.map { file -> Delivery.File in
                var file = file
                let top = String(file.name.prefix { $0 != "/" })
                if let path = moved[top] { file.name = path + file.name.dropFirst(top.count) }
                return file
            }
            return ReceivedTransfer(from: senderName, fromID: senderID, when: Double(time(nil)), paths: placed, files: located)
        } catch is Interrupted {
            // Kept for the next attempt at the same files, for `handoff.keep-partial` at most.
            DaemonLog.line("the transfer from \(senderName) broke off; what arrived is kept to be resumed")
            return nil
        } catch {
            receiving.remove(partialName)
            // This machine's own failures are not the sender's to read.
            let failure = error is Cancelled ? HandoffError.transfer(.cancelledBySender(sender: senderName)) : error as? HandoffError ?? .transfer(.receivingFailed)
            DaemonLog.line("files from \(senderName) not kept: \(failure)")
            try? await outbound.write(try Wire.encode(PeerMessage.error(failure)))
            return nil
        }
    }

    /// The sender went away without a word (a cut connection, a killed daemon).
    private struct Interrupted: Error {}

    /// The next frame; the connection's end, or its failure (a TLS connection cut without
    /// its close, a reset), is ``Interrupted``: what arrived is kept to be resumed.
    private static func next(_ frames: inout PeerFrames) async throws -> PeerFrame {
        let frame: PeerFrame?
        do {
            frame = try await frames.next()
        } catch is FrameTooLarge {
            throw HandoffError.transfer(.largeFrame)
        } catch {
            throw Interrupted()
        }
        guard let frame else { throw Interrupted() }
        return frame
    }
    /// The sender said it gave up.
    private struct Cancelled: Error {}

    /// The hidden folders transfers are received in: `.actshare-partial-DEVICE-TRANSFER`.
    static let partialPrefix = ".actshare-partial-"
    /// The most interrupted transfers kept from one device: a device that hangs up again
    /// and again cannot fill the disk with them.
    static let partialsPerDevice = 8

    /// Before a new one is made: removes the device's least recently used partial folders
    /// beyond ``partialsPerDevice`` - 1.
    static func keepFewPartials(of deviceID: String, in receiving: FolderDescriptor) {
        let prefix = partialPrefix + deviceID + "-"
        var folders: [(name: String, used: Int)] = []
        for name in receiving.names() where name.hasPrefix(prefix) {
            guard let info = receiving.status(name), info.st_mode & S_IFMT == S_IFDIR else { continue }
            folders.append((name, Int(info.st_mtim.tv_sec)))
        }
        for old in folders.sorted(by: { $0.used < $1.used }).dropLast(partialsPerDevice - 1) { receiving.remove(old.name) }
    }

    /// Removes what interrupted transfers left in `directory` and nobody resumed within
    /// `seconds`.
    static func removeStale(in directory: String, olderThan seconds: Int) {
        guard case .success(let receiving) = FolderDescriptor.open(directory) else { return }
        let now = time(nil)
        for name in receiving.names() where name.hasPrefix(partialPrefix) {
            guard let info = receiving.status(name), info.st_mode & S_IFMT == S_IFDIR, Int(now - info.st_mtim.tv_sec) >= seconds else { continue }
            receiving.remove(name)
            DaemonLog.line("removed what an interrupted transfer left in \(FileSystem.abbreviatingHome(FileSystem.join(directory, name))), unused for \(seconds / 3600) h")
        }
    }

    /// A received file's mode: the sender's bits, less write for others, setuid, setgid and
    /// sticky (at most 0755), and always readable by the user.
    static func fileMode(_ sent: UInt32) -> mode_t { mode_t(sent & 0o755 | 0o400) }

    /// A received folder's mode: the same, and always open to the user (at most 0755).
    static func folderMode(_ sent: UInt32) -> mode_t { mode_t(sent & 0o755 | 0o700) }

    /// The folder of a relative path ("" for a top-level name).
    static func parent(of relative: String) -> String {
        guard let slash = relative.lastIndex(of: "/") else { return "" }
        return String(relative[..<slash])
    }

    /// The receive directory, opened: it must be a folder of this user's, not a link, and
    /// writable by no one else. What is wrong is said in the log; the sender is told that
    /// the folder cannot be used (no path of this machine goes to it).
    func usableReceiveFolder() throws -> FolderDescriptor {
        let problem: String
        switch FolderDescriptor.open(directory) {
        case .success(let folder):
            var info = stat()
            guard fstat(folder.fd, &info) == 0 else { problem = String(cString: strerror(errno)); break }
            if info.st_uid != getuid() {
                problem = "it belongs to another user"
            } else if info.st_mode & 0o002 != 0 {
                problem = "anyone may write in it"
            } else {
                return folder
            }
        case .failure(let error):
            problem = error.code == ELOOP ? "it is a link (give the folder it points to)" : error.words
        }
        DaemonLog.line("refused files from \(senderName): the receive folder \(FileSystem.abbreviatingHome(directory)) cannot be used: \(problem)")
        throw HandoffError.transfer(.receiveFolderUnusable(receiver: ownName))
    }

    /// A failure of the receiving side, with the system's reason.
    func failure(_ what: String, _ error: FolderDescriptor.Errno) -> HandoffError {
        .transfer(.receiverCannot(receiver: ownName, what: what, reason: error.words))
    }

    /// What an earlier attempt left of a file: its bytes (not more than `limit`) and their
    /// SHA-256, with the hasher to go on from.
    private static func keptPart(_ relative: String, in partial: FolderDescriptor, index: Int,
                                 limit: UInt64) -> (part: TransferPart, hasher: SHA256)? {
        guard case .success(let folder) = partial.folder(parent(of: relative)) else { return nil }
        let fd = folder.openFile(FileSystem.baseName(relative), flags: O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0, UInt64(info.st_size) <= limit else { return nil }
        let (hasher, total) = FilePrefixHash.of(fd, limit: limit)
        return (TransferPart(index: index, bytes: total, sha256: Hex.string(hasher.finalize())), hasher)
    }

    /// Each entry's safe path inside the partial folder: every component sanitised (a
    /// top-level one also loses leading dots and dashes) and unique in its folder, parents
    /// before children. Refuses what cannot be made safe.
    static func plan(_ entries: [TransferEntry]) throws -> [Planned] {
        guard !entries.isEmpty else { throw HandoffError.transfer(.emptyOffer) }
        guard entries.count <= LocalTree.maximumEntries else {
            throw HandoffError.transfer(.tooManyOffered(limit: LocalTree.maximumEntries))
        }
        var folders: [String: String] = ["": ""]  // a sent parent path → its safe path
        var names: [String: Set<String>] = [:]    // a safe folder → the names taken in it
        // A safe name → how many times it came: an offer of 20,000 equal names is
        // numbered in one pass, not by trying 1, 2, 3… for each.
        var repeats: [String: Int] = [:]
        var planned: [Planned] = []
        for entry in entries {
            let components = entry.components
            guard components.count <= ReceivedName.maximumDepth else {
                throw HandoffError.transfer(.offeredTooDeep(pathPrefix: String(entry.path.prefix(80)), limit: ReceivedName.maximumDepth))
            }
            let parent = components.dropLast().joined(separator: "/")
            guard let safeParent = folders[parent] else {
                throw HandoffError.transfer(.fileBeforeFolder)
            }
            guard let last = components.last, let name = ReceivedName.sanitised(last, topLevel: components.count == 1) else {
                throw HandoffError.transfer(.emptyName)
            }
            let key = safeParent + "/" + name
            guard let unique = ReceivedName.unique(name, from: repeats[key, default: 0], taken: { names[safeParent, default: []].contains($0) }) else {
                throw HandoffError.transfer(.tooManyOfOneName)
            }
            repeats[key, default: 0] += 1
            names[safeParent, default: []].insert(unique)
            let relative = safeParent.isEmpty ? unique : safeParent + "/" + unique
            if entry.kind == .folder { folders[entry.path] = relative }
            planned.append(Planned(entry: entry, relative: relative))
        }
        return planned
    }

    /// Refuses a transfer the disk cannot hold, in words the sender can act on.
    func checkSpace(for planned: [Planned]) throws {
        var total: UInt64 = 0
        for item in planned {
            let (sum, overflow) = total.addingReportingOverflow(item.entry.size)
            guard !overflow else { throw HandoffError.transfer(.sizesOverflow) }
            total = sum
        }
        var info = statvfs()
        var probe = directory
        while statvfs(probe, &info) != 0, probe != "/" { probe = FileSystem.directoryName(probe) }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        if total > free || free - total < Self.reserve(for: total) {
            throw HandoffError.transfer(.diskFull(receiver: ownName, needed: total, free: free, reserve: Self.reserve(for: total)))
        }
    }

    /// Writes one file's bytes from `offset` (what was kept before it stays), as many as
    /// offered and not one more; returns the SHA-256 of the whole file.
    private func receiveFile(_ item: Planned, into folders: inout FolderCache, from offset: UInt64, hasher start: SHA256,
                             frames: inout PeerFrames) async throws -> String {
        let folder = try folders.folder(Self.parent(of: item.relative)).mapError { failure("cannot write \(item.relative)", $0) }.get()
        let fd = folder.openFile(FileSystem.baseName(item.relative), flags: O_WRONLY | O_CREAT | (offset == 0 ? O_TRUNC : 0))
        guard fd >= 0 else { throw failure("cannot write \(item.relative)", FolderDescriptor.Errno(errno)) }
        defer { close(fd) }
        // From the start, O_TRUNC empties what an earlier attempt left; a truncate of a new
        // file would make ext4 write it out at close (auto_da_alloc), a disk write per file.
        guard offset == 0 || (ftruncate(fd, off_t(offset)) == 0 && lseek(fd, off_t(offset), SEEK_SET) == off_t(offset)) else {
            throw HandoffError.transfer(.cannotWrite(path: item.relative, receiver: ownName, errno: errno))
        }
        var hasher = start
        var left = item.entry.size - offset
        while left > 0 {
            let frame = try await Self.next(&frames)
            guard case .data(let chunk) = frame else {
                if (try? Wire.decode(PeerMessage.self, from: frame))?.type == .transferCancel { throw Cancelled() }
                throw HandoffError.transfer(.fewerBytesThanOffered(sender: senderName, path: item.entry.path))
            }
            guard UInt64(chunk.readableBytes) <= left else {
                throw HandoffError.transfer(.moreBytesThanOffered(sender: senderName, path: item.entry.path))
            }
            try chunk.withUnsafeReadableBytes { bytes in
                hasher.update(bufferPointer: bytes)
                var written = 0
                while written < bytes.count {
                    let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else {
                        throw HandoffError.transfer(.diskWriteFailed(receiver: ownName, path: item.relative, errno: errno))
                    }
                    written += count
                }
            }
            left -= UInt64(chunk.readableBytes)
        }
        fchmod(fd, Self.fileMode(item.entry.mode))
        return Hex.string(hasher.finalize())
    }

    /// Moves each top-level item out of the partial folder under a name not taken; returns
    /// their paths.
    func place(_ planned: [Planned], from partial: FolderDescriptor, into receiving: FolderDescriptor) throws -> [String] {
        var placed: [String] = []
        for item in planned where !item.relative.contains("/") {
            var moved: String?
            var taken = Set<String>()
            while moved == nil {
                guard let name = ReceivedName.unique(item.relative, taken: { taken.contains($0) || receiving.status($0) != nil }) else {
                    throw HandoffError.transfer(.noFreeName(path: item.relative, receiver: ownName))
                }
                if let error = partial.move(item.relative, to: name, in: receiving) {
                    guard error.code == EEXIST || error.code == ENOTEMPTY else { throw failure("cannot move \(name) into place", error) }
                    taken.insert(name)
                } else {
                    moved = FileSystem.join(directory, name)
                }
            }
            placed.append(moved!)
        }
        return placed
    }
}
