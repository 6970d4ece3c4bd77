import ActShareCrypto

/// The QR code a sender shows so that a phone without Bluetooth LE from this machine
/// finds it: `https://quickshare.google/qrcode#key=KEY`, KEY the URL-safe base64 of two
/// zero bytes and a compressed P-256 public key (0x02 or 0x03 by the parity of y, then x).
/// A phone that scanned it advertises, in its endpoint info's record 1, a token derived
/// from KEY, by which the sender knows it:
///
///     advertising token   = HKDF-SHA256(KEY, no salt, info "advertisingContext", 16 bytes)
///     name encryption key = HKDF-SHA256(KEY, no salt, info "encryptionKey", 16 bytes)
///
/// A visible phone's record 1 is the token; a hidden one's is its name sealed with
/// AES-128-GCM under the name key (a 12-byte nonce, then the ciphertext and tag; the
/// token authenticated with it), which only the code's owner opens. Once connected, the
/// sender proves it owns the code: the UKEY2 auth string signed with the code's private
/// key (ECDSA P-256, SHA-256; r and s) in its paired-key encryption frame.
public struct QuickShareQRCode: Sendable {
    /// The key as the URL carries it, decoded.
    public let key: [UInt8]
    public let advertisingToken: [UInt8]
    public let nameEncryptionKey: [UInt8]
    /// The private key, on the side that shows the code.
    private let keyPair: P256KeyPair?

    static let urlPrefix = "https://quickshare.google/qrcode#key="

    /// A new code, with a key pair of its own.
    public init() throws {
        try self.init(keyPair: P256KeyPair())
    }

    /// The code of `keyPair`'s public key, signing with it.
    public init(keyPair: P256KeyPair) throws {
        let (x, y) = keyPair.publicCoordinates()
        try self.init(key: [0, 0, 2 + (y[31] & 1)] + x, keyPair: keyPair)
    }

    /// The code a URL holds (`https://quickshare.google/qrcode#key=…`), as a phone reads
    /// it: nil for anything else.
    public init?(url: String) {
        guard url.hasPrefix(Self.urlPrefix), let key = URLSafeBase64.decode(String(url.dropFirst(Self.urlPrefix.count))),
              key.count == 35, key[0] == 0, key[1] == 0, key[2] == 2 || key[2] == 3
        else { return nil }
        try? self.init(key: key, keyPair: nil)
    }

    private init(key: [UInt8], keyPair: P256KeyPair?) throws {
        self.key = key
        self.keyPair = keyPair
        advertisingToken = try HMACSHA256.derive(key, salt: [], info: Array("advertisingContext".utf8), length: 16)
        nameEncryptionKey = try HMACSHA256.derive(key, salt: [], info: Array("encryptionKey".utf8), length: 16)
    }

    /// What the code holds.
    public var url: String { Self.urlPrefix + URLSafeBase64.encode(key) }

    /// The name of the device advertising `info` when it is the one that scanned this
    /// code (a hidden device's name opened with the code's key; its kind when that is not
    /// a name to show); nil for any other device.
    public func scannedName(by info: QuickShareEndpointInfo) -> String? {
        guard let record = info.qrCodeData else { return nil }
        if !info.isHidden { return ConstantTime.isEqual(record, advertisingToken) ? info.shownName : nil }
        guard record.count > 12 + 16,
              let name = try? AES128GCM.open(Array(record.dropFirst(12)), key: nameEncryptionKey, nonce: Array(record.prefix(12)),
                                             authenticating: advertisingToken)
        else { return nil }
        guard let text = String(validating: name, as: UTF8.self), !text.isEmpty, name.count <= QuickShareEndpointInfo.maxNameLength,
              !text.unicodeScalars.contains(where: QuickShareEndpointInfo.isForbiddenInAName)
        else { return info.deviceType.name }
        return text
    }

    /// What proves this side showed the code: `authString` (the UKEY2 one) signed with
    /// its private key; nil on a side that only read the code.
    public func handshakeData(authString: [UInt8]) throws -> [UInt8]? {
        try keyPair?.signature(of: authString)
    }

    /// Whether `data` is the owner's signature of `authString`: the phone's check, for
    /// tests. Either parity of y is tried, as phones do for senders that always write 02.
    public func isSigned(_ data: [UInt8], authString: [UInt8]) -> Bool {
        let x = Array(key[3...])
        return P256KeyPair.yCoordinates(x: x).contains { P256KeyPair.verify(data, of: authString, x: x, y: $0) }
    }
}
