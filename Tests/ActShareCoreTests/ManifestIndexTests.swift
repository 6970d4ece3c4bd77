import Foundation
import Testing
@testable import ActShareCore
@testable import ActShareManifests

@Suite struct ManifestIndexTests {
    static func manifest(title: String) -> String {
        """
        schema: actshare/provider@1
        id: org.example.cached
        name: Cached
        version: 1.0.0
        library: \(Fixtures.path("manifests/libfake.so"))
        permissions: {read: [items, ~/Music], write: [output], output-option: level, exec: true}
        activities:
          - type: org.example.cached.go
            title: \(title)
            accepts: {kinds: [file], content-types: [text/*], max-total-size: 1MiB, match: any}
            options: [{name: level, type: integer, default: 3, choices: ["1", "3"]}]
            hooks:
              can-perform: {symbol: check, args: [item.path, option.level], returns: bool}
              perform: go
        """
    }

    @Test func reusesEntriesUntilTheManifestChanges() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let providers = "\(directory)/providers"
        let file = "\(providers)/cached.yaml"
        let broken = "\(providers)/broken.yaml"
        let config = "\(directory)/config.yaml"
        try Fixtures.write(Self.manifest(title: "First"), to: file)
        try Fixtures.write("schema: actshare/provider@1\nid: nope\n", to: broken)
        try Fixtures.write(
            "pin: [org.example.cached.go]\nproviders:\n  org.example.cached: {level: \"1\"}\nsandbox: required\nlimits: {memory: 1GiB, processes: 9}\n",
            to: config)
        try FileManager.default.createDirectory(atPath: "\(providers)/empty", withIntermediateDirectories: true)
        let index = ManifestIndex(directory: "\(directory)/cache", libraryDirectories: [])
        let decoder = ManifestDecoder()
        var decoded: [String] = []
        func rebuild() -> ManifestIndex.Contents {
            index.rebuild(
                directories: [providers, "\(directory)/missing"], configFile: config,
                decodeManifest: { path in
                    decoded.append(path)
                    return Result { try decoder.decode(file: path) }.mapError(ActShareError.wrapping)
                },
                decodeConfig: { path in Result { try ConfigDecoder().decode(file: path) }.mapError(ActShareError.wrapping) }
            ).contents
        }
        func fresh() -> ManifestIndex.Contents? {
            index.freshContents(directories: [providers, "\(directory)/missing"], configFile: config)
        }

        #expect(fresh() == nil)
        let built = rebuild()
        // Files come in name order, broken ones included.
        #expect(decoded == [broken, file])
        #expect(built.manifests.map(\.file) == [broken, file])
        let cached = try #require(fresh())
        #expect(cached.manifests.map(\.file) == [broken, file])
        // The cached copy is the same as a fresh decode, field by field that matters.
        let a = try built.manifests[1].manifest().get(), b = try cached.manifests[1].manifest().get()
        #expect(a.activities[0].title == b.activities[0].title)
        #expect(a.activities[0].accepts.contentTypes == b.activities[0].accepts.contentTypes)
        #expect(a.activities[0].accepts.maxTotalSize == b.activities[0].accepts.maxTotalSize)
        #expect(a.activities[0].accepts.match == b.activities[0].accepts.match)
        #expect(a.activities[0].accepts.kinds == b.activities[0].accepts.kinds)
        #expect(a.activities[0].options[0].choices == b.activities[0].options[0].choices)
        #expect(a.activities[0].hooks.canPerform?.arguments == b.activities[0].hooks.canPerform?.arguments)
        #expect(a.activities[0].hooks.canPerform?.location == b.activities[0].hooks.canPerform?.location)
        #expect(a.libraryLocation == b.libraryLocation)
        #expect(a.permissions == b.permissions)
        #expect(b.permissions == ProviderPermissions(read: [.items, .path("~/Music")], write: [.output], outputOptions: ["level"], exec: true))
        let summary = try cached.manifests[1].summary.get()
        #expect(summary.id == "org.example.cached")
        #expect(summary.activities.map(\.title) == ["First"])
        #expect(summary.activities[0].hasCanPerform)
        let cachedConfig = try #require(try cached.config?.result.get())
        #expect(cachedConfig.pin == ["org.example.cached.go"])
        #expect(cachedConfig.sandboxRequired)
        #expect(cachedConfig.limits.memory == 1 << 30 && cachedConfig.limits.processes == 9 && cachedConfig.limits.openFiles == 1024)
        #expect(cachedConfig.providerOptions["org.example.cached"]?["level"]?.location == SourceLocation(file: config, line: 3, column: 31))
        // Errors are cached with their position.
        let error = try #require(throws: ActShareError.self) { try cached.manifests[0].manifest().get() }
        #expect(error.description == "\(broken):2:5: error: 'id' must be a reverse-DNS name such as org.example.hello, not 'nope'")

        // Other directories, or another config, are not fresh.
        #expect(index.freshContents(directories: [providers], configFile: config) == nil)
        #expect(index.freshContents(directories: [providers, "\(directory)/missing"], configFile: nil) == nil)

        // Editing one manifest (same size, new content) invalidates its entry only.
        try Fixtures.write(Self.manifest(title: "Other"), to: file)
        #expect(fresh() == nil)
        decoded = []
        #expect(try rebuild().manifests[1].manifest().get().activities[0].title == "Other")
        #expect(decoded == [file])
        #expect(fresh() != nil)

        // A new manifest, in the directory or in a subdirectory that had none, is seen.
        try Fixtures.write(Self.manifest(title: "Nested").replacingOccurrences(of: "org.example.cached", with: "org.example.nested"), to: "\(providers)/empty/provider.yaml")
        #expect(fresh() == nil)
        #expect(rebuild().manifests.map(\.file) == [broken, file, "\(providers)/empty/provider.yaml"])
        #expect(fresh() != nil)
        try Fixtures.write(Self.manifest(title: "Later"), to: "\(providers)/later.yaml")
        #expect(fresh() == nil)
        // So is a provider directory that appears.
        _ = rebuild()
        try FileManager.default.createDirectory(atPath: "\(directory)/missing", withIntermediateDirectories: true)
        #expect(fresh() == nil)

        // A corrupt index is ignored and rebuilt.
        _ = rebuild()
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: index.file))
        #expect(fresh() == nil)
        decoded = []
        _ = rebuild()
        #expect(decoded.count == 4)
    }
}
