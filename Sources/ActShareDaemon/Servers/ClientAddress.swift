import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

/// A client's address as the daemon's servers show it and count it, defined once for the
/// peer port and the LocalSend port alike.
enum ClientAddress {
    /// `address` as shown and compared: an IPv4 client of a socket listening on `::`
    /// (`::ffff:a.b.c.d`) written as the IPv4 address it is, so that it is not taken for
    /// the IPv6 host `::ffff:0:0/64` every IPv4 client would then share.
    static func unmapped(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1,
              bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF
        else { return address }
        return bytes[12...].map(String.init).joined(separator: ".")
    }

    /// The host a per-host limit counts `address` as: an IPv4 address is one host; an IPv6
    /// one is its /64, which one host (or one attacker) holds whole.
    static func host(_ address: String) -> String {
        let address = unmapped(address)
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        return Hex.string(bytes.prefix(8)) + "::/64"
    }
}
