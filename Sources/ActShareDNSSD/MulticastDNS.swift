/// The constants of multicast DNS (RFC 6762) and DNS-SD (RFC 6763) that actshare uses.
public enum MulticastDNS {
    /// The UDP port every responder on a link shares.
    public static let port: UInt16 = 5353
    /// The IPv4 group, 224.0.0.251, in host byte order.
    public static let group: UInt32 = 0xE000_00FB
    /// The most a datagram may hold (RFC 6762 §17: 9000 bytes, headers included); larger
    /// ones are dropped unread.
    public static let maximumMessageSize = 9000
    /// How long the records this responder gives stay valid: as long as Avahi's host
    /// records, so that a device that vanished without a goodbye is gone within two minutes.
    public static let recordSeconds: UInt32 = 120
    /// The name under which DNS-SD lists the service types of a link (RFC 6763 §9).
    public static let serviceTypes: DNSName = ["_services", "_dns-sd", "_udp", "local"]
}
