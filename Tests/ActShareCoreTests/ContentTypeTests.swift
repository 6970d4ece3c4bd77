import Foundation
import Testing
@testable import ActShareCore

@Suite struct ContentTypeTests {
    /// Writes files of many kinds and checks each type against `gio info`, the platform's answer.
    @Test func agreesWithGioInfo() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        let files: [(String, [UInt8])] = [
            ("script.py", Array("print('hi')\n".utf8)),
            ("noext", Array("#!/bin/sh\necho hi\n".utf8)),
            ("data.json", Array("{\"a\": 1}\n".utf8)),
            ("page.html", Array("<html><body>hi</body></html>\n".utf8)),
            ("picture.png", png),
            ("picture-named-text.txt", png),
            ("unnamed-picture", png),
            ("empty.txt", []),
            ("empty", []),
            ("empty.png", []),
            ("notes.md", Array("# Title\n".utf8)),
            ("archive.tar.gz", [0x1F, 0x8B, 8, 0]),
            ("binary.bin", [0, 1, 2, 3, 0xFF]),
        ]
        for (name, bytes) in files {
            #expect(FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data(bytes)))
        }
        try FileManager.default.createDirectory(atPath: "\(directory)/folder", withIntermediateDirectories: false)
        for name in files.map(\.0) + ["folder"] {
            let path = "\(directory)/\(name)"
            let status = try #require(FileSystem.status(path))
            let ours = ContentType.of(path: path, status: status)
            let gio = try gioContentType(path)
            #expect(ours == gio, "\(name): actshare says \(ours), gio says \(gio)")
        }
    }

    /// A file swapped for a FIFO between its `stat` and the read of its first bytes: the
    /// open does not wait for a writer, and the bytes are not read from it.
    @Test func aFileSwappedForAFIFOIsNotWaitedFor() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        // A name that does not settle the type, so the first bytes are asked for.
        let path = "\(directory)/unnamed"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("some words\n".utf8)))
        let status = try #require(FileSystem.status(path))
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var type = ""
        Thread.detachNewThread {
            type = ContentType.of(path: path, status: status)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "typing the FIFO waited for a writer")
        #expect(type == "application/octet-stream")
    }

    @Test func subclassesMatchTheirAncestors() {
        #expect(ContentType.isA("text/x-python", "text/plain"))
        #expect(ContentType.isA("application/json", "text/plain"))
        #expect(ContentType.isA("image/png", "application/octet-stream"))
        #expect(!ContentType.isA("image/png", "text/plain"))
        // Aliases are the same type.
        #expect(ContentType.isA("application/x-javascript", "text/javascript"))
    }

    @Test func patternsMatchWithInheritanceAndWildcards() {
        #expect(ContentType.matches("text/x-python", pattern: "text/*"))
        #expect(ContentType.matches("text/x-python", pattern: "text/plain"))
        #expect(ContentType.matches("application/json", pattern: "text/*"))
        #expect(ContentType.matches("image/png", pattern: "image/*"))
        #expect(ContentType.matches("image/png", pattern: "*/*"))
        #expect(!ContentType.matches("image/png", pattern: "text/*"))
        #expect(!ContentType.matches("text/plain", pattern: "image/*"))
        #expect(!ContentType.matches("text/plain", pattern: "text/x-python"))
    }

    @Test func validatesPatterns() {
        for good in ["text/plain", "text/*", "*/*", "application/vnd.oasis.opendocument.text", "image/svg+xml"] {
            #expect(ContentType.isValidPattern(good), "\(good)")
        }
        for bad in ["text", "text/", "/plain", "*/plain", "text/plain/x", "te xt/plain", ""] {
            #expect(!ContentType.isValidPattern(bad), "\(bad)")
        }
    }

    @Test func textItemsArePlainTextUnlessTyped() {
        #expect(Item.text("plain words").contentType == "text/plain")
        #expect(Item.text("<!DOCTYPE html><html><body>x</body></html>").contentType == "text/plain")
        #expect(Item.text("<p>x</p>", contentType: "text/html").contentType == "text/html")
        // A text item is always a text type, whatever it is said to be.
        #expect(Item.text("%PDF-1.4 not really", contentType: "application/pdf").contentType == "text/plain")
    }

    private func gioContentType(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gio")
        process.arguments = ["info", "-a", "standard::content-type", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = output.split(separator: "\n").first { $0.contains("standard::content-type:") } ?? ""
        return line.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }
}
