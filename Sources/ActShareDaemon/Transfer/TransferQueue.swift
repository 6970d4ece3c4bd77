import ActShareCore
import ActShareHandoff
import CActShareSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The sends waiting for a device that was not reachable, on disk
/// (`$XDG_STATE_HOME/actshare/queue.json`, 0600; copies made with `--copy` under
/// `queue/ID/`), tried again with a growing pause: 2 s, then twice as long each time, at
/// most ``longestPause``, and at once when the device is seen.
actor TransferQueue {
    static let longestPause: Double = 300
    /// The most sends that wait at once.
    static let limit = 256

    let file: String
    let copies: String
    private(set) var items: [QueuedTransfer]

    init(stateDirectory: String) {
        file = FileSystem.join(stateDirectory, "queue.json")
        copies = FileSystem.join(stateDirectory, "queue")
        items = (try? FileSystem.readRegularFile(file, limit: 16 << 20)).flatMap { try? JSONDecoder().decode([QueuedTransfer].self, from: Data($0)) } ?? []
    }

    /// Queues `paths` for a device; with `copy`, copies of them (`cp -a`, no shell) are
    /// what waits. Returns the id.
    func add(paths: [String], to entry: PairedDevices.Entry, copy: Bool) throws -> String {
        guard items.count < Self.limit else { throw HandoffError.transfer(.queueFull(limit: Self.limit)) }
        let id = Pairing.newID()
        var kept = paths
        if copy {
            let folder = FileSystem.join(copies, id)
            try FileSystem.createDirectories(folder)
            chmod(folder, 0o700)
            let outcome = try ChildProcess.run("/bin/cp", ["-a", "--"] + paths + [folder])
            guard outcome.status == 0 else {
                _ = cactshare_remove_tree(folder)
                throw HandoffError.transfer(.cannotQueue(folder: folder))
            }
            kept = paths.map { FileSystem.join(folder, FileSystem.baseName($0)) }
        }
        items.append(QueuedTransfer(id: id, deviceID: entry.device.id, deviceName: entry.name, paths: kept, copied: copy, created: Double(time(nil))))
        try save()
        return id
    }

    /// The sends due now.
    func due() -> [QueuedTransfer] {
        let now = Double(time(nil))
        return items.filter { $0.nextTry <= now }
    }

    /// Tries the device's sends at once (it was just seen).
    func hurry(deviceID: String) {
        for index in items.indices where items[index].deviceID == deviceID { items[index].nextTry = 0 }
    }

    /// A try that failed: the next one after a longer pause.
    func failed(_ id: String, reason: String) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        items[index].attempts += 1
        items[index].lastError = reason
        items[index].nextTry = Double(time(nil)) + min(Self.longestPause, 2 * pow(2, Double(items[index].attempts - 1)))
        try? save()
    }

    /// Drops a send (delivered, cancelled, or no longer possible) and its copies.
    @discardableResult
    func remove(_ id: String) -> QueuedTransfer? {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
        let item = items.remove(at: index)
        if item.copied { _ = cactshare_remove_tree(FileSystem.join(copies, item.id)) }
        try? save()
        return item
    }

    private func save() throws {
        try FileSystem.createDirectories(FileSystem.directoryName(file))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try FileSystem.writeAtomically(Array(try encoder.encode(items)), to: file)
        chmod(file, 0o600)
    }
}
