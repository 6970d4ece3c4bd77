import CActShareMulticast
#if canImport(Glibc)
import Glibc
#endif

/// The UDP socket on port 5353, shared with any other responder there (Avahi's too).
struct MulticastDNSSocket {
    let descriptor: Int32

    /// A datagram as it came in.
    struct Datagram {
        var bytes: [UInt8]
        /// The sender, in host byte order.
        var from: UInt32
        var fromPort: UInt16
        var interfaceIndex: Int32
    }

    init(port: UInt16) throws(DiscoveryError) {
        descriptor = cactshare_multicast_socket(port)
        guard descriptor >= 0 else { throw DiscoveryError("cannot listen for multicast DNS on UDP port \(port)", errno: errno) }
    }

    func join(_ interface: NetworkInterface) -> Bool {
        cactshare_multicast_join(descriptor, MulticastDNS.group.bigEndian, interface.index) == 0 || errno == EADDRINUSE
    }

    /// Sends `bytes` to the group on `interface`, or to one address and port.
    func send(_ bytes: [UInt8], to address: UInt32 = MulticastDNS.group, port: UInt16 = MulticastDNS.port, on interface: Int32) {
        _ = bytes.withUnsafeBytes { cactshare_multicast_send(descriptor, $0.baseAddress, $0.count, address.bigEndian, port.bigEndian, interface) }
    }

    /// The next datagram waiting, or nil when none is; longer ones than multicast DNS
    /// allows are read and dropped.
    func receive() -> Datagram? {
        var buffer = [UInt8](repeating: 0, count: MulticastDNS.maximumMessageSize)
        while true {
            var from: UInt32 = 0, fromPort: UInt16 = 0, index: Int32 = 0, ttl: Int32 = 0, truncated: Int32 = 0
            let length = buffer.withUnsafeMutableBytes {
                cactshare_multicast_receive(descriptor, $0.baseAddress, $0.count, &from, &fromPort, &index, &ttl, &truncated)
            }
            if length < 0 { return nil }
            if truncated != 0 { continue }
            return Datagram(bytes: Array(buffer.prefix(length)), from: UInt32(bigEndian: from), fromPort: UInt16(bigEndian: fromPort), interfaceIndex: index)
        }
    }

    func close() { _ = Glibc.close(descriptor) }
}
