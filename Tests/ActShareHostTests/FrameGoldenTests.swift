import ActShareCore
import Foundation
import TestSupport
import Testing

@testable import ActShareHost

/// The golden frames of the provider pipe protocol (Tests/Fixtures/Frames, written from
/// the specification by `make-golden.py`): the Swift codec must read each exactly as the
/// C codec does, and build the frames actshare sends byte for byte.
@Suite struct FrameGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Frames")

    static func golden() throws -> (frames: [[UInt8]], readings: [String]) { try GoldenFrames.read(from: directory) }

    @Test func theSwiftCodecReadsEachGoldenFrameAsSpecified() throws {
        let (frames, readings) = try Self.golden()
        #expect(frames.count == readings.count)
        for (bytes, reading) in zip(frames, readings) {
            #expect(GoldenReading.describe(bytes) == reading)
        }
    }

    /// The C codec (the helper's) gives the same readings: actshare-frame-dump, built by
    /// meson (Tests/Fixtures/meson.build), reads them all from one stream.
    @Test func theCCodecReadsThemTheSame() throws {
        let (frames, readings) = try Self.golden()
        let dump = Self.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/bin/actshare-frame-dump")
        #expect(try GoldenFrames.readings(by: dump, of: frames) == readings)
    }

    @Test func framesActshareSendsAreBuiltAsTheGoldenOnes() throws {
        let (frames, _) = try Self.golden()
        let location = SourceLocation(file: "provider.yaml", line: 1, column: 1)
        #expect(Frame.load(library: "/opt/lib/libhello.so", symbols: ["hello_can_perform", "hello_greet", "hello_prepare"]).encoded == frames[0])
        let request = ActivityRequest(
            activityType: "org.example.hello.greet",
            items: [
                Item(kind: .file, path: PathName.decode(Array("/tmp/caf".utf8) + [0xE9] + Array(".txt".utf8)),
                     url: "file:///tmp/caf%E9.txt", contentType: "text/plain", size: 11),
                .text("hi"),
                Item(kind: .data, data: [0, 1, 0xFF], contentType: "application/octet-stream", size: 3),
            ],
            options: [("greeting", "Hey")], subject: "Re: café", target: "device-7")
        #expect(Frame.request(request).encoded == frames[1])
        let count = HookDeclaration(
            role: .perform, symbol: "wc_count", arguments: [.itemData, .option("greeting"), .request], returns: .string,
            isStandard: false, location: location)
        #expect(Frame.call(count, item: 1).encoded == frames[2])
        #expect(Frame.call(.standard(.perform, symbol: "hello_greet", at: location), item: -1).encoded == frames[3])
        #expect(Frame.answer(accepted: false).encoded == frames[4])
    }
}

/// The canonical reading of a frame (see Tests/Fixtures/Frames/frame-dump.c), with the
/// Swift codec.
enum GoldenReading {
    static func describe(_ bytes: [UInt8]) -> String {
        guard bytes.count >= 5 else { return "SHORT" }
        let payload = Array(bytes[5...])
        var reader = FrameReader(payload)
        var line = ""
        let complete: Bool
        do {
            complete = try read(bytes[4], &reader, &line)
        } catch {
            return line + " MALFORMED"
        }
        if complete && !reader.isAtEnd { line += " TRAILING=\(payload.count - reader.consumed)" }
        return line
    }

    private static func quoted(_ bytes: [UInt8]) -> String {
        "\"" + bytes.map { $0 < 0x20 || $0 > 0x7E || $0 == 0x22 || $0 == 0x5C ? String(format: "\\x%02X", $0) : String(UnicodeScalar($0)) }.joined() + "\""
    }

    private static func read(_ type: UInt8, _ r: inout FrameReader, _ line: inout String) throws -> Bool {
        func bytes(_ name: String) throws { line += " \(name)=" + quoted(try r.bytes()) }
        func optional(_ name: String, data: Bool = false) throws {
            let value = data ? try r.optionalData() : try r.optionalBytes()
            line += " \(name)=" + (value.map(quoted) ?? "-")
        }
        func u8(_ name: String) throws { line += " \(name)=\(try r.byte())" }
        func u32(_ name: String) throws -> UInt32 {
            let value = try r.uint32()
            line += " \(name)=\(value)"
            return value
        }
        func u64(_ name: String) throws { line += " \(name)=\(try r.uint64())" }
        guard let kind = Frame.Kind(rawValue: type) else {
            line = "UNKNOWN type=\(type)"
            return true
        }
        switch kind {
        case .sandbox:
            line = "SANDBOX"
            try u8("flags")
            for _ in 0..<(try u32("rules")) { try u8("rights"); try bytes("path") }
            try u64("memory"); try u64("file-size"); _ = try u32("open-files"); _ = try u32("processes"); try u64("temporary-files")
            for _ in 0..<(try u32("sockets")) { try u8("abstract"); try bytes("socket") }
        case .load:
            line = "LOAD"
            try bytes("library")
            for _ in 0..<(try u32("symbols")) { try bytes("symbol") }
        case .request:
            line = "REQUEST"
            try bytes("type")
            try optional("subject")
            for _ in 0..<(try u32("items")) {
                try u8("kind"); try optional("path"); try optional("uri"); try bytes("content-type"); try u64("size")
                try optional("data", data: true)
            }
            for _ in 0..<(try u32("options")) { try bytes("name"); try bytes("value") }
            try optional("target")
        case .call:
            line = "CALL"
            try bytes("symbol")
            try u8("returns")
            let count = try r.byte()
            line += " arguments=\(count)"
            for _ in 0..<count {
                let word = try r.byte()
                line += " word=\(word)"
                if word == UInt8(HookArgument.option("").callCode) { try bytes("option") }
            }
            try u64("item")
        case .answer: line = "ANSWER"; try u8("refused")
        case .ok:
            line = "OK"
            if r.isAtEnd { return true }
            for _ in 0..<(try u32("missing")) { _ = try u32("index") }
        case .error: line = "ERROR"; try u8("kind"); try bytes("message")
        case .progress: line = String(format: "PROGRESS bits=0x%016llx", try r.uint64())
        case .log: line = "LOG"; try u8("level"); try bytes("message")
        case .item: line = "ITEM"; try u8("kind"); try bytes("value"); try optional("content-type")
        case .setError: line = "SET_ERROR"; try bytes("message")
        case .decline: line = "DECLINE"; try bytes("reason")
        case .target:
            line = "TARGET"; try u8("kind"); try bytes("id"); try bytes("title"); try optional("subtitle"); try optional("image")
        case .done: line = "DONE"; try u64("result"); try optional("string")
        case .refused: line = "REFUSED"; try u8("what"); try bytes("subject")
        default: line = "UNKNOWN type=\(type)"
        }
        return true
    }
}
