#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 interface multicast DNS runs on: up, multicast-capable, not loopback.
public struct NetworkInterface: Sendable, Hashable {
    public var index: Int32
    public var name: String
    /// In host byte order.
    public var address: UInt32
    public var netmask: UInt32

    /// Whether `other` is on this interface's subnet: the only senders multicast DNS
    /// listens to (RFC 6762 §11).
    func isOnLink(_ other: UInt32) -> Bool { other & netmask == address & netmask }

    /// This machine's interfaces now; the first address of each.
    public static func current() -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [NetworkInterface] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_MULTICAST) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                  let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  let mask = entry.pointee.ifa_netmask
            else { continue }
            let name = String(cString: entry.pointee.ifa_name)
            let index = Int32(bitPattern: if_nametoindex(entry.pointee.ifa_name))
            guard index > 0, !found.contains(where: { $0.index == index }) else { continue }
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            let netmask = mask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            found.append(NetworkInterface(index: index, name: name, address: ipv4, netmask: netmask))
        }
        return found
    }

    /// `a.b.c.d` for an address in host byte order.
    public static func dotted(_ address: UInt32) -> String {
        "\(address >> 24).\(address >> 16 & 255).\(address >> 8 & 255).\(address & 255)"
    }

    /// An address in host byte order from `a.b.c.d`, or nil.
    public static func address(_ dotted: String) -> UInt32? {
        var parsed = in_addr()
        guard inet_pton(AF_INET, dotted, &parsed) == 1 else { return nil }
        return UInt32(bigEndian: parsed.s_addr)
    }
}
