import Foundation
import Testing

import ActShareCrypto
@testable import ActShareQuickShare

/// The UKEY2 and D2D key schedule, against an implementation that is not ours: Python's
/// `cryptography` (Tests/Fixtures/quickshare-keys.py).
@Suite struct QuickShareKeychainTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/quickshare-keys.py").path

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    static func bytes(_ hex: String?) -> [UInt8] {
        let digits = Array((hex ?? "").utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) }
    }

    /// What the oracle derives for these inputs, from the server's side.
    static func expected(_ shared: [UInt8], _ clientInit: [UInt8], _ serverInit: [UInt8]) throws -> [String: String] {
        try ask(["keys", hex(shared), hex(clientInit), hex(serverInit)])
    }

    /// The oracle's answer to `arguments`.
    static func ask(_ arguments: [String]) throws -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [oracle] + arguments
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

    /// ECDH with a key made by another implementation gives the secret it computes.
    @Test func p256SharedSecretsAgreeWithTheOracle() throws {
        let own = try P256KeyPair()
        let (x, y) = own.publicCoordinates()
        let answer = try Self.ask(["ecdh", Self.hex(x), Self.hex(y)])
        #expect(try own.sharedSecret(peerX: Self.bytes(answer["x"]), peerY: Self.bytes(answer["y"])) == Self.bytes(answer["shared"]))
        // And two of ours agree.
        let other = try P256KeyPair()
        let (otherX, otherY) = other.publicCoordinates()
        #expect(try own.sharedSecret(peerX: otherX, peerY: otherY) == other.sharedSecret(peerX: x, peerY: y))
    }

    /// A point that is not on the curve (an invalid-curve attack's) is refused.
    @Test func aPointOffTheCurveIsRefused() throws {
        let own = try P256KeyPair()
        var (x, y) = own.publicCoordinates()
        y[31] ^= 1
        #expect(throws: CryptoError.notAP256Point) { try own.sharedSecret(peerX: x, peerY: y) }
        x = [UInt8](repeating: 0, count: 32)
        #expect(throws: CryptoError.notAP256Point) { try own.sharedSecret(peerX: x, peerY: x) }
    }

    /// The QR code's URL and tokens: the key is the compressed public key after two zero
    /// bytes, the tokens the oracle's HKDF of it.
    @Test func theQRCodeCarriesTheCompressedKeyAndItsTokens() throws {
        let pair = try P256KeyPair()
        let code = try QuickShareQRCode(keyPair: pair)
        let (x, y) = pair.publicCoordinates()
        #expect(code.key == [0, 0, 2 + (y[31] & 1)] + x)
        #expect(code.url.hasPrefix("https://quickshare.google/qrcode#key="))
        #expect(URLSafeBase64.decode(String(code.url.dropFirst("https://quickshare.google/qrcode#key=".count))) == code.key)
        let answer = try Self.ask(["qr", Self.hex(code.key)])
        #expect(Self.hex(code.advertisingToken) == answer["advertising_token"])
        #expect(Self.hex(code.nameEncryptionKey) == answer["name_encryption_key"])
        #expect(QuickShareQRCode(url: code.url)?.key == code.key)
        #expect(QuickShareQRCode(url: "https://quickshare.google/qrcode#key=AAAE") == nil)
    }

    /// A phone that scanned the code is known by its token, or, hidden, by its name sealed
    /// the oracle's way; another code's token, a forged record, or none is another phone.
    @Test func thePhoneThatScannedTheCodeIsKnown() throws {
        let code = try QuickShareQRCode(), other = try QuickShareQRCode()
        var phone = QuickShareEndpointInfo(deviceType: .phone, name: "Pixel")
        #expect(code.scannedName(by: phone) == nil)
        phone.qrCodeData = other.advertisingToken
        #expect(code.scannedName(by: phone) == nil)
        phone.qrCodeData = code.advertisingToken
        #expect(code.scannedName(by: try QuickShareEndpointInfo(decoding: phone.encoded())) == "Pixel")

        var hidden = QuickShareEndpointInfo(deviceType: .tablet, name: nil)
        hidden.qrCodeData = Self.bytes(try Self.ask(["hidden", Self.hex(code.key), Self.hex(Array("Ann's Tab".utf8))])["record"])
        let advertised = try QuickShareEndpointInfo(decoding: hidden.encoded())
        #expect(advertised.isHidden && code.scannedName(by: advertised) == "Ann's Tab")
        #expect(other.scannedName(by: advertised) == nil)
        hidden.qrCodeData?[20] ^= 1
        #expect(code.scannedName(by: hidden) == nil)
        hidden.qrCodeData = Self.bytes(try Self.ask(["hidden", Self.hex(code.key), Self.hex(Array("two\nlines".utf8))])["record"])
        #expect(code.scannedName(by: hidden) == "tablet", "a name that could fake a line is not shown")
    }

    /// The sender's proof that it showed the code: the auth string signed as the oracle
    /// verifies it, and as the phone's side (``QuickShareQRCode/isSigned(_:authString:)``) does.
    @Test func theHandshakeDataIsTheAuthStringSigned() throws {
        let code = try QuickShareQRCode(), auth = Self.random(32)
        let signature = try #require(try code.handshakeData(authString: auth))
        #expect(try Self.ask(["verify", Self.hex(code.key), Self.hex(auth), Self.hex(signature)])["valid"] == "yes")
        let read = try #require(QuickShareQRCode(url: code.url))
        #expect(try read.handshakeData(authString: auth) == nil, "only the code's owner signs")
        #expect(read.isSigned(signature, authString: auth))
        #expect(!read.isSigned(signature, authString: Self.random(32)))
    }

    /// AES-256-CBC and HMAC-SHA256 as Python's cryptography makes them; a forged body or
    /// signature is caught, never a crash.
    @Test(arguments: [0, 1, 15, 16, 17, 4096])
    func secureMessageCryptographyMatchesTheOracle(_ length: Int) throws {
        let key = Self.random(32), iv = Self.random(16), plaintext = Self.random(length)
        let answer = try Self.ask(["cbc", Self.hex(key), Self.hex(iv), Self.hex(plaintext)])
        let ciphertext = try AES256CBC.encrypt(plaintext, key: key, iv: iv)
        #expect(Self.hex(ciphertext) == answer["ciphertext"])
        #expect(Self.hex(HMACSHA256.authenticationCode(key: key, ciphertext)) == answer["hmac"])
        #expect(try AES256CBC.decrypt(ciphertext, key: key, iv: iv) == plaintext)
        #expect(HMACSHA256.isAuthentic(ciphertext, code: Self.bytes(answer["hmac"]), key: key))
        var forged = ciphertext
        forged[forged.count - 1] ^= 0x80
        #expect(!HMACSHA256.isAuthentic(forged, code: Self.bytes(answer["hmac"]), key: key))
        #expect(!HMACSHA256.isAuthentic(ciphertext, code: [], key: key))
        #expect(throws: CryptoError.doesNotDecrypt) { try AES256CBC.decrypt(Array(ciphertext.dropLast()), key: key, iv: iv) }
        #expect(throws: CryptoError.self) { try AES256CBC.decrypt(ciphertext, key: key, iv: [0]) }
    }
}
