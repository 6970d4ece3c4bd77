/// A Quick Share device's endpoint id, and the mDNS service name it advertises under
/// (`_FC9F5ED42C8A._tcp`): ten bytes — 0x23, the four-byte endpoint id, the service id
/// 0xFC 0x9F 0x5E (the start of SHA-256("NearbySharing")) and two zero bytes — in URL-safe
/// base64 without padding.
public struct QuickShareEndpoint: Sendable, Equatable {
    /// The mDNS service type every Quick Share receiver advertises.
    public static let serviceType = "_FC9F5ED42C8A._tcp"
    static let serviceID: [UInt8] = [0xFC, 0x9F, 0x5E]
    static let prefix: UInt8 = 0x23

    /// Four ASCII letters or digits, as Android makes them.
    public let id: [UInt8]

    /// An endpoint of `id` (four ASCII letters or digits), or nil.
    public init?(id: [UInt8]) {
        guard id.count == 4, id.allSatisfy(Self.isAlphanumeric) else { return nil }
        self.id = id
    }

    /// A new endpoint id, from the system's random numbers.
    public static func random() -> QuickShareEndpoint {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        return QuickShareEndpoint(id: (0..<4).map { _ in alphabet.randomElement(using: &generator)! })!
    }

    /// The name this endpoint advertises under.
    public var serviceName: String {
        URLSafeBase64.encode([Self.prefix] + id + Self.serviceID + [0, 0])
    }

    /// The endpoint a service name names: ten bytes of the form above, whatever a peer sent.
    public init(serviceName: String) throws {
        guard let bytes = URLSafeBase64.decode(serviceName), bytes.count == 10, bytes[0] == Self.prefix,
              Array(bytes[5..<8]) == Self.serviceID, let endpoint = QuickShareEndpoint(id: Array(bytes[1..<5])) else {
            throw QuickShareError.malformedServiceName
        }
        self = endpoint
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
