import ActShareCrypto

/// The keys of one Quick Share connection, from its UKEY2 handshake (P-256 ECDH), as
/// Google's UKEY2 and Nearby's D2D layer derive them:
///
///     dhs      = SHA-256(the ECDH shared secret)
///     next     = HKDF(dhs, salt "UKEY2 v1 next", info ClientInit ‖ ServerInit)
///     auth     = HKDF(dhs, salt "UKEY2 v1 auth", info ClientInit ‖ ServerInit)
///     d2d(x)   = HKDF(next, salt SHA-256("D2D"), info x)            x: "client", "server"
///     enc(k)   = HKDF(k, salt SHA-256("SecureMessage"), info "ENC:2")
///     sig(k)   = HKDF(k, salt SHA-256("SecureMessage"), info "SIG:1")
///
/// The server encrypts and signs with the server keys and reads with the client's; the
/// client the other way round. ClientInit and ServerInit are the messages' exact bytes
/// (UKEY2 messages, without the length before them).
public struct QuickShareKeychain: Sendable, Equatable {
    /// Which side of the connection the keys are for.
    public enum Role: Sendable { case server, client }

    /// AES-256-CBC: what this side encrypts with, and decrypts with.
    public let encryptKey: [UInt8], decryptKey: [UInt8]
    /// HMAC-SHA256: what this side signs with, and checks the peer's with.
    public let sendHMACKey: [UInt8], receiveHMACKey: [UInt8]
    /// What both sides show the user to compare, through ``pin``.
    public let authString: [UInt8]

    public init(sharedSecret: [UInt8], clientInit: [UInt8], serverInit: [UInt8], role: Role) throws {
        let dhs = SHA256.hash(data: sharedSecret)
        let transcript = clientInit + serverInit
        let next = try HMACSHA256.derive(dhs, salt: Array("UKEY2 v1 next".utf8), info: transcript, length: 32)
        authString = try HMACSHA256.derive(dhs, salt: Array("UKEY2 v1 auth".utf8), info: transcript, length: 32)
        let d2dSalt = SHA256.hash(data: Array("D2D".utf8))
        let client = try HMACSHA256.derive(next, salt: d2dSalt, info: Array("client".utf8), length: 32)
        let server = try HMACSHA256.derive(next, salt: d2dSalt, info: Array("server".utf8), length: 32)
        let salt = SHA256.hash(data: Array("SecureMessage".utf8))
        func encryption(_ key: [UInt8]) throws -> [UInt8] { try HMACSHA256.derive(key, salt: salt, info: Array("ENC:2".utf8), length: 32) }
        func signing(_ key: [UInt8]) throws -> [UInt8] { try HMACSHA256.derive(key, salt: salt, info: Array("SIG:1".utf8), length: 32) }
        let (own, peer) = role == .server ? (server, client) : (client, server)
        encryptKey = try encryption(own)
        sendHMACKey = try signing(own)
        decryptKey = try encryption(peer)
        receiveHMACKey = try signing(peer)
    }

    /// The four digits Quick Share shows on both screens: the authentication string's
    /// bytes, each taken as signed, summed with powers of 31, all modulo 9973.
    public var pin: String { Self.pin(authString) }

    static func pin(_ bytes: [UInt8]) -> String {
        var hash = 0, multiplier = 1
        for byte in bytes {
            hash = (hash + Int(Int8(bitPattern: byte)) * multiplier) % 9973
            multiplier = multiplier * 31 % 9973
        }
        let digits = String(abs(hash))
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
