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
