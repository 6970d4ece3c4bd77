import ActShareCrypto
import CQuickShareWire

/// The sending side of UKEY2 (the "client", who connects): commits to its key in its
/// ClientInit, reads the server's ServerInit, and derives the keys it then sends its
/// ClientFinished with.
public struct Ukey2Client: Sendable {
    private let keyPair: P256KeyPair
    /// What to send first: the ClientInit (a whole Ukey2Message).
    public let clientInit: [UInt8]
    private let clientFinished: [UInt8]
    private var done = false

    public init(keyPair: P256KeyPair) {
        self.keyPair = keyPair
        let (x, y) = keyPair.publicCoordinates()
        let finished = Ukey2Message(.clientFinish, WireArena.pack { arena in
            var message = Securegcm__Ukey2ClientFinished()
            securegcm__ukey2_client_finished__init(&message)
            message.has_public_key = 1
            message.public_key = arena.bytes(Ukey2PublicKey(x: x, y: y).encoded())
            return arena.packed(&message)
        }).encoded()
        clientFinished = finished
        clientInit = Ukey2Message(.clientInit, WireArena.pack { arena in
            var message = Securegcm__Ukey2ClientInit()
            securegcm__ukey2_client_init__init(&message)
            message.has_version = 1
            message.version = Ukey2.version
            message.has_random = 1
            message.random = arena.bytes(RandomBytes.make(Ukey2.randomLength))
            let commitment = arena.message { (commitment: inout Securegcm__Ukey2ClientInit__CipherCommitment) in
                securegcm__ukey2_client_init__cipher_commitment__init(&commitment)
                commitment.has_handshake_cipher = 1
                commitment.handshake_cipher = SECUREGCM__UKEY2_HANDSHAKE_CIPHER__P256_SHA512
                commitment.has_commitment = 1
                commitment.commitment = arena.bytes(SHA512.hash(data: finished))
            }
            message.n_cipher_commitments = 1
            message.cipher_commitments = arena.array([commitment])
            message.next_protocol = arena.string(Ukey2.nextProtocol)
            return arena.packed(&message)
        }).encoded()
    }

    /// From the server's `bytes` (its ServerInit): the ClientFinished to send, and the
    /// connection's keys (as the client).
    public mutating func receiveServerInit(_ bytes: [UInt8]) throws(Ukey2Error) -> (clientFinished: [UInt8], keys: QuickShareKeychain) {
        guard !done else { throw .unexpectedMessage }
        done = true
        let message = try Ukey2Message(decoding: bytes)
        if message.kind == .alert { throw Ukey2Alert.error(from: message.data) }
        guard message.kind == .serverInit else { throw .unexpectedMessage }
        guard let read = Unpacked(message.data, securegcm__ukey2_server_init__unpack) else { throw .badMessage }
        let fields = read.message
        guard fields.has_version != 0, fields.version == Ukey2.version else { throw .badVersion }
        guard fields.has_random != 0, fields.random.len == Ukey2.randomLength else { throw .badRandom }
        guard fields.has_handshake_cipher != 0, fields.handshake_cipher == SECUREGCM__UKEY2_HANDSHAKE_CIPHER__P256_SHA512 else {
            throw .badHandshakeCipher
        }
        guard fields.has_public_key != 0 else { throw .badPublicKey }
        let key = try Ukey2PublicKey(decoding: fields.public_key.array)
        guard let secret = try? keyPair.sharedSecret(peerX: key.x, peerY: key.y),
              let keys = try? QuickShareKeychain(sharedSecret: secret, clientInit: clientInit, serverInit: bytes, role: .client)
        else { throw .badPublicKey }
        return (clientFinished, keys)
    }
}
