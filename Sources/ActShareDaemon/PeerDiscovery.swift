/// Where a paired device may be reached, besides the address learnt while pairing.
///
/// `discovery: static` (config `handoff.peers`) is what this daemon has; multicast
/// discovery on the LAN would be another conformance, asked the same question.
protocol PeerDiscovery: Sendable {
    /// Addresses to try for `entry`, in order; each answer is still checked against its pin.
    func addresses(for entry: PairedDevices.Entry) async -> [(host: String, port: Int)]
}

/// The addresses in the config, tried for every paired device.
struct StaticDiscovery: PeerDiscovery {
    let peers: [(host: String, port: Int)]

    func addresses(for entry: PairedDevices.Entry) async -> [(host: String, port: Int)] { peers }
}
