import Foundation
import Testing
@testable import ActShareCore
@testable import ActShareManifests

@Suite struct ManifestDecoderTests {
    /// good.yaml asks for `isolation: in-process`, which only a built-in may.
    let decoder = ManifestDecoder(builtinDirectories: [Fixtures.path("manifests")])

    /// The same manifest outside the built-in directories: refused, with its position.
    @Test func onlyBuiltInsMayRunInProcess() throws {
        let file = Fixtures.path("manifests/good.yaml")
        #expect {
            try ManifestDecoder(builtinDirectories: [Fixtures.path("manifests/broken")]).decode(file: file)
        } throws: { error in
            "\(error)" == "\(file):7:12: error: 'isolation: in-process' is only for built-in providers: remove the line. Only the user decides to run a third-party provider in actshare's process, with 'in-process: [org.example.good]' in their config"
        }
    }

    @Test func decodesEveryKeyOfTheSchema() throws {
        let file = Fixtures.path("manifests/good.yaml")
        let manifest = try decoder.decode(file: file)
        #expect(manifest.id == "org.example.good")
        #expect(manifest.name == "Good")
        #expect(manifest.version == "2.1.0")
        #expect(manifest.library == Fixtures.path("manifests/libfake.so"))
        #expect(manifest.libraryLocation == SourceLocation(file: file, line: 6, column: 10))
        #expect(manifest.isolation == .inProcess)
        #expect(manifest.timeoutMilliseconds == 1500)
        #expect(manifest.activities.map(\.type) == ["org.example.good.greet", "org.example.good.plain"])

        let greet = manifest.activities[0]
        #expect(greet.title == "Say Hello")
        #expect(greet.image == Fixtures.path("manifests/icons/hello.svg"))
        #expect(greet.category == .share)
        #expect(greet.location == SourceLocation(file: file, line: 10, column: 5))
        #expect(greet.accepts.kinds == [.file, .text, .url])
        #expect(greet.accepts.contentTypes == ["text/*", "image/png"])
        #expect(greet.accepts.urlSchemes == ["http", "https"])
        #expect(greet.accepts.minItems == 1)
        #expect(greet.accepts.maxItems == 10)
        #expect(greet.accepts.maxTotalSize == 50 * 1024 * 1024)
        #expect(greet.accepts.match == .any)

        #expect(greet.options.map(\.name) == ["greeting", "copies", "loud", "tone"])
        #expect(greet.options[0].defaultValue == "Hello")
        #expect(greet.options[0].prompt == "Greeting")
        #expect(greet.options[1].type == .integer)
        #expect(greet.options[2].defaultValue == "true")
        #expect(greet.options[3].choices == ["warm", "cool"])
        #expect(greet.options[3].required)

        let canPerform = try #require(greet.hooks.canPerform)
        #expect(canPerform.isStandard)
        #expect(canPerform.arguments == [.request])
        #expect(canPerform.returns == .verdict)
        let prepare = try #require(greet.hooks.prepare)
        #expect(!prepare.isStandard)
        #expect(prepare.returns == .status)
        #expect(greet.hooks.perform.symbol == "hello_greet")
        #expect(greet.hooks.perform.arguments == [.itemPath, .itemData, .itemsCount, .option("greeting")])
        #expect(greet.hooks.perform.returns == .string)
        #expect(greet.hooks.perform.isPerItem)

        let plain = manifest.activities[1]
        #expect(plain.category == .action)
        #expect(plain.image == "system-run")
        #expect(plain.accepts.kinds == nil)
        #expect(plain.accepts.minItems == 1)
        #expect(plain.accepts.match == .all)
        #expect(plain.hooks.canPerform == nil)
        #expect(manifest.activities[1].hooks.perform.arguments == [.request, .session])
    }

    @Test func theCorpusOfBrokenManifestsIsLargeEnough() {
        #expect(Fixtures.brokenManifests.count >= 25)
    }

    /// Each broken manifest names its expected error on its first line.
    @Test(arguments: Fixtures.brokenManifests)
    func rejectsBrokenManifestWithItsPosition(_ file: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let firstLine = String(text.prefix { $0 != "\n" })
        let expected = try #require(firstLine.split(separator: "# expect: ", maxSplits: 1).last.map(String.init))
        let error = try #require(throws: ActShareError.self) { try decoder.decode(file: file) }
        #expect(error.code == .badManifest)
        #expect(error.description == "\(file):\(expected)")
    }

    /// `providers check` gets every error, in file order; decoding for use stops at the first.
    @Test func problemsCollectsEveryErrorInFileOrder() throws {
        let directory = NSTemporaryDirectory() + "actshare-problems-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(FileManager.default.createFile(atPath: "\(directory)/libx.so", contents: Data()))
        let file = "\(directory)/provider.yaml"
        try """
            schema: actshare/provider@1
            id: Not-DNS
            name: X
            version: 1
            library: libx.so
            timeout: forever
            activities:
              - type: org.example.x.go
                title: ""
                accepts: {kinds: [folder], min-items: "2"}
                options: [{name: Bad Name}]
                hooks: {perform: "not a symbol"}
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let problems = ManifestDecoder().problems(file: file).map(\.description)
        #expect(problems == [
            "\(file):2:5: error: 'id' must be a reverse-DNS name such as org.example.hello, not 'Not-DNS'",
            "\(file):6:10: error: 'timeout' must be a duration from 1ms to 1h such as 5s or 500ms, not 'forever'",
            "\(file):9:12: error: 'activities[0].title' must not be empty",
            "\(file):10:22: error: 'activities[0].accepts.kinds' lists 'folder'; the kinds are file, url, text and data",
            "\(file):10:43: error: 'activities[0].accepts.min-items' must be a whole number, not the quoted string \"2\"; write 2 without quotes",
            "\(file):11:22: error: 'activities[0].options[0].name' must be lowercase letters, digits and '-' starting with a letter, not 'Bad Name'",
            "\(file):12:22: error: 'activities[0].hooks.perform' must be a C symbol name, not 'not a symbol'",
        ])
        #expect(throws: ActShareError.self) { try ManifestDecoder().decode(file: file) }
    }

    @Test func findsABareLibraryNameInTheLibraryDirectories() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let manifest = """
            schema: actshare/provider@1
            id: org.example.elsewhere
            name: Elsewhere
            version: 1.0.0
            library: libfake.so
            activities:
              - {type: org.example.elsewhere.go, title: Go, hooks: {perform: go}}
            """
        let file = "\(directory)/provider.yaml"
        try Fixtures.write(manifest, to: file)
        #expect(throws: ActShareError.self) { try decoder.decode(file: file) }
        let found = try ManifestDecoder(libraryDirectories: [Fixtures.path("manifests")]).decode(file: file)
        #expect(found.library == Fixtures.path("manifests/libfake.so"))
    }
}
