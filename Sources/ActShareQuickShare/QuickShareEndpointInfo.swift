/// What a Quick Share device says of itself: the TXT record `n` of its advertisement (in
/// URL-safe base64) and the `endpointInfo` of its connection request (as bytes).
///
/// - one byte: the version (3 bits), hidden (1 bit; 0 = visible), the device type (3
///   bits), a reserved bit, from the most significant bit down;
/// - 16 bytes of metadata (a salt and an encrypted key that only Google's servers can
///   read: random is fine);
/// - when visible, the name in UTF-8 after a one-byte length;
/// - then TLV records, one byte type and one byte length each: 1, the QR code's
///   advertising token (or the name encrypted with it); 2, a vendor id.
public struct QuickShareEndpointInfo: Sendable, Equatable {
    /// The kinds of device Android draws an icon for.
    public enum DeviceType: UInt8, Sendable {
        case unknown = 0, phone, tablet, laptop, car, foldable, xr

        /// Its name in words (`phone`), spelled out: the daemon's modules carry no
        /// reflection metadata in release builds, so a case printed whole would show its
        /// type's name instead.
        public var name: String {
            switch self {
            case .unknown: "device"
            case .phone: "phone"
            case .tablet: "tablet"
            case .laptop: "laptop"
            case .car: "car"
            case .foldable: "foldable"
            case .xr: "headset"
            }
        }
    }

    public var version: UInt8 = 1
    public var isHidden = false
    public var deviceType: DeviceType = .laptop
    public var metadata: [UInt8]
    /// The name shown to the user; nil when hidden.
    public var name: String?
    /// TLV type 1: what a device that scanned a QR code advertises.
    public var qrCodeData: [UInt8]?
    /// TLV type 2.
    public var vendor: UInt8?

    /// The name to show: the one it gives, or its kind when it hides it.
    public var shownName: String { name ?? deviceType.name }

    /// The most bytes of a name: one byte says its length.
    public static let maxNameLength = 255

    public init(deviceType: DeviceType, name: String?, metadata: [UInt8]? = nil) {
        self.deviceType = deviceType
        self.name = name
        isHidden = name == nil
        var generator = SystemRandomNumberGenerator()
        self.metadata = metadata ?? (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Control characters, line and paragraph separators and bidirectional controls: what
    /// could fake a second line or turn a name around where it is shown. (Other format
    /// characters stay: the zero-width joiner makes emoji sequences.)
    static func isForbiddenInAName(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x2028...0x2029).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            || scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
    }

    /// What a TXT record `n` says (URL-safe base64 of the bytes), read as any peer's bytes are.
    public init(textRecord: String) throws(QuickShareError) {
        guard let bytes = URLSafeBase64.decode(textRecord) else { throw .malformedEndpointInfo("the TXT record is not base64") }
        try self.init(decoding: bytes)
    }

    /// The TXT record `n` a receiver advertises: ``encoded()`` in URL-safe base64.
    public var textRecord: String { URLSafeBase64.encode(encoded()) }

    /// The bytes, a name cut at a character boundary to 255 bytes.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [version << 5 | (isHidden ? 1 << 4 : 0) | deviceType.rawValue << 1]
        out += metadata.prefix(16) + [UInt8](repeating: 0, count: max(0, 16 - metadata.count))
        if !isHidden, let name {
            var bytes = Array(name.utf8)
            while bytes.count > Self.maxNameLength || (!bytes.isEmpty && String(validating: bytes, as: UTF8.self) == nil) {
                bytes.removeLast()
            }
            out += [UInt8(bytes.count)] + bytes
        }
        if let qrCodeData, qrCodeData.count <= 255 { out += [1, UInt8(qrCodeData.count)] + qrCodeData }
        if let vendor { out += [2, 1, vendor] }
        return out
    }

    /// Reads what a peer sent, whatever it is: every length is checked against what is
    /// there, the name must be UTF-8 without control characters, an unknown device type
    /// reads as `unknown` and unknown records are skipped.
    public init(decoding bytes: [UInt8]) throws(QuickShareError) {
        guard bytes.count >= 17 else { throw .malformedEndpointInfo("shorter than 17 bytes") }
        version = bytes[0] >> 5
        isHidden = bytes[0] >> 4 & 1 == 1
        deviceType = DeviceType(rawValue: bytes[0] >> 1 & 7) ?? .unknown
        metadata = Array(bytes[1..<17])
        var index = 17
        if !isHidden {
            guard index < bytes.count else { throw .malformedEndpointInfo("no name") }
            let length = Int(bytes[index])
            guard index + 1 + length <= bytes.count else { throw .malformedEndpointInfo("the name is cut short") }
            let raw = Array(bytes[(index + 1)..<(index + 1 + length)])
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw .malformedEndpointInfo("the name is not UTF-8")
            }
            guard !text.unicodeScalars.contains(where: Self.isForbiddenInAName) else {
                throw .malformedEndpointInfo("the name holds control characters")
            }
            name = text
            index += 1 + length
        }
        while index + 2 <= bytes.count {
            let type = bytes[index], length = Int(bytes[index + 1])
            guard index + 2 + length <= bytes.count else { throw .malformedEndpointInfo("a record is cut short") }
            let value = Array(bytes[(index + 2)..<(index + 2 + length)])
            if type == 1 { qrCodeData = value } else if type == 2, length == 1 { vendor = value[0] }
            index += 2 + length
        }
    }
}
