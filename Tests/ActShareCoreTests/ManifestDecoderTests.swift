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
            "\(error)" == "\(file):7:12: error: 'isolation: in-process' is only for built-in providers; this one runs in its own process (remove the line), unless config 'in-process' names org.example.good"
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
