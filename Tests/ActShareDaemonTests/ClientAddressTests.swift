import Testing

@testable import ActShareDaemon

/// How the servers show and count a client's address.
@Suite struct ClientAddressTests {
    @Test func anIPv4ClientOfAnIPv6SocketIsItsIPv4Address() {
        #expect(ClientAddress.unmapped("::ffff:10.77.0.3") == "10.77.0.3")
        #expect(ClientAddress.unmapped("::FFFF:192.168.1.20") == "192.168.1.20")
        #expect(ClientAddress.unmapped("10.77.0.3") == "10.77.0.3")
        #expect(ClientAddress.unmapped("fd77::1") == "fd77::1")
        // Another prefix that merely holds an IPv4 address is not unmapped.
        #expect(ClientAddress.unmapped("64:ff9b::10.77.0.3") == "64:ff9b::10.77.0.3")
    }

    @Test func hostsAreIPv4AddressesAndIPv6Slash64s() {
        #expect(ClientAddress.host("::ffff:10.77.0.3") != ClientAddress.host("::ffff:10.77.0.4"))
        #expect(ClientAddress.host("::ffff:10.77.0.3") == ClientAddress.host("10.77.0.3"))
        #expect(ClientAddress.host("fd77::1:1") == ClientAddress.host("fd77::ffff:ffff:ffff:ffff"))
        #expect(ClientAddress.host("fd77::1") != ClientAddress.host("fd77:0:0:1::1"))
        #expect(ClientAddress.host("fd77::1") == "fd77000000000000::/64")
    }
}
