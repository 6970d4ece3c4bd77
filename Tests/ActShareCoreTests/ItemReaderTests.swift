import Foundation
import Testing
@testable import ActShareCore

@Suite struct ItemReaderTests {
    let reader = ItemReader()

    @Test func readsFilesURLsTextAndStandardInput() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let file = "\(directory)/My Notes.py"
        try Fixtures.write("print(1)\n", to: file)
        let items = try reader.read(
            arguments: [file, "https://example.org/a?b=c", "mailto:me@example.org", "-"], texts: ["hello"],
            standardInput: { Array("<html><body>x</body></html>".utf8) })
        #expect(items.map(\.kind) == [.file, .url, .url, .text, .text])
        #expect(items[0].path == file)
        #expect(items[0].url == "file://\(directory.replacingOccurrences(of: " ", with: "%20"))/My%20Notes.py")
        #expect(items[0].contentType == "text/x-python")
        #expect(items[0].size == 9)
        #expect(items[1].contentType == "x-scheme-handler/https")
        #expect(items[1].urlScheme == "https")
        #expect(items[2].contentType == "x-scheme-handler/mailto")
        #expect(items[3].contentType == "text/html")
        #expect(items[4].text == "hello")
    }

    @Test func fileURLsBecomeFiles() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        try Fixtures.write("x", to: "\(directory)/a b.txt")
        let item = try reader.item(for: "file://\(directory)/a%20b.txt")
        #expect(item.kind == .file)
        #expect(item.path == "\(directory)/a b.txt")
    }

    @Test func binaryStandardInputIsData() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        let items = try reader.read(arguments: ["-"], standardInput: { png })
        #expect(items[0].kind == .data)
        #expect(items[0].contentType == "image/png")
        #expect(items[0].size == UInt64(png.count))
        let typed = try reader.read(arguments: ["-"], stdinType: "text/markdown", standardInput: { Array("# hi".utf8) })
        #expect(typed[0].kind == .text)
        #expect(typed[0].contentType == "text/markdown")
    }

    /// Items as located before typing (for helpers started ahead) are those `read` makes,
    /// but for their types; nothing at all when one cannot be made or is standard input.
    @Test func untypedItemsAreTheItemsReadWithoutTheirTypes() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        try Fixtures.write("print(1)\n", to: "\(directory)/a b.py")
        let arguments = ["\(directory)/a b.py", "file://\(directory)/a%20b.py", "https://example.org/", directory]
        let untyped = try #require(ItemReader.untypedItems(arguments: arguments, texts: ["hello"]))
        let read = try reader.read(arguments: arguments, texts: ["hello"])
        #expect(untyped.map(\.kind) == read.map(\.kind))
        #expect(untyped.map(\.path) == read.map(\.path))
        #expect(untyped.map(\.size) == read.map(\.size))
        #expect(untyped.map(\.url) == [nil, nil, "https://example.org/", nil, nil])
        #expect(untyped[0].contentType == ContentType.octetStream)
        #expect(ItemReader.untypedItems(arguments: ["-"], texts: []) == nil)
        #expect(ItemReader.untypedItems(arguments: ["/nonexistent/file.txt"], texts: []) == nil)
        #expect(ItemReader.untypedItems(arguments: ["file:///nonexistent"], texts: []) == nil)
        #expect(ItemReader.untypedItems(arguments: ["/dev/null"], texts: []) == nil)
        let many = Array(repeating: "https://example.org/", count: ItemReader.untypedLimit)
        #expect(ItemReader.untypedItems(arguments: many, texts: [])?.count == ItemReader.untypedLimit)
        #expect(ItemReader.untypedItems(arguments: many + ["https://example.org/"], texts: []) == nil)
    }

    @Test func refusesWhatIsNotAnItem() throws {
        let missing = try #require(throws: ActShareError.self) { try reader.item(for: "/nonexistent/file.txt") }
        #expect(missing.code == .badInput)
        #expect(missing.message == "/nonexistent/file.txt: No such file or directory")
        #expect(throws: ActShareError.self) { try reader.item(for: "file:///nonexistent") }
        #expect(throws: ActShareError.self) { try reader.read(arguments: ["-", "-"], standardInput: { [] }) }
        let badType = try #require(throws: ActShareError.self) {
            try reader.read(arguments: ["-"], stdinType: "html", standardInput: { [] })
        }
        #expect(badType.message == "--type html is not a MIME type such as text/html")
    }
}
