import ActShareCrypto
import CQuickShareWire
import Testing

@testable import ActShareQuickShare

/// UKEY2 between our client and our server, and every way a stranger's message can be
/// wrong at each step: each refused with its own error, never a crash, never keys.
@Suite struct Ukey2HandshakeTests {
    /// A handshake: the client's first message, the server's answer, and both sides' keys.
    static func handshake() throws -> (client: QuickShareKeychain, server: QuickShareKeychain) {
        var client = Ukey2Client(keyPair: try P256KeyPair())
        var server = Ukey2Server(keyPair: try P256KeyPair())
        let serverInit = try server.receiveClientInit(client.clientInit)
        let (finished, clientKeys) = try client.receiveServerInit(serverInit)
        return (clientKeys, try server.receiveClientFinished(finished))
    }

    /// A ClientInit with these fields changed from what a good client sends.
    static func clientInit(version: Int32 = 1, random: Int = 32, cipher: Securegcm__Ukey2HandshakeCipher = SECUREGCM__UKEY2_HANDSHAKE_CIPHER__P256_SHA512,
                           commitment: [UInt8] = [UInt8](repeating: 7, count: 64), next: String = "AES_256_CBC-HMAC_SHA256") -> [UInt8] {
        Ukey2Message(.clientInit, WireArena.pack { arena in
            var message = Securegcm__Ukey2ClientInit()
            securegcm__ukey2_client_init__init(&message)
            message.has_version = 1
            message.version = version
            message.has_random = 1
            message.random = arena.bytes([UInt8](repeating: 1, count: random))
            let entry = arena.message { (entry: inout Securegcm__Ukey2ClientInit__CipherCommitment) in
                securegcm__ukey2_client_init__cipher_commitment__init(&entry)
                entry.has_handshake_cipher = 1
                entry.handshake_cipher = cipher
                entry.has_commitment = 1
                entry.commitment = arena.bytes(commitment)
            }
            message.n_cipher_commitments = 1
            message.cipher_commitments = arena.array([entry])
            message.next_protocol = arena.string(next)
            return arena.packed(&message)
        }).encoded()
    }

    @Test func bothSidesDeriveTheSameKeysAndPIN() throws {
        let (client, server) = try Self.handshake()
        #expect(client.encryptKey == server.decryptKey && client.decryptKey == server.encryptKey)
        #expect(client.sendHMACKey == server.receiveHMACKey && client.receiveHMACKey == server.sendHMACKey)
        #expect(client.pin == server.pin && client.pin.count == 4)
        // A second handshake has keys of its own.
        #expect(try Self.handshake().server.encryptKey != server.encryptKey)
    }

    @Test func aClientInitOutOfTheRulesIsRefused() throws {
        func refusal(_ bytes: [UInt8]) throws -> Ukey2Error? {
            var server = Ukey2Server(keyPair: try P256KeyPair())
            do { _ = try server.receiveClientInit(bytes) } catch { return error }
            return nil
        }
        #expect(try refusal(Self.clientInit()) == nil)
        #expect(try refusal(Self.clientInit(version: 2)) == .badVersion)
        #expect(try refusal(Self.clientInit(random: 31)) == .badRandom)
        #expect(try refusal(Self.clientInit(cipher: SECUREGCM__UKEY2_HANDSHAKE_CIPHER__CURVE25519_SHA512)) == .badHandshakeCipher)
        #expect(try refusal(Self.clientInit(commitment: [1, 2, 3])) == .badHandshakeCipher)
        #expect(try refusal(Self.clientInit(next: "NONE")) == .badNextProtocol)
        #expect(try refusal([0xFF, 0xFF, 0xFF]) == .badMessage)
        #expect(try refusal([]) == .badMessage)
        #expect(try refusal(Ukey2Message(.clientFinish, []).encoded()) == .unexpectedMessage)
        // Each refusal but a broken commitment has an alert for the client.
        #expect(Ukey2Server.alert(for: .badVersion).map { try? Ukey2Message(decoding: $0).kind } == .alert)
        #expect(Ukey2Server.alert(for: .commitmentMismatch) == nil)
    }

    /// A ClientFinished with a key other than the one committed to (a man in the middle
    /// swapping keys) is refused, as is a second ClientInit.
    @Test func aKeyNotCommittedToIsRefused() throws {
        let client = Ukey2Client(keyPair: try P256KeyPair())
        var other = Ukey2Client(keyPair: try P256KeyPair())
        var server = Ukey2Server(keyPair: try P256KeyPair())
        let serverInit = try server.receiveClientInit(client.clientInit)
        #expect(throws: Ukey2Error.unexpectedMessage) { _ = try server.receiveClientInit(client.clientInit) }
        let (swapped, _) = try other.receiveServerInit(serverInit)
        #expect(throws: Ukey2Error.commitmentMismatch) { _ = try server.receiveClientFinished(swapped) }
        // And nothing more is taken on that connection.
        #expect(throws: Ukey2Error.unexpectedMessage) { _ = try server.receiveClientFinished(swapped) }
    }

    /// A ServerInit with a point off the curve, or the peer's alert, ends the client's side.
    @Test func aBadServerInitOrAnAlertEndsTheClient() throws {
        var client = Ukey2Client(keyPair: try P256KeyPair())
        let offCurve = Ukey2Message(.serverInit, WireArena.pack { arena in
            var message = Securegcm__Ukey2ServerInit()
            securegcm__ukey2_server_init__init(&message)
            message.has_version = 1
            message.version = 1
            message.has_random = 1
            message.random = arena.bytes([UInt8](repeating: 0, count: 32))
            message.has_handshake_cipher = 1
            message.handshake_cipher = SECUREGCM__UKEY2_HANDSHAKE_CIPHER__P256_SHA512
            message.has_public_key = 1
            message.public_key = arena.bytes(Ukey2PublicKey(x: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 2, count: 32)).encoded())
            return arena.packed(&message)
        }).encoded()
        #expect(throws: Ukey2Error.badPublicKey) { _ = try client.receiveServerInit(offCurve) }
        var alerted = Ukey2Client(keyPair: try P256KeyPair())
        let alert = try #require(Ukey2Server.alert(for: .badVersion))
        #expect(throws: Ukey2Error.alert(100, "")) { _ = try alerted.receiveServerInit(alert) }
    }

    /// Coordinates as Java writes them: a sign byte when the top bit is set, shorter when
    /// small; a negative number or 34 bytes is no coordinate.
    @Test func coordinatesAreTwosComplement() throws {
        let high = [UInt8](repeating: 0xF0, count: 32), small = [UInt8](repeating: 0, count: 31) + [5]
        #expect(Ukey2PublicKey.signed(high) == [0] + high)
        #expect(Ukey2PublicKey.signed(small) == [5])
        #expect(Ukey2PublicKey.signed([UInt8](repeating: 0, count: 32)) == [0])
        #expect(try Ukey2PublicKey.unsigned([0] + high) == high)
        #expect(try Ukey2PublicKey.unsigned([5]) == small)
        #expect(throws: Ukey2Error.badPublicKey) { try Ukey2PublicKey.unsigned(high) }
        #expect(throws: Ukey2Error.badPublicKey) { try Ukey2PublicKey.unsigned([0, 1] + high) }
        #expect(throws: Ukey2Error.badPublicKey) { try Ukey2PublicKey.unsigned([]) }
        let key = Ukey2PublicKey(x: high, y: small)
        #expect(try Ukey2PublicKey(decoding: key.encoded()) == key)
    }
}

/// Frames after the handshake: sealed and opened both ways, and a forged, replayed or
/// reordered frame refused.
@Suite struct SecureChannelTests {
    static func pair() throws -> (client: SecureChannel, server: SecureChannel) {
        let (client, server) = try Ukey2HandshakeTests.handshake()
        return (SecureChannel(keys: client), SecureChannel(keys: server))
    }

    @Test func framesGoBothWaysInOrder() throws {
        var (client, server) = try Self.pair()
        for length in [0, 1, 16, 1000, 70_000] {
            let frame = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            #expect(try server.open(try client.seal(frame)) == frame)
            #expect(try client.open(try server.seal(frame)) == frame)
        }
    }

    @Test func aReplayedOrSkippedFrameIsRefused() throws {
        var (client, server) = try Self.pair()
        let first = try client.seal([1]), second = try client.seal([2]), third = try client.seal([3])
        #expect(throws: SecureChannelError.badSequenceNumber(expected: 1, received: 2)) { _ = try server.open(second) }
        #expect(try server.open(first) == [1])
        #expect(throws: SecureChannelError.badSequenceNumber(expected: 2, received: 1)) { _ = try server.open(first) }
        #expect(throws: SecureChannelError.badSequenceNumber(expected: 2, received: 3)) { _ = try server.open(third) }
        #expect(try server.open(second) == [2])
        // A frame sealed for the other direction is not authentic here.
        var (_, otherServer) = try Self.pair()
        #expect(throws: SecureChannelError.badSignature) { _ = try otherServer.open(try server.seal([9])) }
    }

    @Test func aForgedFrameIsRefusedBeforeItIsDecrypted() throws {
        var (client, server) = try Self.pair()
        let sealed = try client.seal(Array("hello".utf8))
        for index in stride(from: 0, to: sealed.count, by: 7) {
            var forged = sealed
            forged[index] ^= 0x01
            #expect(throws: SecureChannelError.self) { _ = try server.open(forged) }
        }
        #expect(throws: SecureChannelError.badMessage) { _ = try server.open([0x0A]) }
        #expect(try server.open(sealed) == Array("hello".utf8))
    }
}
