import ActShareCrypto

/// The QR code a sender shows so that a phone without Bluetooth LE from this machine
/// finds it: `https://quickshare.google/qrcode#key=KEY`, KEY the URL-safe base64 of two
/// zero bytes and a compressed P-256 public key (0x02 or 0x03 by the parity of y, then x).
/// A phone that scanned it advertises, in its endpoint info's QR record, a token derived
/// from KEY, by which the sender knows it:
///
///     advertising token   = HKDF-SHA256(KEY, no salt, info "advertisingContext", 16 bytes)
///     name encryption key = HKDF-SHA256(KEY, no salt, info "encryptionKey", 16 bytes)
///
/// (A hidden phone advertises its name encrypted with the second key instead; not read yet.)
public struct QuickShareQRCode: Sendable {
    /// The key as the URL carries it, decoded.
    public let key: [UInt8]
    public let advertisingToken: [UInt8]
    public let nameEncryptionKey: [UInt8]

    static let urlPrefix = "https://quickshare.google/qrcode#key="

    /// The code of `keyPair`'s public key.
    public init(keyPair: P256KeyPair) throws {
        let (x, y) = keyPair.publicCoordinates()
        try self.init(key: [0, 0, 2 + (y[31] & 1)] + x)
    }

    init(key: [UInt8]) throws {
        self.key = key
        advertisingToken = try HMACSHA256.derive(key, salt: [], info: Array("advertisingContext".utf8), length: 16)
        nameEncryptionKey = try HMACSHA256.derive(key, salt: [], info: Array("encryptionKey".utf8), length: 16)
    }

    /// What the code holds.
    public var url: String { Self.urlPrefix + URLSafeBase64.encode(key) }

    /// Whether a device advertising `info` is the one that scanned this code.
    public func isScanned(by info: QuickShareEndpointInfo) -> Bool {
        info.qrCodeData == advertisingToken
    }
}
