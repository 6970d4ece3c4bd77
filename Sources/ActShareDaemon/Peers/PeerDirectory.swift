import ActShareCore
import ActShareHandoff
import NIOCore
import NIOPosix
import NIOSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The paired devices as the daemon reaches them: where each may be (where discovery sees
/// it, where it was last reached, the config's `handoff.peers`), which a request names,
/// and one request to one of them. It owns the list of paired devices.
struct PeerDirectory: Sendable {
    let paired: PairedDeviceStore
    let discovery: any PeerDiscovery
    /// The config's `handoff.peers`: tried for every paired device, last.
    let staticPeers: [(host: String, port: Int)]
    let group: MultiThreadedEventLoopGroup
    let clientContext: NIOSSLContext
    /// What each paired device said when last asked.
    let reachability = Reachability()

    /// The devices nearby, each marked paired or not, paired ones under their paired names.
    func nearby(waiting seconds: Double) async -> [DiscoveredDevice]? {
        guard let found = await discovery.nearby(waiting: seconds) else { return nil }
        let paired = await paired.list
        return found.map { device in
            var device = device
            if let entry = paired.entries.first(where: { $0.device.id == device.id }) {
                device.paired = true
                device.pairedName = entry.name
            }
            return device
        }.sorted { ($0.paired ? 0 : 1, $0.pairedName ?? $0.name, $0.id) < ($1.paired ? 0 : 1, $1.pairedName ?? $1.name, $1.id) }
    }

    /// Whether an actshare device nearby is called `name` and none paired is (discovery's
    /// list as it is, not waited for): it is to be paired, not sent to another way.
    func isUnpairedNearby(_ name: String) async -> Bool {
        guard await paired.list.entry(named: name) == nil else { return false }
        return await discovery.nearby(waiting: 0)?.contains { $0.name == name } ?? false
    }

    /// A paired device answered, its pin checked, at `host`:`port`: if it moved, its new
    /// address is kept (paired-devices.json) for next time.
    func reached(_ entry: PairedDevices.Entry, at host: String, port: Int) async {
        guard entry.host != host || entry.port != port else { return }
        await paired.moved(entry, to: host, port: port)
        DaemonLog.line("\(entry.name) is now at \(host):\(port)")
    }

    /// Each paired device once, with the addresses to try: where discovery sees it now,
    /// then where it was last reached, then the config's `handoff.peers`.
    func targets() async -> [Target] {
        var targets: [Target] = []
        for entry in await paired.list.entries {
            var addresses: [(host: String, port: Int)] = []
            for address in await discovery.addresses(for: entry) + [(entry.host, entry.port)] + staticPeers
            where !addresses.contains(where: { $0.host == address.host && $0.port == address.port }) {
                addresses.append(address)
            }
            targets.append((entry, addresses))
        }
        return targets
    }

    /// A paired device and the addresses to try it at.
    typealias Target = (entry: PairedDevices.Entry, addresses: [(host: String, port: Int)])

    /// The devices a send goes to: those `names` name (each once), every one with `all`,
    /// or with neither the only one paired; `howToChoose` tells the user how to name one
    /// when several are.
    func targets(named names: [String], all: Bool, howToChoose: String) async throws -> [Target] {
        let every = await targets()
        let names = names.filter { !$0.isEmpty }
        if all || names.isEmpty {
            guard !every.isEmpty else { throw HandoffError.peer(.noDevicePaired) }
            guard all || every.count == 1 else { throw HandoffError.peer(.severalDevicesPaired(howToChoose: howToChoose)) }
            return every
        }
        let paired = await paired.list
        var chosen: [Target] = []
        for name in names {
            guard let entry = paired.entry(named: name) else {
                throw await isUnpairedNearby(name) ? HandoffError.peer(.deviceNotPaired(name)) : HandoffError.peer(.noDeviceNamed(name))
            }
            if !chosen.contains(where: { $0.entry.pin == entry.pin }) { chosen += every.filter { $0.entry.pin == entry.pin } }
        }
        return chosen
    }

    /// Sends `message` to the first of `addresses` that answers within `seconds`.
    func request(_ message: PeerMessage, to entry: PairedDevices.Entry, addresses: [(host: String, port: Int)],
                         seconds: Double = 3) async throws -> PeerMessage {
        var lastError = HandoffError.peer(.unreachable(device: entry.name))
        for address in addresses {
            do {
                let reply = try await PeerLink.exchange(
                    host: address.host, port: address.port, group: group, context: clientContext, pin: entry.pin, message, seconds: seconds)
                await reached(entry, at: address.host, port: address.port)
                await reachability.record(entry.device.id, reachable: true)
                return reply
            } catch {
                lastError = HandoffError(error, reaching: PeerAddress(host: address.host, port: address.port))
            }
        }
        await reachability.record(entry.device.id, reachable: false)
        throw lastError
    }

    /// The paired devices as last asked, without asking them (`reachable` nil for one not
    /// asked yet); a round of asking starts in the background, for the next call.
    func knownDevices() async -> [Device] {
        var known: [Device] = []
        for entry in await paired.list.entries {
            var device = entry.device
            device.reachable = await reachability.lastAnswer(device.id)
            known.append(device)
        }
        if await reachability.beginRefresh() {
            Task {
                _ = await devices()
                await reachability.endRefresh()
            }
        }
        return known.sorted { $0.name < $1.name }
    }

    func devices() async -> [Device] {
        await withTaskGroup(of: Device.self) { group in
            for (entry, addresses) in await targets() {
                group.addTask {
                    var device = entry.device
                    device.reachable = (try? await self.request(PeerMessage(.list), to: entry, addresses: addresses)) != nil
                    return device
                }
            }
            var found: [Device] = []
            for await device in group { found.append(device) }
            return found.sorted { $0.name < $1.name }
        }
    }

    /// The paired device with this pin (its certificate's), if any.
    func entry(pin: String) async -> PairedDevices.Entry? { await paired.list.entry(pin: pin) }

    /// The paired device with this name or id, if any.
    func entry(named device: String) async -> PairedDevices.Entry? { await paired.list.entry(named: device) }

    /// A paired device connected from `address`: where to find it next.
    func saw(_ entry: PairedDevices.Entry, at address: String) async { await paired.saw(entry, at: address) }

    /// The device no longer paired.
    func unpair(_ entry: PairedDevices.Entry) async throws { try await paired.remove(pin: entry.pin) }
}
