import Foundation
import Testing

@testable import ActShareQuickShare

/// The UKEY2 and D2D key schedule, against an implementation that is not ours: Python's
/// `cryptography` (Tests/Fixtures/quickshare-keys.py).
@Suite struct QuickShareKeychainTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/quickshare-keys.py").path

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    /// What the oracle derives for these inputs, from the server's side.
    static func expected(_ shared: [UInt8], _ clientInit: [UInt8], _ serverInit: [UInt8]) throws -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [oracle, hex(shared), hex(clientInit), hex(serverInit)]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3-cryptography missing? run scripts/install-deps")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    @Test(arguments: 0..<4)
    func theKeysAreTheOraclesFromBothSides(_ round: Int) throws {
        // Messages as long as real ones (a ClientInit holds a commitment, a ServerInit a key).
        let shared = Self.random(32), clientInit = Self.random(60 + round * 37), serverInit = Self.random(90 + round)
        let expected = try Self.expected(shared, clientInit, serverInit)
        let server = try QuickShareKeychain(sharedSecret: shared, clientInit: clientInit, serverInit: serverInit, role: .server)
        #expect(Self.hex(server.encryptKey) == expected["encrypt"])
        #expect(Self.hex(server.sendHMACKey) == expected["send_hmac"])
        #expect(Self.hex(server.decryptKey) == expected["decrypt"])
        #expect(Self.hex(server.receiveHMACKey) == expected["receive_hmac"])
        #expect(Self.hex(server.authString) == expected["auth"])
        // The client reads with what the server sends with, and the other way round.
        let client = try QuickShareKeychain(sharedSecret: shared, clientInit: clientInit, serverInit: serverInit, role: .client)
        #expect(client.encryptKey == server.decryptKey && client.decryptKey == server.encryptKey)
        #expect(client.sendHMACKey == server.receiveHMACKey && client.receiveHMACKey == server.sendHMACKey)
        #expect(client.pin == server.pin)
    }

    /// A different transcript (a message changed in flight) gives other keys and, almost
    /// always, another PIN: what the user compares.
    @Test func aChangedMessageChangesTheKeys() throws {
        let shared = Self.random(32), clientInit = Self.random(70), serverInit = Self.random(90)
        var tampered = serverInit
        tampered[10] ^= 1
        let one = try QuickShareKeychain(sharedSecret: shared, clientInit: clientInit, serverInit: serverInit, role: .server)
        let other = try QuickShareKeychain(sharedSecret: shared, clientInit: clientInit, serverInit: tampered, role: .server)
        #expect(one.encryptKey != other.encryptKey && one.authString != other.authString)
    }

    /// Chromium's PIN: bytes as signed, weighted by powers of 31, modulo 9973, four digits.
    @Test func thePINIsFourDigitsOfTheAuthenticationString() {
        #expect(QuickShareKeychain.pin([]) == "0000")
        #expect(QuickShareKeychain.pin([1]) == "0001")
        #expect(QuickShareKeychain.pin([1, 1]) == "0032")  // 1 + 1·31
        #expect(QuickShareKeychain.pin([0xFF]) == "0001")  // −1, shown without its sign
        #expect(QuickShareKeychain.pin([0, 0, 1]) == "0961")  // 31² = 961
        #expect(QuickShareKeychain.pin([0, 0, 0, 1]) == "9845")  // 31³ = 29791 = 2·9973 + 9845
    }
}
