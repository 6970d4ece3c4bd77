import ActShareCore
import ActShareHandoff
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the shells' completions offer where a name is typed: run by the completion
/// scripts (`actshare ---completion …`) at each Tab, so each answer is quick and quiet.
enum CompletionCandidates {
    /// Every activity type of the providers found, from the manifest index (no manifest
    /// is decoded), sorted.
    @Sendable static func activityTypes(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let invocation = try? Invocation(configFile: nil, reportDiagnostics: false) else { return [] }
        return Set(invocation.registry.routes.map(\.type)).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The paired devices' names, read from the daemon's list of them (no device is asked,
    /// so this does not wait on the network), sorted.
    @Sendable static func deviceNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        struct Paired: Decodable { var name: String }
        guard let bytes = try? FileSystem.readRegularFile(HandoffPaths.fromEnvironment().pairedDevices, limit: 1 << 20),
              let devices = try? JSONDecoder().decode([Paired].self, from: Data(bytes))
        else { return [] }
        return Set(devices.map(\.name)).filter { $0.hasPrefix(prefix) }.sorted()
    }
}
