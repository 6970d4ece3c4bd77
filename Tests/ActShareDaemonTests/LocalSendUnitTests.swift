import ActShareHandoff
import Testing

@testable import ActShareDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The LocalSend parts that need no network: queries read and written, the pins kept, the
/// PIN attempts counted.
@Suite struct LocalSendUnitTests {
    @Test func aQueryIsReadAsItsFieldsAndWrittenEscaped() {
        let (path, fields) = LocalSendServer.split("/api/localsend/v2/upload?sessionId=s1&fileId=a%2Fb&token=t+1&token=second")
        #expect(path == "/api/localsend/v2/upload")
        #expect(fields == ["sessionId": "s1", "fileId": "a/b", "token": "t 1"], "the first of a repeated field counts")
        #expect(LocalSendServer.split("/api/localsend/v2/info") == ("/api/localsend/v2/info", [:]))
        #expect(LocalSendServer.percentDecoded("%zz%4") == "%zz%4", "what is not an escape stays")
        #expect(LocalSendSender.queryEscaped("47 11&x=ü") == "47%2011%26x%3D%C3%BC")
    }

    @Test func aFilesTypeIsItsExtensions() {
        #expect(LocalSendSender.fileType("Trip/IMG_1.JPG") == "image/jpeg")
        #expect(LocalSendSender.fileType("notes") == "application/octet-stream")
        #expect(LocalSendSender.fileType("a.tar.unknown") == "application/octet-stream")
    }

    /// Text from LocalSend (one `text/plain` file with a preview) is asked about as a
    /// message, shown with its words (escapes visible, marked when shortened); anything
    /// else as files.
    @Test func aMessageIsAskedAboutWithItsText() {
        let text = LocalSendFile(id: "t", fileName: "message.txt", size: 12, fileType: "text/plain; charset=utf-8", preview: "Hi\u{1B}[2J 👋")
        #expect(LocalSendServer.message([text]) == "Hi\u{1B}[2J 👋")
        #expect(LocalSendServer.message([text, text]) == nil, "several files are files")
        let file = LocalSendFile(id: "f", fileName: "a.txt", size: 3, fileType: "text/plain")
        #expect(LocalSendServer.message([file]) == nil, "no preview: a file")
        let long = String(repeating: "é", count: 600)
        let request = LocalSendRequest(id: "r1", device: "Pixel", address: "10.0.0.2", fingerprint: String(repeating: "A", count: 64), pinned: false,
                                       files: [.init(name: "message.txt", size: 1200)], bytes: 1200, message: long, expires: 60)
        #expect(request.message?.count == LocalSendRequest.messageShown)
        let (summary, body) = LocalSendPrompt.words(request)
        #expect(summary == "Pixel sends a message")
        #expect(body.hasPrefix(String(repeating: "é", count: LocalSendRequest.messageShown) + "…\n\n"), "\(body.prefix(20))")
        #expect(body.hasSuffix("not a device met before (certificate AAAAAAAAAAAAAAAA…)."))
        let escaped = LocalSendRequest(id: "r2", device: "Pixel", address: "10.0.0.2", fingerprint: "", pinned: true,
                                       files: [.init(name: "message.txt", size: 11)], bytes: 11, message: "Hi\u{1B}[2J 👋", expires: 60)
        #expect(LocalSendPrompt.words(escaped).body.hasPrefix("Hi\\e[2J 👋\n\n"))
    }

    /// A name cannot draw a second line or turn the text around in a notice: line and
    /// paragraph separators, line feeds and every bidirectional control are shown as
    /// escapes, in the LocalSend question and in the notice of files received alike.
    @Test func namesInANoticeShowTheirSeparatorsAndBidiControls() {
        let name = "invoice\u{2028}Accepted: from your bank\u{2029}x\u{202E}fdp.exe\u{200F}\u{061C}\u{2066}\n.pdf"
        let request = LocalSendRequest(id: "r3", device: "Pixel\u{2028}Your bank", address: "10.0.0.2", fingerprint: "", pinned: true,
                                       files: [.init(name: name, size: 5)], bytes: 5, message: nil, expires: 60)
        let (summary, body) = LocalSendPrompt.words(request)
        let (received, list) = ReceivedNotice.words([(from: "desk\u{2029}bank", files: 1, names: [name])])
        for shown in [summary, body, received, list] {
            #expect(!shown.unicodeScalars.contains { [0x2028, 0x2029, 0x202E, 0x200F, 0x061C, 0x2066].contains($0.value) }, "\(shown)")
        }
        #expect(body.hasPrefix("invoice\\u{2028}Accepted: from your bank\\u{2029}x\\u{202E}fdp.exe\\u{200F}\\u{061C}\\u{2066}\\x0A.pdf\n"), "\(body)")
        #expect(summary.hasPrefix("Pixel\\u{2028}Your bank wants to send 1 file"), "\(summary)")
        #expect(!list.contains("\n") && received.contains("desk\\u{2029}bank"), "\(received) \(list)")
    }

    @Test func pinsAreKeptByNameAndForgotten() async throws {
        let folder = "/tmp/actshare-pins-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o700)
        defer { _ = system("rm -rf '\(folder)'") }
        let file = folder + "/localsend-devices.json"
        let pins = LocalSendPins(file: file)
        try await pins.learn(alias: "Pixel", fingerprint: String(repeating: "ab", count: 32))
        let again = LocalSendPins(file: file)
        #expect(await again.pin(fingerprint: String(repeating: "AB", count: 32))?.alias == "Pixel", "kept across restarts, fingerprints in capitals")
        #expect(await again.pins(named: "pixel").count == 1, "names compared without case")
        try await again.learn(alias: "Pixel", fingerprint: String(repeating: "ab", count: 32), always: true)
        #expect(await again.pin(fingerprint: String(repeating: "ab", count: 32))?.always == true)
        #expect(try await again.forget("PIXEL").count == 1)
        #expect(await LocalSendPins(file: file).pins.isEmpty)
    }

    @Test func threeWrongPinsLockAnAddressOut() async {
        let attempts = PinAttempts()
        for _ in 0..<LocalSendServer.pinAttempts {
            #expect(await attempts.mayTry("10.0.0.2"))
            await attempts.failed("10.0.0.2")
        }
        #expect(await !attempts.mayTry("10.0.0.2"))
        #expect(await attempts.mayTry("10.0.0.3"), "another address is not held to it")
    }
}
