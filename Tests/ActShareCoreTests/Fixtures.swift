import Foundation

/// Paths of the files in this test target's Fixtures folder.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    static func path(_ relative: String) -> String { "\(directory)/\(relative)" }

    /// The broken manifests, each starting with `# expect: LINE:COLUMN: error: MESSAGE`.
    static let brokenManifests: [String] = {
        let folder = path("manifests/broken")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "\(folder)/\($0)" }
    }()

    /// A fresh temporary directory, removed by the caller with `cleanUp`.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "actshare-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func cleanUp(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
