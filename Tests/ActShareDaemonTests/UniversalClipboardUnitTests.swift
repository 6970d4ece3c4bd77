import NIOCore
import Testing

@testable import ActShareDaemon

/// The Universal Clipboard's pieces that need no display: an offer's checks, the formats
/// of a list of files, the preview.
@Suite struct UniversalClipboardUnitTests {
    let hash = String(repeating: "0f", count: 32)

    func offer(_ targets: [ClipboardOffer.Target], files: [String]? = nil, preview: String? = nil) -> ClipboardOffer {
        ClipboardOffer(id: "0123456789abcdef", created: 1000, expires: 1120, targets: targets, preview: preview, files: files)
    }

    @Test func anOfferInFormPasses() {
        #expect(offer([.init(name: "UTF8_STRING", size: 5, sha256: hash), .init(name: "image/png", size: 100, sha256: hash)]).problem(maximumBytes: 1000) == nil)
    }

    @Test func eachFieldIsChecked() {
        let good = ClipboardOffer.Target(name: "UTF8_STRING", size: 5, sha256: hash)
        #expect(offer([]).problem(maximumBytes: 1000) == "no targets")
        #expect(offer([.init(name: "UTF8 STRING", size: 5, sha256: hash)]).problem(maximumBytes: 1000) == "a target's name is not valid")
        #expect(offer([.init(name: "", size: 5, sha256: hash)]).problem(maximumBytes: 1000) == "a target's name is not valid")
        #expect(offer([.init(name: "UTF8_STRING", size: 5, sha256: "ABC")]).problem(maximumBytes: 1000) == "a target's hash is not valid")
        #expect(offer([.init(name: "UTF8_STRING", size: 1001, sha256: hash)]).problem(maximumBytes: 1000) == "larger than this device's clipboard-max")
        // Sizes that add up past the limit, and past UInt64.
        #expect(offer([.init(name: "a", size: 600, sha256: hash), .init(name: "b", size: 600, sha256: hash)]).problem(maximumBytes: 1000)
            == "larger than this device's clipboard-max")
        #expect(offer([.init(name: "a", size: .max, sha256: hash), .init(name: "b", size: 2, sha256: hash)]).problem(maximumBytes: .max)
            == "larger than this device's clipboard-max")
        #expect(offer(Array(repeating: good, count: 33)).problem(maximumBytes: 1000) == "more than 32 targets")
        #expect(offer([good], preview: "\u{1B}]52;c;AAAA\u{7}").problem(maximumBytes: 1000) == "its preview is not valid")
        var wrongID = offer([good])
        wrongID.id = "x;touch pwned"
        #expect(wrongID.problem(maximumBytes: 1000) == "its id is not valid")
        var backwards = offer([good])
        backwards.expires = backwards.created - 1
        #expect(backwards.problem(maximumBytes: 1000) == "its times are not valid")
    }

    @Test func anOfferOfFilesCarriesOnlyTheirFormats() {
        let list = ClipboardOffer.Target(name: "text/uri-list", size: 30, sha256: hash)
        #expect(offer([list], files: ["a.txt"]).problem(maximumBytes: 1000) == nil)
        #expect(offer([list, .init(name: "application/x-private", size: 3, sha256: hash)], files: ["a.txt"]).problem(maximumBytes: 1000)
            == "a target is not a format of files")
        #expect(offer([list], files: []).problem(maximumBytes: 1000) == "its file names are not valid")
        #expect(offer([list], files: ["a\u{1B}[2J"]).problem(maximumBytes: 1000) == "its file names are not valid")
    }

    @Test func filesAreListedInEveryFileManagersFormat() {
        let paths = ["/home/me/Downloads/My File.txt", "/home/me/Downloads/图.png"]
        let uris = ["file:///home/me/Downloads/My%20File.txt", "file:///home/me/Downloads/%E5%9B%BE.png"]
        #expect(FileClipboard.bytes(for: "text/uri-list", paths: paths) == Array((uris.map { $0 + "\r\n" }.joined()).utf8))
        #expect(FileClipboard.bytes(for: "x-special/gnome-copied-files", paths: paths) == Array(("copy\n" + uris.joined(separator: "\n")).utf8))
        #expect(FileClipboard.bytes(for: "application/x-kde-cutselection", paths: paths) == Array("0".utf8))
        #expect(FileClipboard.bytes(for: "UTF8_STRING", paths: paths) == Array(paths.joined(separator: "\n").utf8))
        #expect(FileClipboard.bytes(for: "STRING", paths: ["/tmp/é图"]) == [0x2F, 0x74, 0x6D, 0x70, 0x2F, 0xE9, 0x3F])
        #expect(FileClipboard.bytes(for: "image/png", paths: paths) == nil)
    }

    @Test func aURIListOfFilesHereIsFilesAndAnythingElseIsNot() {
        #expect(FileClipboard.paths(inURIList: Array("file:///etc/hostname\r\n# a comment\r\nfile:///tmp\r\n".utf8)) == ["/etc/hostname", "/tmp"])
        #expect(FileClipboard.paths(inURIList: Array("https://example.org/\r\n".utf8)) == nil)
        #expect(FileClipboard.paths(inURIList: Array("file:///no/such/file\r\n".utf8)) == nil)
        #expect(FileClipboard.paths(inURIList: Array("file://otherhost/etc/hostname\r\n".utf8)) == nil)
        #expect(FileClipboard.paths(inURIList: []) == nil)
    }

    @Test func thePreviewIsTheFirstLineWithoutControls() {
        #expect(ClipboardService.preview(ByteBuffer(string: "first line\nsecond")) == "first line")
        #expect(ClipboardService.preview(ByteBuffer(string: "tab\there\u{1B}[31m")) == "tabhere[31m")
        #expect(ClipboardService.preview(ByteBuffer(string: String(repeating: "ü", count: 200)))?.count == ClipboardOffer.previewLength)
        #expect(ClipboardService.preview(ByteBuffer(string: "\n\n")) == nil)
    }
}
