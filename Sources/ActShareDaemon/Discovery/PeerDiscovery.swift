import ActShareHandoff

/// Where a paired device is seen now, and which devices are nearby. The daemon asks this
/// and nothing else about the network; it tries what this says before the address a
/// device was last reached at, and the config's `handoff.peers` after.
///
/// An answer is a hint: every address is tried over TLS against the device's pin, so a
/// wrong or hostile answer costs a connection attempt and nothing more.
protocol PeerDiscovery: Sendable {
    /// Where `entry` is seen now, best first.
    func addresses(for entry: PairedDevices.Entry) async -> [(host: String, port: Int)]

    /// The devices seen on the local network after asking it again and waiting up to
    /// `seconds`; nil when this kind of discovery cannot see any.
    func nearby(waiting seconds: Double) async -> [DiscoveredDevice]?

    /// Stops answering for this device (a goodbye to the network).
    func stop()
}

/// `discovery: static`: nothing advertised, nothing found; devices are tried where they
/// were last reached and at the config's `handoff.peers`.
struct StaticDiscovery: PeerDiscovery {
    func addresses(for entry: PairedDevices.Entry) async -> [(host: String, port: Int)] { [] }

    func nearby(waiting seconds: Double) async -> [DiscoveredDevice]? { nil }

    func stop() {}
}
