import ActShareCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The LocalSend devices this daemon has reached, each pinned to its certificate (trust on
/// first use), in `localsend-devices.json` in the state directory.
///
/// LocalSend apps accept any certificate, so anyone on the network can announce a device's
/// name. actshare pins the certificate it first met under that name, and refuses a later
/// one announced under the same name until the user forgets the old one
/// (`actshare handoff unpair NAME`): a reinstalled app and an impostor look alike.
actor LocalSendPins {
    struct Pin: Codable, Sendable, Equatable {
        /// The name the device gave when it was pinned.
        var alias: String
        /// The SHA-256 of its certificate, in capitals.
        var fingerprint: String
        /// When (seconds since 1970).
        var since: Double
        /// Whether its transfers are accepted without asking (the user said "always").
        var always: Bool
    }

    /// Older pins give way beyond this many.
    static let maximumPins = 256

    private let file: String
    nonisolated var fileName: String { file }
    private(set) var pins: [Pin]

    init(file: String) {
        self.file = file
        let bytes = (try? FileSystem.read(file, limit: 1 << 20)) ?? []
        pins = (try? JSONDecoder().decode([Pin].self, from: Data(bytes))) ?? []
    }

    func pin(fingerprint: String) -> Pin? {
        let key = fingerprint.uppercased()
        return pins.first { $0.fingerprint == key }
    }

    /// The pins made under `alias` (case-insensitive: LocalSend names are typed by people).
    func pins(named alias: String) -> [Pin] {
        pins.filter { $0.alias.lowercased() == alias.lowercased() }
    }

    /// Pins `fingerprint` under `alias` (again: a pinned device that renamed itself).
    func learn(alias: String, fingerprint: String, always: Bool? = nil) throws {
        let key = fingerprint.uppercased()
        let kept = pins.first { $0.fingerprint == key }
        pins.removeAll { $0.fingerprint == key }
        pins.append(Pin(alias: alias, fingerprint: key, since: kept?.since ?? Self.now(), always: always ?? kept?.always ?? false))
        if pins.count > Self.maximumPins { pins.removeFirst(pins.count - Self.maximumPins) }
        try save()
    }

    /// Forgets the pins under `alias` or of that fingerprint; what was forgotten.
    func forget(_ name: String) throws -> [Pin] {
        let gone = pins.filter { $0.alias.lowercased() == name.lowercased() || $0.fingerprint == name.uppercased() }
        guard !gone.isEmpty else { return [] }
        pins.removeAll { gone.contains($0) }
        try save()
        return gone
    }

    private func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileSystem.writeAtomically(Array(try encoder.encode(pins)) + [0x0A], to: file)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec)
    }
}
