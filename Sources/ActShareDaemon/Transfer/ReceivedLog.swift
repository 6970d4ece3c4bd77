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

/// The transfers that arrived here, newest last, for `handoff received`: in
/// `$XDG_STATE_HOME/actshare/received.json` (0600), the last ``limit`` kept.
struct ReceivedLog {
    static let limit = 200
    let file: String

    func all() -> [ReceivedTransfer] {
        (try? FileSystem.readRegularFile(file, limit: 64 << 20)).flatMap { try? JSONDecoder().decode([ReceivedTransfer].self, from: Data($0)) } ?? []
    }

    func append(_ transfer: ReceivedTransfer) throws {
        let kept = Array((all() + [transfer]).suffix(Self.limit))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try FileSystem.writeAtomically(Array(try encoder.encode(kept)), to: file)
        chmod(file, 0o600)
    }
}
