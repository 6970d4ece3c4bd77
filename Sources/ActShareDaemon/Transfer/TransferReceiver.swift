import ActShareCore
import ActShareHandoff
import CActShareSystem
import Crypto
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Receives one transfer from a paired device into the receive directory.
///
/// Everything lands first in a hidden folder of its own, `.actshare-partial-ID`, and each
/// top-level file or folder is moved to its final name only when every file in it is
/// complete and its SHA-256 checked, with `renameat2(RENAME_NOREPLACE)`: nothing partial
/// is ever seen under a final name, and nothing there is ever replaced (`a (1).txt`).
/// Names are made safe with ``ReceivedName``; only files and folders are made, never
/// links; nothing received is opened or run. A transfer that ends early leaves nothing.
struct TransferReceiver {
    let directory: String
    let device: PairedDevices.Entry
    /// This device's name, for the messages the sender shows.
    let ownName: String

    /// Room kept free on the disk beyond what a transfer needs.
    static let spareBytes: UInt64 = 64 << 20

    /// A planned entry: where it goes inside the partial folder.
    private struct Planned {
        var entry: TransferEntry
        var relative: String
    }

    /// Receives the transfer `offer` opened, reading its frames; returns what arrived.
    func receive(_ offer: PeerMessage, frames: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
                 outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> ReceivedTransfer? {
        let planned: [Planned]
        let partial: String
        do {
            guard let id = offer.transfer, ActivityChecks.isActivityID(id) else { throw HandoffFailure("the transfer has no valid id") }
            planned = try Self.plan(offer.entries ?? [])
            try checkSpace(for: planned)
            try FileSystem.createDirectories(directory)
            partial = FileSystem.join(directory, ".actshare-partial-\(id)")
            Self.removeTree(partial)
            try Self.makeFolder(partial, mode: 0o700)
            for item in planned where item.entry.kind == .folder {
                try Self.makeFolder(FileSystem.join(partial, item.relative), mode: 0o700)
            }
        } catch let failure as HandoffFailure {
            DaemonLog.line("refused files from \(device.name): \(failure.message)")
            try await outbound.write(try Wire.encode(PeerMessage(.error, message: failure.message)))
            return nil
        }
        do {
            try await outbound.write(try Wire.encode(PeerMessage(.transferAccept)))
            var files: [Delivery.File] = []
            var done = Set<Int>()
            let expected = planned.indices.filter { planned[$0].entry.kind == .file }
            while done.count < expected.count {
                guard let frame = try await frames.next() else { throw HandoffFailure("\(device.name) stopped sending") }
                let begin = try Wire.decode(PeerMessage.self, from: frame)
                guard begin.type == .fileBegin, let index = begin.index, planned.indices.contains(index),
                      planned[index].entry.kind == .file, !done.contains(index) else {
                    throw HandoffFailure("\(device.name) sent something else than the next file")
                }
                let item = planned[index]
                let digest = try await receiveFile(item, into: partial, frames: &frames)
                guard let endFrame = try await frames.next(), let end = try? Wire.decode(PeerMessage.self, from: endFrame),
                      end.type == .fileEnd, end.index == index else {
                    throw HandoffFailure("\(device.name) sent more bytes of \(item.entry.path) than it offered")
                }
                guard end.sha256 == digest else { throw HandoffFailure("\(item.entry.path) arrived damaged: its SHA-256 differs") }
                done.insert(index)
                files.append(Delivery.File(name: item.relative, bytes: item.entry.size, sha256: digest))
            }
            // Folder modes last: a folder without write permission would have kept its files out.
            for item in planned.reversed() where item.entry.kind == .folder {
                chmod(FileSystem.join(partial, item.relative), mode_t(item.entry.mode | 0o700))
            }
            let placed = try place(planned, from: partial)
            Self.removeTree(partial)
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
            let received = ReceivedTransfer(from: device.name, fromID: device.device.id, when: Double(time(nil)), paths: placed, files: located)
            return received
        } catch {
            Self.removeTree(partial)
            let message = (error as? HandoffFailure)?.message ?? "the transfer broke off"
            DaemonLog.line("files from \(device.name) not kept: \(message)")
            try? await outbound.write(try Wire.encode(PeerMessage(.error, message: message)))
            return nil
        }
    }

    /// Each entry's safe path inside the partial folder: every component sanitised and
    /// unique in its folder, parents before children. Refuses what cannot be made safe.
    private static func plan(_ entries: [TransferEntry]) throws -> [Planned] {
        guard !entries.isEmpty else { throw HandoffFailure("the transfer offers nothing") }
        guard entries.count <= LocalTree.maximumEntries else {
            throw HandoffFailure("more than \(LocalTree.maximumEntries) files and folders in one transfer")
        }
        var folders: [String: String] = ["": ""]  // a sent parent path → its safe path
        var names: [String: Set<String>] = [:]    // a safe folder → the names taken in it
        var planned: [Planned] = []
        for entry in entries {
            let components = entry.components
            guard components.count <= ReceivedName.maximumDepth else {
                throw HandoffFailure("\(entry.path.prefix(80))… is nested more than \(ReceivedName.maximumDepth) folders deep")
            }
            let parent = components.dropLast().joined(separator: "/")
            guard let safeParent = folders[parent] else {
                throw HandoffFailure("a file is offered before its folder")
            }
            guard let last = components.last, let name = ReceivedName.sanitised(last),
                  let unique = ReceivedName.unique(name, taken: { names[safeParent, default: []].contains($0) }) else {
                throw HandoffFailure("an empty name is offered")
            }
            names[safeParent, default: []].insert(unique)
            let relative = safeParent.isEmpty ? unique : safeParent + "/" + unique
            if entry.kind == .folder { folders[entry.path] = relative }
            planned.append(Planned(entry: entry, relative: relative))
        }
        return planned
    }

    /// Refuses a transfer the disk cannot hold, in words the sender can act on.
    private func checkSpace(for planned: [Planned]) throws {
        var total: UInt64 = 0
        for item in planned {
            let (sum, overflow) = total.addingReportingOverflow(item.entry.size)
            guard !overflow else { throw HandoffFailure("the sizes offered add up to more than a disk holds") }
            total = sum
        }
        var info = statvfs()
        var probe = directory
        while statvfs(probe, &info) != 0, probe != "/" { probe = FileSystem.directoryName(probe) }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        if total > free || free - total < Self.spareBytes {
            throw HandoffFailure("the disk of \(ownName) is full: \(ByteCount.describe(total)) needed, \(ByteCount.describe(free)) free")
        }
    }

    /// Writes one file's bytes, as many as offered and not one more; returns their SHA-256.
    private func receiveFile(_ item: Planned, into partial: String,
                             frames: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) async throws -> String {
        let path = FileSystem.join(partial, item.relative)
        let fd = PathName.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw HandoffFailure("cannot write \(item.relative) on \(ownName): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var hasher = SHA256()
        var left = item.entry.size
        while left > 0 {
            guard let chunk = try await frames.next() else { throw HandoffFailure("\(device.name) stopped sending") }
            guard UInt64(chunk.readableBytes) <= left else {
                throw HandoffFailure("\(device.name) sent more bytes of \(item.entry.path) than it offered")
            }
            try chunk.withUnsafeReadableBytes { bytes in
                hasher.update(bufferPointer: bytes)
                var written = 0
                while written < bytes.count {
                    let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else {
                        let reason = errno == ENOSPC ? "its disk is full" : String(cString: strerror(errno))
                        throw HandoffFailure("\(ownName) could not write \(item.relative): \(reason)")
                    }
                    written += count
                }
            }
            left -= UInt64(chunk.readableBytes)
        }
        fchmod(fd, mode_t(item.entry.mode | 0o400))
        return Hex.string(hasher.finalize())
    }

    /// Moves each top-level item out of the partial folder under a name not taken; returns
    /// their paths.
    private func place(_ planned: [Planned], from partial: String) throws -> [String] {
        var placed: [String] = []
        for item in planned where !item.relative.contains("/") {
            var moved: String?
            var taken = Set<String>()
            while moved == nil {
                guard let name = ReceivedName.unique(item.relative, taken: { taken.contains($0) || Self.exists(FileSystem.join(directory, $0)) }) else {
                    throw HandoffFailure("no free name for \(item.relative) on \(ownName)")
                }
                let target = FileSystem.join(directory, name)
                if cactshare_rename_noreplace(FileSystem.join(partial, item.relative), target) == 0 {
                    moved = target
                } else if errno == EEXIST || errno == ENOTEMPTY {
                    taken.insert(name)
                } else {
                    throw HandoffFailure("cannot move \(name) into place on \(ownName): \(String(cString: strerror(errno)))")
                }
            }
            placed.append(moved!)
        }
        return placed
    }

    /// Whether anything, a dangling link too, is at `path`.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return PathName.withCString(path, { lstat($0, &info) }) == 0
    }

    private static func makeFolder(_ path: String, mode: mode_t) throws {
        guard PathName.withCString(path, { mkdir($0, mode) }) == 0 else {
            throw HandoffFailure("cannot make the folder \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes a folder this daemon made and everything in it, never following a link.
    static func removeTree(_ path: String) {
        var info = stat()
        guard PathName.withCString(path, { lstat($0, &info) }) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            chmod(path, 0o700)
            for name in FileSystem.contents(ofDirectory: path) ?? [] { removeTree(FileSystem.join(path, name)) }
            _ = PathName.withCString(path) { rmdir($0) }
        } else {
            _ = PathName.withCString(path) { unlink($0) }
        }
    }
}
