/// A resource record of the kinds DNS-SD uses; others are kept as their bytes.
public struct DNSRecord: Equatable, Sendable {
    /// A record type's number (RFC 1035, RFC 2782, RFC 3596).
    public struct RecordType: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let a = RecordType(rawValue: 1)
        public static let pointer = RecordType(rawValue: 12)
        public static let text = RecordType(rawValue: 16)
        public static let ipv6 = RecordType(rawValue: 28)
        public static let service = RecordType(rawValue: 33)
        public static let any = RecordType(rawValue: 255)
    }

    /// What a record says.
    public enum Data: Equatable, Sendable {
        /// An IPv4 address, in host byte order.
        case a(UInt32)
        case pointer(DNSName)
        /// The strings of a TXT record, `key=value` in DNS-SD (RFC 6763 §6).
        case text([[UInt8]])
        case service(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
        case other(RecordType, [UInt8])
    }

    public var name: DNSName
    public var data: Data
    /// Seconds the record stays valid; 0 withdraws it (a goodbye, RFC 6762 §10.1).
    public var ttl: UInt32
    /// The cache-flush bit: this record replaces what caches hold for its name and type
    /// (RFC 6762 §10.2); set on unique records, those one responder owns.
    public var cacheFlush: Bool

    public init(name: DNSName, data: Data, ttl: UInt32 = MulticastDNS.recordSeconds, cacheFlush: Bool = false) {
        self.name = name
        self.data = data
        self.ttl = ttl
        self.cacheFlush = cacheFlush
    }

    public var type: RecordType {
        switch data {
        case .a: .a
        case .pointer: .pointer
        case .text: .text
        case .service: .service
        case .other(let type, _): type
        }
    }
}
