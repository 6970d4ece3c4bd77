import Foundation
import Testing
@testable import ActShareCore

@Suite struct ManifestIndexTests {
    static func manifest(title: String) -> String {
        """
        schema: actshare/provider@1
        id: org.example.cached
        name: Cached
        version: 1.0.0
        library: \(Fixtures.path("manifests/libfake.so"))
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
        let file = "\(directory)/providers/cached.yaml"
        let broken = "\(directory)/providers/broken.yaml"
        try Fixtures.write(Self.manifest(title: "First"), to: file)
        try Fixtures.write("schema: actshare/provider@1\nid: nope\n", to: broken)
        let index = ManifestIndex(directory: "\(directory)/cache", decoder: ManifestDecoder())

        let fresh = index.load(files: [file, broken])
        #expect(FileManager.default.fileExists(atPath: index.file))
        let cached = index.load(files: [file, broken])
        // The cached copy is the same as a fresh decode, field by field that matters.
        let a = try fresh[0].result.get(), b = try cached[0].result.get()
        #expect(a.activities[0].title == b.activities[0].title)
        #expect(a.activities[0].accepts.contentTypes == b.activities[0].accepts.contentTypes)
        #expect(a.activities[0].accepts.maxTotalSize == b.activities[0].accepts.maxTotalSize)
        #expect(a.activities[0].accepts.match == b.activities[0].accepts.match)
        #expect(a.activities[0].options[0].choices == b.activities[0].options[0].choices)
        #expect(a.activities[0].hooks.canPerform?.arguments == b.activities[0].hooks.canPerform?.arguments)
        #expect(a.activities[0].hooks.canPerform?.location == b.activities[0].hooks.canPerform?.location)
        #expect(a.libraryLocation == b.libraryLocation)
        // Errors are cached with their position.
        let error = try #require(throws: ActShareError.self) { try cached[1].result.get() }
        #expect(error.description == "\(broken):2:5: error: 'id' must be a reverse-DNS name such as org.example.hello, not 'nope'")

        // Proof that the cache is read: a corrupted index is ignored and rebuilt.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: index.file))
        #expect(try index.load(files: [file])[0].result.get().activities[0].title == "First")

        // Editing the manifest (same size, new content) invalidates its entry.
        try Fixtures.write(Self.manifest(title: "Other"), to: file)
        #expect(try index.load(files: [file])[0].result.get().activities[0].title == "Other")
    }
}
