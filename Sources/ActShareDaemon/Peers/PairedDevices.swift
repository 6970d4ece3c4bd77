import ActShareCore
import ActShareHandoff
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The devices this one is paired with: their names, pins and last known addresses, in
/// `$XDG_STATE_HOME/actshare/paired-devices.json` (0600).
struct PairedDevices: Sendable {
    struct Entry: Codable, Sendable, Equatable {
        var name: String
        /// SHA-256 of the device's SPKI, hex.
        var pin: String
        var host: String
        var port: Int
        /// `false`: the Universal Clipboard is neither offered to nor taken from this
        /// device (set by hand in paired-devices.json, or `handoff clipboard`).
        var clipboard: Bool?

        var device: Device { Device(id: String(pin.prefix(16)), name: name, host: host, port: port) }
    }

    private(set) var entries: [Entry]
    let file: String

    init(file: String) {
        self.file = file
        entries = (try? FileSystem.read(file)).flatMap { try? JSONDecoder().decode([Entry].self, from: Data($0)) } ?? []
    }

    var pins: Set<String> { Set(entries.map(\.pin)) }

    func entry(pin: String) -> Entry? { entries.first { $0.pin == pin } }

    /// The entry whose id (pin prefix) or name is `device`.
    func entry(named device: String) -> Entry? {
        entries.first { $0.pin.hasPrefix(device.lowercased()) && device.count >= 4 } ?? entries.first { $0.name == device }
    }

    mutating func add(_ entry: Entry) throws {
        entries.removeAll { $0.pin == entry.pin }
        entries.append(entry)
        try save()
    }

    mutating func remove(pin: String) throws {
        entries.removeAll { $0.pin == pin }
        try save()
    }

    private func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileSystem.writeAtomically(Array(try encoder.encode(entries)), to: file)
        chmod(file, 0o600)
    }
}
