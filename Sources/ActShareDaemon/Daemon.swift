import ActShareCore
import ActShareHandoff
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
/// This type starts both and holds what they share (the state, the TLS contexts, the
/// queue); ``ControlServer`` answers the control socket, ``PeerServer`` the peer port,
/// ``PeerLink`` reaches other daemons, and the transfer engine is `Transfer/`
/// (``TransferSender``, ``TransferReceiver``, ``TransferQueue``).
public final class Daemon: Sendable {
    /// Peers that have not proved who they are may hold a connection this long (the TLS
    /// handshake included)…
    static let unauthenticatedSeconds: Int64 = 2
    /// …and proven ones this long without a frame: longer than a pairing may wait for
    /// its users to confirm (pairingSeconds), during which its connection is quiet.
    static let idleSeconds: Int64 = 150

    let state: DaemonState
    let group: MultiThreadedEventLoopGroup
    let serverContext: NIOSSLContext
    let clientContext: NIOSSLContext
    let budget: ConnectionBudget
    let discovery: any PeerDiscovery
    /// The config's `handoff.peers`: tried for every paired device, last.
    let staticPeers: [(host: String, port: Int)]
    /// Runs the commands activities name (they block).
    let threadPool: NIOThreadPool
    let receiveDirectory: String
    let keepPartialSeconds: Int
    let queue: TransferQueue
    let listenAddress: String

    /// At most this many activities are taken from one paired device's list.
    static let listLimit = 256

    /// A peer's message, fit to show (at most 300 bytes of display text), or nil.
    static func quoted(_ message: String?) -> String? {
        guard let message, ActivityChecks.isDisplayText(message, limit: 300) else { return nil }
        return message
    }

    public struct Settings: Sendable {
        public var name: String
        public var port: Int
        public var staticPeers: [(host: String, port: Int)]
        /// Where files from paired devices go.
        public var receiveDirectory: String
        /// How long what an interrupted transfer left waits to be resumed.
        public var keepPartialSeconds: Int
        /// The address the peer port is bound to: all IPv4 addresses by default.
        public var listenAddress: String
        /// Whether to advertise and find devices over multicast DNS (`discovery:
        /// multicast`), or only use the addresses given (`static`).
        public var multicast: Bool

        public init(name: String, port: Int, staticPeers: [(host: String, port: Int)], receiveDirectory: String, keepPartialSeconds: Int,
                    listenAddress: String = "0.0.0.0", multicast: Bool = true) {
            self.multicast = multicast
            self.listenAddress = listenAddress
            self.keepPartialSeconds = keepPartialSeconds
            self.name = name
            self.port = port
            self.staticPeers = staticPeers
            self.receiveDirectory = receiveDirectory
        }
    }

    public init(settings: Settings, paths: HandoffPaths) throws {
        let identity = try Identity.loadOrCreate(in: paths.stateDirectory, name: settings.name)
        state = DaemonState(name: settings.name, port: settings.port, identity: identity, paths: paths)
        receiveDirectory = settings.receiveDirectory
        staticPeers = settings.staticPeers
        keepPartialSeconds = settings.keepPartialSeconds
        listenAddress = settings.listenAddress
        let queue = TransferQueue(stateDirectory: paths.stateDirectory)
        self.queue = queue
        discovery = Self.discovery(settings, identity: identity, state: state, queue: queue)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        budget = ConnectionBudget(pairedAddresses: state.pairedAddresses)
        threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        serverContext = try TLS.serverContext(identity)
        clientContext = try TLS.clientContext(identity)
    }

    /// Multicast discovery, or static when asked for or when it cannot start (a line in
    /// the log says why). A paired device seen again has what waits for it sent at once.
    private static func discovery(_ settings: Settings, identity: Identity, state: DaemonState, queue: TransferQueue) -> any PeerDiscovery {
        guard settings.multicast else { return StaticDiscovery() }
        do {
            return try MulticastDiscovery(name: settings.name, deviceID: identity.deviceID, port: settings.port, listenAddress: settings.listenAddress) { devices in
                Task {
                    let pins = await state.paired.pins
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
    }

    /// The devices nearby, each marked paired or not, paired ones under their paired names.
    func nearby(waiting seconds: Double) async -> [DiscoveredDevice]? {
        guard let found = await discovery.nearby(waiting: seconds) else { return nil }
        let paired = await state.paired
        return found.map { device in
            var device = device
            if let entry = paired.entries.first(where: { $0.device.id == device.id }) {
                device.paired = true
                device.pairedName = entry.name
            }
            return device
        }.sorted { ($0.paired ? 0 : 1, $0.pairedName ?? $0.name, $0.id) < ($1.paired ? 0 : 1, $1.pairedName ?? $1.name, $1.id) }
    }

    /// A paired device answered, its pin checked, at `host`:`port`: if it moved, its new
    /// address is kept (paired-devices.json) for next time.
    func reached(_ entry: PairedDevices.Entry, at host: String, port: Int) async {
        guard entry.host != host || entry.port != port else { return }
        await state.moved(entry, to: host, port: port)
        DaemonLog.line("\(entry.name) is now at \(host):\(port)")
    }

    /// Listens on the control socket and the peer port until the process ends.
    public func run() async throws {
        let paths = state.paths
        try FileSystem.createDirectories(paths.runtimeDirectory)
        chmod(paths.runtimeDirectory, 0o700)
        // One daemon a user: a second would take the first one's control socket over, and
        // leave it running but unreachable once it stopped itself.
        if (try? ControlClient(path: paths.controlSocket)) != nil {
            throw HandoffFailure("another actshare daemon is running for this user (its control socket \(paths.controlSocket) answers)", exitCode: .badInput)
        }
        let serverContext = self.serverContext
        let pins = state.pins, pairingOpen = state.pairingOpen
        let admission = AdmissionHandler(budget: budget)
        // The peer port first: the control socket appearing means the daemon is all there
        // (clients and tests wait for it), and a port in use ends it before it does.
        let peers: NIOAsyncChannel<AcceptedPeer, Never>
        do {
            peers = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // A flood fills the kernel's queue of connections yet to be accepted; a deep
                // queue, emptied many at a time, keeps a paired device's connection from
                // waiting behind it (each over the budget is closed at once).
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.maxMessagesPerRead, value: 64)
                // Beyond the budget a connection is closed as soon as it is accepted;
                // nothing of it is read (docs/SECURITY.md).
                .serverChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(admission) }
                }
                .bind(host: listenAddress, port: state.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        guard let ticket = admission.take(channel) else { return .refused(channel) }
                        channel.closeFuture.whenComplete { _ in ticket.release() }
                        // Proven within the time, or closed: the TLS handshake counts.
                        channel.eventLoop.scheduleTask(in: .seconds(Self.unauthenticatedSeconds)) {
                            if !ticket.isProven { channel.close(promise: nil) }
                        }
                        let peer = PeerIdentity()
                        // Paired devices, or anyone while `handoff pair --wait` is open.
                        let tls = NIOSSLServerHandler(context: serverContext, customVerificationCallback: TLS.verifier(peer) { pin in
                            pins.withLockedValue { $0.contains(pin) } || pairingOpen.withLockedValue { $0 }
                        })
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .seconds(Self.idleSeconds)))
                        try channel.pipeline.syncOperations.addHandler(CloseWhenIdle())
                        try channel.pipeline.syncOperations.addHandler(tls)
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder()))
                        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(FrameEncoder()))
                        return .admitted(try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel), peer, ticket)
                    }
                }
        } catch {
            let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
            throw HandoffFailure("cannot listen for peers on \(listenAddress) port \(state.port): \(reason) (another actshare daemon? give it another --port)")
        }
        let control = try await ServerBootstrap(group: group)
            .bind(unixDomainSocketPath: paths.controlSocket, cleanupExistingSocketFile: true) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        chmod(paths.controlSocket, 0o600)
        let identity = state.identity
        DaemonLog.line("device \(state.name) (\(identity.deviceID)) on port \(state.port), control socket \(paths.controlSocket)")
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                // Sends waiting for their devices: each tried when due.
                while !Task.isCancelled {
                    await self.runQueue()
                    try await Task.sleep(for: .seconds(1))
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
                            connections.addTask { await ControlServer(daemon: self).serve(connection) }
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
                                connections.addTask { await PeerServer(daemon: self).serve(connection, peer: peer, ticket: ticket) }
                            }
                        }
                    }
                }
            }
        }
    }

    // MARK: Talking to paired devices

    /// Each paired device once, with the addresses to try: where discovery sees it now,
    /// then where it was last reached, then the config's `handoff.peers`.
    func targets() async -> [Target] {
        var targets: [Target] = []
        for entry in await state.paired.entries {
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
            guard !every.isEmpty else { throw HandoffFailure("no device is paired: pair one with `actshare handoff pair`", exitCode: .badInput) }
            guard all || every.count == 1 else { throw HandoffFailure("several devices are paired: \(howToChoose)", exitCode: .badInput) }
            return every
        }
        let paired = await state.paired
        var chosen: [Target] = []
        for name in names {
            guard let entry = paired.entry(named: name) else { throw HandoffFailure("no paired device is called \(name)", exitCode: .badInput) }
            if !chosen.contains(where: { $0.entry.pin == entry.pin }) { chosen += every.filter { $0.entry.pin == entry.pin } }
        }
        return chosen
    }

    /// Sends `message` to the first of `addresses` that answers within `seconds`.
    func request(_ message: PeerMessage, to entry: PairedDevices.Entry, addresses: [(host: String, port: Int)],
                         seconds: Double = 3) async throws -> PeerMessage {
        var lastError: any Error = HandoffFailure("\(entry.name) is not reachable")
        for address in addresses {
            do {
                let reply = try await PeerLink.exchange(
                    host: address.host, port: address.port, group: group, context: clientContext, pin: entry.pin, message, seconds: seconds)
                await reached(entry, at: address.host, port: address.port)
                return reply
            } catch {
                lastError = HandoffFailure(PeerFailure.describe(error, host: address.host, port: address.port))
            }
        }
        throw lastError
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

    /// The current activities of every reachable paired device, newest first, each with
    /// `origin` set to the device's id.
    func remoteActivities() async -> [UserActivity] {
        await withTaskGroup(of: [UserActivity].self) { group in
            for (entry, addresses) in await targets() {
                group.addTask {
                    guard let reply = try? await self.request(PeerMessage(.list), to: entry, addresses: addresses) else { return [] }
                    // A paired device is trusted with its own activities, not with their form.
                    return (reply.activities ?? []).prefix(Self.listLimit).compactMap { listed in
                        switch ActivityChecks.fromPeer(listed) {
                        case .success(var activity):
                            activity.origin = entry.device.id
                            activity.originName = entry.name
                            return activity
                        case .failure(let refusal):
                            DaemonLog.line("\(entry.name) listed an activity that is refused: \(refusal.message)")
                            return nil
                        }
                    }
                }
            }
            var all: [UserActivity] = await Array(state.received.values)
            for await some in group { all += some }
            return all.sorted { $0.created > $1.created }
        }
    }

    /// The whole activity `id` (or the newest, for nil) from its origin, and how it continues
    /// here. One handed to this device stays until the CLI says it was handled
    /// (`continued`): a continuation that fails (no display, no browser) loses nothing.
    func fetch(id: String?) async -> ControlResponse {
        let listed = await remoteActivities()
        // Handed to this device: here already, continued in the browser or onto the clipboard.
        if let wanted = id.map({ id in listed.first { $0.id == id } }) ?? listed.first,
           let handed = await state.received[wanted.id] {
            if case .string(let text) = handed.userInfo["text"], handed.type == UserActivity.handedOffText {
                return .success(activity: handed, continuation: Continuation(text: text))
            } else if let url = handed.webpageURL {
                return .success(activity: handed, continuation: Continuation(url: url))
            }
            return .failure("\(handed.id) carries nothing to continue", exitCode: .notFound)
        }
        guard let wanted = id.map({ id in listed.first { $0.id == id } }) ?? listed.first else {
            return .failure(id.map { "no paired device has the activity \($0)" } ?? "no paired device has a current activity", exitCode: .notFound)
        }
        guard let (entry, addresses) = await targets().first(where: { $0.entry.device.id == wanted.origin }) else {
            return .failure("the device of \(wanted.id) is no longer paired", exitCode: .notFound)
        }
        do {
            // The origin may first wait for its app's command and its linked app (2 s each).
            let reply = try await request(PeerMessage(.fetch, id: wanted.id), to: entry, addresses: addresses, seconds: 6)
            guard reply.type == .activity, let sent = reply.activity else {
                return .failure(Self.quoted(reply.message) ?? "\(entry.name) did not send the activity", exitCode: .notFound)
            }
            var activity: UserActivity
            switch ActivityChecks.fromPeer(sent) {
            case .success(let checked) where checked.id == wanted.id: activity = checked
            case .success: return .failure("\(entry.name) sent another activity than \(wanted.id)", exitCode: .failed)
            case .failure(let refusal): return .failure("\(entry.name) sent an activity that is refused: \(refusal.message)", exitCode: .failed)
            }
            activity.origin = entry.device.id
            activity.originName = entry.name
            var handlerProblems: [String] = []
            let handlers = HandlerManifest.load(from: state.paths.handlerDirectories) { handlerProblems.append($0) }
            for problem in handlerProblems { DaemonLog.line(problem) }
            switch HandlerManifest.continuation(for: activity, handlers: handlers) {
            case .success(let continuation):
                return .success(device: entry.device, activity: activity, continuation: continuation)
            case .failure(let failure):
                var response = ControlResponse.failure(failure.message, exitCode: failure.exitCode)
                response.activity = activity
                return response
            }
        } catch {
            return .failure("\(entry.name) is not reachable: \(error)", exitCode: .failed)
        }
    }

    /// The Hand Off activity: `activity` to the device named, or the only one.
    func send(_ activity: UserActivity, to device: String?) async -> ControlResponse {
        var activity = activity
        if let problem = ActivityChecks.problem(with: activity, fromPeer: false) { return .failure("cannot hand it off: \(problem)", exitCode: .badInput) }
        let chosen: [Target]
        do {
            chosen = try await targets(named: device.map { [$0] } ?? [], all: false, howToChoose: "choose one with -o device=NAME")
        } catch let failure as HandoffFailure {
            return .failure(failure.message, exitCode: failure.exitCode)
        } catch {
            return .failure("\(error)")
        }
        activity.id = Pairing.newID()
        let (entry, addresses) = chosen[0]
        do {
            let reply = try await self.request(PeerMessage(.send, activity: activity), to: entry, addresses: addresses)
            guard reply.type == .ok else { return .failure("\(entry.name) refused it: \(Self.quoted(reply.message) ?? "no reason given")") }
            return .success(id: activity.id, device: entry.device)
        } catch {
            return .failure("\(entry.name) is not reachable: \(error)")
        }
    }

    func tellContinued(id: String, device: String) async throws {
        guard let (entry, addresses) = await targets().first(where: { $0.entry.device.id == device }) else {
            throw HandoffFailure("no paired device has the id \(device)", exitCode: .badInput)
        }
        _ = try await request(PeerMessage(.continued, id: id, by: state.name), to: entry, addresses: addresses)
    }
}

/// The daemon's lines on stderr (the journal, under systemd), through swift-log: the
/// daemon's events at `info`, and with ACTSHARE_DEBUG set its tracing at `debug`.
enum DaemonLog {
    static let debugging = Environment.value("ACTSHARE_DEBUG").map { !$0.isEmpty && $0 != "0" } ?? false

    static let logger: Logger = {
        var logger = Logger(label: "org.actshare.daemon") { _ in DaemonLogHandler() }
        logger.logLevel = debugging ? .debug : .info
        return logger
    }()

    /// One line, `actshare daemon: MESSAGE`.
    static func line(_ message: String) {
        logger.info("\(message)")
    }

    /// A line when ACTSHARE_DEBUG is set.
    static func debug(_ message: @autoclosure () -> String) {
        logger.debug("\(message())")
    }
}
