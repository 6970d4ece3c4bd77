import ActShareCore
import ActShareHandoff
import CActShareSystem
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The handoff daemon: a control socket for this user's actshare commands and apps, and a
/// TLS listener for paired devices (docs/PROTOCOL.md).
///
/// This type builds the parts and starts both servers. Each part owns its state:
/// ``PeerDirectory`` (the paired devices, where they are, requests to them),
/// ``ActivityRelay`` (activities between them), ``PairingFlow`` (the pairing window) and
/// ``TransferService`` (the queue; the engine is ``TransferSender`` and
/// ``TransferReceiver``). ``ControlServer`` answers the control socket and ``PeerServer``
/// the peer port, each with the parts it uses; ``PeerLink`` reaches other daemons.
public final class Daemon: Sendable {
    /// Peers that have not proved who they are may hold a connection this long (the TLS
    /// handshake included)…
    static let unauthenticatedSeconds: Int64 = 2
    /// …and proven ones this long without a frame: longer than a pairing may wait for
    /// its users to confirm (PairingFlow.pairingSeconds), during which its connection is quiet.
    static let idleSeconds: Int64 = 150

    let device: LocalDevice
    let group: MultiThreadedEventLoopGroup
    /// The peer port, bound by `init` (``listen(group:address:port:context:budget:pins:pairingOpen:)``).
    let peerListener: NIOAsyncChannel<AcceptedPeer, Never>
    let serverContext: NIOSSLContext
    let clientContext: NIOSSLContext
    let budget: ConnectionBudget
    let discovery: any PeerDiscovery
    /// Runs the commands activities name (they block).
    let threadPool: NIOThreadPool
    let receiveDirectory: String
    let keepPartialSeconds: Int
    let listenAddress: String
    /// The paired devices, where they are, and requests to them.
    let peers: PeerDirectory
    /// Activities between the paired devices.
    let relay: ActivityRelay
    /// Files between the paired devices.
    let transfers: TransferService
    /// Pairing with a device.
    let pairing: PairingFlow
    /// The commands published activities name, run for the peers.
    let commands: ActivityCommands
    /// The Universal Clipboard.
    let clipboard: ClipboardService
    /// LocalSend devices: found, pinned, sent to.
    let localSend: LocalSendService
    let quickShare: QuickShareService

    /// A peer's message, fit to show (at most 300 bytes of display text), or nil.
    static func quoted(_ message: String?) -> String? {
        guard let message, ActivityChecks.isDisplayText(message, limit: 300) else { return nil }
        return message
    }

    /// What the daemon runs with: the config's `handoff:` settings as decoded
    /// (``HandoffSettings``, where every default is), with what this machine decides when
    /// the config does not: the device's name and the folder files go to.
    public struct Settings: Sendable {
        public var handoff: HandoffSettings
        /// The config's `device-name`, else the host name.
        public var name: String
        /// Where files from other devices go: the config's `receive-dir`, else the downloads folder.
        public var receiveDirectory: String

        public init(handoff: HandoffSettings, name: String, receiveDirectory: String) {
            self.handoff = handoff
            self.name = name
            self.receiveDirectory = receiveDirectory
        }

        public var port: Int { handoff.port }
        public var staticPeers: [(host: String, port: Int)] { handoff.peers.map { ($0.host, $0.port) } }
        public var keepPartialSeconds: Int { handoff.keepPartialSeconds }
        public var listenAddress: String { handoff.listenAddress }
        public var multicast: Bool { handoff.discovery == .multicast }
        public var clipboard: ClipboardSettings { handoff.clipboard }
        public var localSend: LocalSendSettings { handoff.localSend }
        public var quickShare: QuickShareSettings { handoff.quickShare }
    }

    /// Builds the parts and listens on the peer port: port 0 leaves the port to the kernel,
    /// and the parts announce the one it chose.
    public init(settings: Settings, paths: HandoffPaths) async throws {
        // One daemon a user: a second would take the first one's control socket over, and
        // leave it running but unreachable once it stopped itself.
        try FileSystem.createDirectories(paths.runtimeDirectory)
        chmod(paths.runtimeDirectory, 0o700)
        if (try? ControlClient(path: paths.controlSocket)) != nil {
            throw HandoffError.control(.alreadyRunning(controlSocket: paths.controlSocket))
        }
        let identity = try Identity.loadOrCreate(in: paths.stateDirectory, name: settings.name)
        let paired = PairedDeviceStore(file: paths.pairedDevices)
        let gate = PairingGate()
        receiveDirectory = settings.receiveDirectory
        keepPartialSeconds = settings.keepPartialSeconds
        listenAddress = settings.listenAddress
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        budget = ConnectionBudget(pairedAddresses: paired.addresses)
        serverContext = try TLS.serverContext(identity)
        clientContext = try TLS.clientContext(identity)
        // The peer port before the parts that announce it. Nothing after it throws.
        peerListener = try await Self.listen(group: group, address: settings.listenAddress, port: settings.port, context: serverContext,
                                             budget: budget, pins: paired.pins, pairingOpen: gate.isOpen)
        device = LocalDevice(name: settings.name, port: peerListener.channel.localAddress?.port ?? settings.port, identity: identity, paths: paths)
        let queue = TransferQueue(stateDirectory: paths.stateDirectory)
        discovery = Self.discovery(settings, port: device.port, identity: identity, paired: paired, queue: queue)
        threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        var localSendSettings = settings.localSend
        if !settings.multicast { localSendSettings.mode = .off }
        localSend = LocalSendService(settings: localSendSettings, device: device, group: group)
        quickShare = QuickShareService(settings: settings.quickShare, name: settings.name, requests: localSend.requests, multicast: settings.multicast,
                                       listenAddress: settings.listenAddress,
                                       bluetooth: BluetoothTrigger(executable: settings.quickShare.bluetoothTrigger, group: group, threadPool: threadPool))
        peers = PeerDirectory(paired: paired, discovery: discovery, staticPeers: settings.staticPeers, group: group, clientContext: clientContext)
        relay = ActivityRelay(device: device, store: ActivityStore(deviceName: settings.name), peers: peers)
        ReceivedLog.migrate(from: device.paths.earlierReceivedLog, to: device.paths.receivedLog)
        transfers = TransferService(device: device, peers: peers, queue: queue, group: group, clientContext: clientContext,
                                    receiveDirectory: settings.receiveDirectory, localSend: localSend, quickShare: quickShare)
        pairing = PairingFlow(device: device, paired: paired, gate: gate, discovery: discovery, group: group, clientContext: clientContext)
        commands = ActivityCommands(threadPool: threadPool)
        clipboard = ClipboardService(settings: settings.clipboard, device: device, peers: peers, transfers: transfers, board: ClipboardBoard(), group: group,
                                     clientContext: clientContext)
    }

    /// Multicast discovery, or static when asked for or when it cannot start (a line in
    /// the log says why). A paired device seen again has what waits for it sent at once.
    private static func discovery(_ settings: Settings, port: Int, identity: Identity, paired: PairedDeviceStore, queue: TransferQueue) -> any PeerDiscovery {
        guard settings.multicast else { return StaticDiscovery() }
        do {
            return try MulticastDiscovery(name: settings.name, deviceID: identity.deviceID, port: port, listenAddress: settings.listenAddress) { devices in
                Task {
                    let pins = await paired.list.pins
                    for device in devices where pins.contains(where: { $0.hasPrefix(device.id) }) {
                        DaemonLog.debug("discovery: \(device.name) (\(device.id)) at \(device.address):\(device.port)")
                        await queue.hurry(deviceID: device.id)
                    }
                }
            }
        } catch {
            DaemonLog.line("multicast discovery is off: \(error)")
            return StaticDiscovery()
        }
    }

    /// Says goodbye on the network: the daemon is stopping.
    public func stop() {
        discovery.stop()
        localSend.stop()
    }

    /// Listens on the control socket and the peer port until the process ends.
    public func run() async throws {
        let paths = device.paths
        let peers = peerListener
        let control = try await ServerBootstrap(group: group)
            .bind(unixDomainSocketPath: paths.controlSocket, cleanupExistingSocketFile: true) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        chmod(paths.controlSocket, 0o600)
        DaemonLog.line("device \(device.name) (\(device.identity.deviceID)) on port \(device.port), control socket \(paths.controlSocket)")
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                // Sends waiting for their devices: each tried when due.
                while !Task.isCancelled {
                    await self.transfers.runQueue()
                    try await Task.sleep(for: .seconds(1))
                }
            }
            group.addTask { await self.clipboard.run() }
            if self.localSend.settings.mode != .off, let context = try? TLS.localSendServerContext(self.device.identity) {
                group.addTask {
                    await LocalSendServer(service: self.localSend, transfers: self.transfers, ownName: self.device.name)
                        .run(group: self.group, context: context, listenAddress: self.listenAddress)
                }
            }
            if self.quickShare.settings.mode != .off {
                group.addTask { await self.quickShare.run(group: self.group, listenAddress: self.listenAddress, transfers: self.transfers, relay: self.relay) }
            }
            group.addTask {
                // What a paste or a transfer kept for reuse (cactshare_reuse_large_buffers)
                // goes back to the system within seconds of it.
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(5))
                    cactshare_release_free_memory()
                }
            }
            group.addTask {
                // What interrupted transfers left, and nobody resumed in time.
                while !Task.isCancelled {
                    TransferReceiver.removeStale(in: self.receiveDirectory, olderThan: self.keepPartialSeconds)
                    try await Task.sleep(for: .seconds(min(3600, max(60, self.keepPartialSeconds / 4))))
                }
            }
            group.addTask {
                try await control.executeThenClose { inbound in
                    try await withThrowingDiscardingTaskGroup { connections in
                        for try await connection in inbound {
                            connections.addTask { await ControlServer(device: self.device, peers: self.peers, relay: self.relay, transfers: self.transfers, pairing: self.pairing, clipboard: self.clipboard,
                                                                  localSend: self.localSend, quickShare: self.quickShare).serve(connection) }
                        }
                    }
                }
            }
            group.addTask {
                try await peers.executeThenClose { inbound in
                    try await withThrowingDiscardingTaskGroup { connections in
                        for try await accepted in inbound {
                            switch accepted {
                            case .refused(let channel): channel.close(promise: nil)
                            case .admitted(let connection, let peer, let ticket):
                                connections.addTask { await PeerServer(peers: self.peers, relay: self.relay, transfers: self.transfers, pairing: self.pairing, commands: self.commands, clipboard: self.clipboard).serve(connection, peer: peer, ticket: ticket) }
                            }
                        }
                    }
                }
            }
        }
    }
}
