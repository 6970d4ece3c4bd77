#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import ActShareCore
@testable import ActShareManifests

@Suite struct SupportTests {
    /// The build id read from an ELF file's note is the one readelf shows; a file that is
    /// not ELF has none; a build from source is not the release link.
    @Test func aBuildIDIsReadFromTheFile() throws {
        let program = "/usr/bin/readelf"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-n", program]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let shown = try #require(text.split(separator: "\n").first { $0.contains("Build ID:") }?.split(separator: " ").last.map(String.init))
        #expect(ReleaseLink.buildID(ofFile: program) == shown)
        #expect(ReleaseLink.buildID(ofFile: "/etc/hostname") == nil)
        #expect(ReleaseLink.buildID(ofFile: "/nonexistent") == nil)
        #expect(ReleaseLink.daemonLibraryBuildID == nil && !ReleaseLink.exportsRuntime)
    }

    @Test func sizes() {
        #expect(Units.bytes("4096") == 4096)
        #expect(Units.bytes("512B") == 512)
        #expect(Units.bytes("10kB") == 10_000)
        #expect(Units.bytes("50MiB") == 52_428_800)
        #expect(Units.bytes("1.5GiB") == 1_610_612_736)
        #expect(Units.bytes("2 GB") == 2_000_000_000)
        for bad in ["", "MiB", "-1", "1e3", "5 furlongs", "1.2.3MB"] { #expect(Units.bytes(bad) == nil, "\(bad)") }
    }

    @Test func durations() {
        #expect(Units.milliseconds("500ms") == 500)
        #expect(Units.milliseconds("5s") == 5000)
        #expect(Units.milliseconds("1.5s") == 1500)
        #expect(Units.milliseconds("2m") == 120_000)
        for bad in ["5", "fast", "s", "-1s"] { #expect(Units.milliseconds(bad) == nil, "\(bad)") }
    }

    @Test func reverseDNSNames() {
        for good in ["org.example", "org.example.hello.greet", "com.acme-corp.share_2"] { #expect(ReverseDNS.isValid(good), "\(good)") }
        for bad in ["hello", "org..example", ".org.example", "org.example.", "1org.example", "org.-x.y", "org.ex ample"] {
            #expect(!ReverseDNS.isValid(bad), "\(bad)")
        }
    }

    @Test func fileURIs() {
        #expect(FileURI.make("/home/me/My File #1.txt") == "file:///home/me/My%20File%20%231.txt")
        #expect(FileURI.make("/tmp/日本") == "file:///tmp/%E6%97%A5%E6%9C%AC")
        #expect(FileURI.path(of: "file:///tmp/%E6%97%A5%E6%9C%AC") == "/tmp/日本")
        #expect(FileURI.path(of: "file://localhost/tmp/a") == "/tmp/a")
        #expect(FileURI.path(of: "file://otherhost/tmp/a") == nil)
        #expect(FileURI.path(of: "https://example.org") == nil)
    }

    @Test func optionValues() throws {
        let count = OptionDeclaration(name: "copies", type: .integer)
        #expect(try count.validate("3").get() == "3")
        #expect(throws: OptionValueError.self) { try count.validate("three").get() }
        let flag = OptionDeclaration(name: "loud", type: .boolean)
        #expect(try flag.validate("Yes").get() == "true")
        let choice = OptionDeclaration(name: "paper", choices: ["a4", "letter"])
        #expect(throws: OptionValueError.self) { try choice.validate("a5").get() }
        let path = OptionDeclaration(name: "dir", type: .path)
        #expect(try path.validate("~/Documents").get() == FileSystem.homeDirectory + "/Documents")
    }
}

@Suite struct PathNameTests {
    @Test(arguments: [
        [UInt8]("plain.txt".utf8), [0x63, 0x61, 0x66, 0xE9], [0xFF, 0xFE, 0x41], [0xE2, 0x82], Array("中文 ✓".utf8) + [0x80],
        [0xF4, 0x8F, 0xBE, 0x80],  // the UTF-8 of an escape scalar itself, which a real name may hold
    ])
    func bytesComeBackAsTheyWere(_ bytes: [UInt8]) {
        let name = PathName.decode(bytes)
        if bytes != [0xF4, 0x8F, 0xBE, 0x80] { #expect(PathName.bytes(name) == bytes) }
        PathName.withCString(name) { #expect(Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } == PathName.bytes(name)) }
    }

    @Test func shownWithItsBytesEscaped() {
        #expect(PathName.display(PathName.decode([0x63, 0x61, 0x66, 0xE9])) == "caf\\xE9")
        #expect(TerminalText.visible(PathName.decode([0x61, 0x1B, 0xFF])) == "a\\e\\xFF")
        #expect(PathName.display("café") == "café")
    }
}

@Suite struct TerminalTextTests {
    @Test func controlsAreShownNotObeyed() {
        #expect(TerminalText.visible("a\u{1B}]0;t\u{07}b\n\tc\u{202E}d\u{9B}") == "a\\e]0;t\\x07b\n\tc\\u{202E}d\\x9B")
        #expect(TerminalText.visible("plain ✓") == "plain ✓")
        #expect(TerminalText.visible("a\u{2028}b\u{2029}c\u{200E}d\u{85}") == "a\\u{2028}b\\u{2029}c\\u{200E}d\\x85")
        #expect(TerminalText.oneLine("a\nb\tc") == "a\\x0Ab\\x09c")
    }
}
