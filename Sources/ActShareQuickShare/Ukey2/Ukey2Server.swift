import ActShareCrypto
import CQuickShareWire

/// The receiving side of UKEY2 (the "server", who was connected to): reads the client's
/// ClientInit, answers with its ServerInit, and takes the ClientFinished only if its
/// SHA-512 is the commitment the ClientInit made, then derives the connection's keys.
///
/// Every message is a stranger's: anything but exactly what the handshake allows at
/// each step throws a ``Ukey2Error``, and ``alert(for:)`` gives what to send before
/// closing.
public struct Ukey2Server: Sendable {
    private let keyPair: P256KeyPair
    private var clientInit: [UInt8]?
    private var serverInit: [UInt8]?
    private var commitment: [UInt8] = []

    public init(keyPair: P256KeyPair) {
        self.keyPair = keyPair
    }

    /// The ServerInit (a whole Ukey2Message) to answer the client's `bytes` with.
    public mutating func receiveClientInit(_ bytes: [UInt8]) throws(Ukey2Error) -> [UInt8] {
        guard clientInit == nil else { throw .unexpectedMessage }
        let message = try Ukey2Message(decoding: bytes)
        guard message.kind == .clientInit else { throw .unexpectedMessage }
        guard let read = Unpacked(message.data, securegcm__ukey2_client_init__unpack) else { throw .badMessage }
        let fields = read.message
        guard fields.has_version != 0, fields.version == Ukey2.version else { throw .badVersion }
        guard fields.has_random != 0, fields.random.len == Ukey2.randomLength else { throw .badRandom }
        let commitments = (0..<fields.n_cipher_commitments).compactMap { fields.cipher_commitments[$0]?.pointee }
        guard let chosen = commitments.first(where: { $0.has_handshake_cipher != 0 && $0.handshake_cipher == SECUREGCM__UKEY2_HANDSHAKE_CIPHER__P256_SHA512 }),
              chosen.has_commitment != 0, chosen.commitment.len == 64
        else { throw .badHandshakeCipher }
        guard let next = fields.next_protocol, String(cString: next) == Ukey2.nextProtocol else { throw .badNextProtocol }
        commitment = chosen.commitment.array
        clientInit = bytes
        let (x, y) = keyPair.publicCoordinates()
        let reply = Ukey2Message(.serverInit, WireArena.pack { arena in
            var server = Securegcm__Ukey2ServerInit()
            securegcm__ukey2_server_init__init(&server)
            server.has_version = 1
            server.version = Ukey2.version
            server.has_random = 1
            server.random = arena.bytes(RandomBytes.make(Ukey2.randomLength))
            server.has_handshake_cipher = 1
            server.handshake_cipher = SECUREGCM__UKEY2_HANDSHAKE_CIPHER__P256_SHA512
            server.has_public_key = 1
            server.public_key = arena.bytes(Ukey2PublicKey(x: x, y: y).encoded())
            return arena.packed(&server)
        }).encoded()
        serverInit = reply
        return reply
    }

    /// The connection's keys (as the server), from the client's ClientFinished `bytes`.
    public mutating func receiveClientFinished(_ bytes: [UInt8]) throws(Ukey2Error) -> QuickShareKeychain {
        guard let clientInit, let serverInit else { throw .unexpectedMessage }
        self.serverInit = nil  // one ClientFinished, whatever it holds
        let message = try Ukey2Message(decoding: bytes)
        if message.kind == .alert { throw Ukey2Alert.error(from: message.data) }
        guard message.kind == .clientFinish else { throw .unexpectedMessage }
        // The commitment covers the whole envelope, as it came.
        guard ConstantTime.isEqual(SHA512.hash(data: bytes), commitment) else { throw .commitmentMismatch }
        guard let read = Unpacked(message.data, securegcm__ukey2_client_finished__unpack), read.message.has_public_key != 0 else {
            throw .badMessage
        }
        let key = try Ukey2PublicKey(decoding: read.message.public_key.array)
        guard let secret = try? keyPair.sharedSecret(peerX: key.x, peerY: key.y) else { throw .badPublicKey }
        guard let keys = try? QuickShareKeychain(sharedSecret: secret, clientInit: clientInit, serverInit: serverInit, role: .server) else {
            throw .badPublicKey
        }
        return keys
    }

    /// The Ukey2Alert to send the client before closing, for `error`; nil where the
    /// client should learn nothing (its own alert, a broken commitment).
    public static func alert(for error: Ukey2Error) -> [UInt8]? {
        let type: Securegcm__Ukey2Alert__AlertType
        switch error {
        case .badMessage: type = SECUREGCM__UKEY2_ALERT__ALERT_TYPE__BAD_MESSAGE_DATA
        case .unexpectedMessage: type = SECUREGCM__UKEY2_ALERT__ALERT_TYPE__INCORRECT_MESSAGE
        case .badVersion: type = SECUREGCM__UKEY2_ALERT__ALERT_TYPE__BAD_VERSION
        case .badRandom: type = SECUREGCM__UKEY2_ALERT__ALERT_TYPE__BAD_RANDOM
        case .badHandshakeCipher: type = SECUREGCM__UKEY2_ALERT__ALERT_TYPE__BAD_HANDSHAKE_CIPHER
        case .badNextProtocol: type = SECUREGCM__UKEY2_ALERT__ALERT_TYPE__BAD_NEXT_PROTOCOL
        case .badPublicKey: type = SECUREGCM__UKEY2_ALERT__ALERT_TYPE__BAD_PUBLIC_KEY
        case .commitmentMismatch, .alert: return nil
        }
        return Ukey2Message(.alert, WireArena.pack { arena in
            var alert = Securegcm__Ukey2Alert()
            securegcm__ukey2_alert__init(&alert)
            alert.has_type = 1
            alert.type = type
            return arena.packed(&alert)
        }).encoded()
    }
}
