import ActShareCore
import ActShareDNSSD
import ActShareHandoff

/// `discovery: multicast`: this device advertised as `_actshare._tcp` over multicast DNS,
/// and the other daemons on the link found the same way (docs/PROTOCOL.md, "Discovery").
///
/// What a datagram says is kept only in the form checked here (an id of 16 hex digits, a
/// name fit to show, a port), and used only as a hint: identity is the pinned key.
struct MulticastDiscovery: PeerDiscovery {
    /// The DNS-SD service type, `_actshare._tcp.local`.
    static let serviceType: DNSName = [HandoffDefaults.serviceName, "_tcp", "local"]

    let service: ServiceDiscovery

    /// Advertises `name` and `deviceID` on `port`; `listenAddress` limits it to the
    /// interface of that address. `onChange` is told what is nearby whenever that changes.
    init(name: String, deviceID: String, port: Int, listenAddress: String, onChange: @escaping @Sendable ([DiscoveredDevice]) -> Void) throws {
        let advertisement = ServiceAdvertisement(
            serviceType: Self.serviceType, instance: Self.instanceLabel(name: name, deviceID: deviceID), host: "actshare-\(deviceID)",
            port: UInt16(port), text: ["id=\(deviceID)", "name=\(name)", "v=1"])
        service = try ServiceDiscovery(advertising: advertisement, browsing: Self.serviceType, advertisedAddress: listenAddress) { services in
            onChange(services.compactMap(Self.device))
        }
        service.start()
    }

    /// `laptop [a1b2c3d4]`: the name, cut to fit a DNS label, and the start of the id, so
    /// that two devices of one name do not claim one instance.
    static func instanceLabel(name: String, deviceID: String) -> String {
        let suffix = " [\(deviceID.prefix(8))]"
        var shown = name
        while shown.utf8.count + suffix.utf8.count > 63 { shown.removeLast() }
        return shown + suffix
    }

    /// A service as a device, or nil when what it claims is not in the form a device's is.
    static func device(_ service: DiscoveredService) -> DiscoveredDevice? {
        guard let id = service.text["id"], id.count == 16, Hex.bytes(id) != nil,
              let name = service.text["name"], ActivityChecks.isDeviceName(name), service.port > 0, let address = service.addresses.first
        else { return nil }
        return DiscoveredDevice(id: id, name: name, address: address, port: Int(service.port))
    }

    var devices: [DiscoveredDevice] { service.services.compactMap(Self.device) }

    func addresses(for entry: PairedDevices.Entry) async -> [(host: String, port: Int)] {
        devices.filter { $0.id == entry.device.id }.map { ($0.address, $0.port) }
    }

    func nearby(waiting seconds: Double) async -> [DiscoveredDevice]? {
        // 0: what is known now, the network not asked (a poll, a benchmark).
        guard seconds > 0 else { return devices }
        service.queryNow()
        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        return devices
    }

    func stop() { service.stop() }
}
