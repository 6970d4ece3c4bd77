import CActShareMulticast
#if canImport(Glibc)
import Glibc
#endif

/// A UDP socket on a multicast group's port, shared with anything else listening there
/// (SO_REUSEPORT: Avahi on 5353, a LocalSend app on 53317), joined per interface.
public struct MulticastSocket: Sendable {
    public let descriptor: Int32
    /// The group, in host byte order, and its port.
    public let group: UInt32
    public let port: UInt16
    /// Longer datagrams are read and dropped.
    let maximumDatagram: Int

    /// A datagram as it came in.
    public struct Datagram: Sendable {
        public var bytes: [UInt8]
        /// The sender, in host byte order.
        public var from: UInt32
        public var fromPort: UInt16
        public var interfaceIndex: Int32
    }

    public init(group: UInt32, port: UInt16, maximumDatagram: Int) throws(DiscoveryError) {
        descriptor = cactshare_multicast_socket(port)
        guard descriptor >= 0 else { throw DiscoveryError("cannot listen for multicast on UDP port \(port)", errno: errno) }
        self.group = group
        self.port = port
        self.maximumDatagram = maximumDatagram
    }

    /// Joins the group on `interface` (already joined counts).
    public func join(_ interface: NetworkInterface) -> Bool {
        cactshare_multicast_join(descriptor, group.bigEndian, interface.index) == 0 || errno == EADDRINUSE
    }

    /// Sends `bytes` to the group out of `interface`, or to one address and port.
    public func send(_ bytes: [UInt8], to address: UInt32? = nil, port: UInt16? = nil, on interface: Int32) {
        let address = address ?? group, port = port ?? self.port
        _ = bytes.withUnsafeBytes { cactshare_multicast_send(descriptor, $0.baseAddress, $0.count, address.bigEndian, port.bigEndian, interface) }
    }

    /// The next datagram waiting, or nil when none is.
    public func receive() -> Datagram? {
        var buffer = [UInt8](repeating: 0, count: maximumDatagram)
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

    public func close() { _ = Glibc.close(descriptor) }
}
