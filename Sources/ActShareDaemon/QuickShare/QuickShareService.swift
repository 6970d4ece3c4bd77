import ActShareCore
import ActShareCrypto
import ActShareDNSSD
import ActShareQuickShare
import NIOCore
import NIOPosix
import Synchronization

/// Quick Share in the daemon, beside LocalSend (docs/PROTOCOL.md, "Quick Share"): a TCP
/// port of the kernel's choosing where phones connect, each connection a
/// ``QuickShareReceiverHandler`` whose question goes through the requests LocalSend's go
/// through.
///
/// Visibility (docs/PROTOCOL.md): phones see this device only while someone asks for it
/// (`actshare handoff visible`, the share sheet), as Android's "everyone" visibility,
/// which also lasts minutes: the mDNS service `_FC9F5ED42C8A._tcp` is advertised then, and
/// goodbye is said when the last asker leaves. The port stays open either way: a phone
/// that found it while visible may still be connecting.
final class QuickShareService: Sendable {
    let settings: QuickShareSettings
    /// The questions waiting for the user: LocalSend's, so that `handoff requests` has one list.
    let requests: LocalSendRequests
    /// This device as phones see it: a new endpoint id each start, as Android's.
    let endpoint = QuickShareEndpoint.random()
    let name: String
    let state = Mutex(State())
    struct State {
        var port: Int?
        var connections = 0
        /// Who asked to be visible, and the advertisement while anyone does.
        var visibleHolders = 0
        var advertiser: ServiceDiscovery?
        /// The shares accepted and under way, by the request the user answered.
        var accepted: [String: LocalSendSession] = [:]
        /// The receivers the last look found, and when (``nearby(waiting:enough:)``): what
        /// a question that does not wait is answered from.
        var heard: (at: ContinuousClock.Instant, receivers: [Seen])?
        /// Whether a look runs for such a question now (one at a time).
        var looking = false
        /// QR codes shown for providers, whose shares go on after they returned.
        var codesWaiting = 0
    }
    /// Whether multicast DNS may be used (`discovery: static` turns it off).
    let multicast: Bool
    let listenAddress: String
    /// The Bluetooth LE signal that makes phones nearby advertise, held while looking.
    let bluetooth: BluetoothTrigger

    /// Connections at once: a phone needs one; more are closed as they come.
    static let maximumConnections = 8

    init(settings: QuickShareSettings, name: String, requests: LocalSendRequests, multicast: Bool, listenAddress: String,
         bluetooth: BluetoothTrigger) {
        self.bluetooth = bluetooth
        self.settings = settings
        self.name = name
        self.requests = requests
        self.multicast = multicast
        self.listenAddress = listenAddress
    }

    /// The mDNS service type phones browse for.
    static let serviceType: DNSName = [String(QuickShareEndpoint.serviceType.prefix { $0 != "." }), "_tcp", "local"]

    /// What is advertised: this endpoint's name, and the TXT record `n` (this device's
    /// type and name, visible).
    func advertisement(port: Int) -> ServiceAdvertisement {
        let info = QuickShareEndpointInfo(deviceType: .laptop, name: name)
        return ServiceAdvertisement(serviceType: Self.serviceType, instance: endpoint.serviceName,
                                    host: "actshare-qs-" + String(decoding: endpoint.id, as: UTF8.self).lowercased(), port: UInt16(port),
                                    text: ["n=" + info.textRecord])
    }

    /// Advertised to phones from now until as many ``endVisible()`` calls; the name shown.
    func becomeVisible() throws(HandoffError) -> String {
        guard settings.mode != .off, let port else { throw .quickShare(.off) }
        guard multicast else { throw .quickShare(.needsMulticast) }
        let advertisement = advertisement(port: port)
        let failure: String? = state.withLock { state in
            if state.advertiser == nil {
                do {
                    let advertiser = try ServiceDiscovery(advertising: advertisement, browsing: Self.serviceType,
                                                          advertisedAddress: listenAddress == "0.0.0.0" ? nil : listenAddress)
                    advertiser.start()
                    state.advertiser = advertiser
                } catch {
                    return "\(error)"
                }
            }
            state.visibleHolders += 1
            return nil
        }
        if let failure {
            DaemonLog.line("Quick Share cannot be advertised: \(failure)")
            throw .quickShare(.off)
        }
        DaemonLog.line("visible to phones nearby as \(name) (Quick Share \(advertisement.instance))")
        return name
    }

    /// One asker left; the last one's leaving says goodbye on the link.
    func endVisible() {
        let stopping: ServiceDiscovery? = state.withLock { state in
            state.visibleHolders = max(0, state.visibleHolders - 1)
            guard state.visibleHolders == 0 else { return nil }
            defer { state.advertiser = nil }
            return state.advertiser
        }
        if let stopping {
            stopping.stop()
            DaemonLog.line("no longer visible to phones")
        }
    }

    /// The port phones connect to, once listening.
    var port: Int? { state.withLock { $0.port } }

    /// Listens until cancelled; a port that cannot be had is said in the log.
    func run(group: MultiThreadedEventLoopGroup, listenAddress: String, transfers: TransferService, relay: ActivityRelay) async {
        let server: Channel
        do {
            server = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        guard self.admit(channel) else { throw ChannelError.ioOnClosedChannel }
                        let address = channel.remoteAddress?.ipAddress ?? "?"
                        let inbound = QuickShareInbound(service: self, transfers: transfers, relay: relay, ownName: self.name)
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(QuickShareFrameDecoder()))
                        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(QuickShareFrameEncoder()))
                        try channel.pipeline.syncOperations.addHandler(QuickShareReceiverHandler(keyPair: try P256KeyPair(), address: address, delegate: inbound))
                    }
                }
                .bind(host: listenAddress, port: 0).get()
        } catch {
            DaemonLog.line("Quick Share is off: cannot listen on \(listenAddress): \(error)")
            return
        }
        let port = server.localAddress?.port ?? 0
        state.withLock { $0.port = port }
        DaemonLog.line("Quick Share on port \(port) as \(name) (endpoint \(String(decoding: endpoint.id, as: UTF8.self)))")
        await withTaskCancellationHandler {
            try? await server.closeFuture.get()
        } onCancel: {
            server.close(promise: nil)
        }
    }

    /// `session`, accepted as request `requestID`, is under way (until ``finished(_:)``).
    func underWay(_ session: LocalSendSession, requestID: String) {
        state.withLock { $0.accepted[requestID] = session }
    }

    func finished(_ requestID: String) {
        _ = state.withLock { $0.accepted.removeValue(forKey: requestID) }
    }

    /// Stops the share the user accepted as `requestID` (`handoff decline ID`): nothing of
    /// it stays, and its connection tells the phone at its next bytes. Whether there was one.
    func cancel(requestID: String) -> Bool {
        guard let session = state.withLock({ $0.accepted.removeValue(forKey: requestID) }) else { return false }
        session.discard()
        DaemonLog.line("stopped the Quick Share transfer from \(session.sender) (\(requestID)): nothing of it is kept")
        return true
    }

    /// Whether `channel` may be served: at most ``maximumConnections`` at once.
    private func admit(_ channel: Channel) -> Bool {
        let admitted = state.withLock { state in
            guard state.connections < Self.maximumConnections else { return false }
            state.connections += 1
            return true
        }
        if admitted {
            channel.closeFuture.whenComplete { _ in self.state.withLock { $0.connections -= 1 } }
        } else {
            DaemonLog.line("refused a Quick Share connection from \(channel.remoteAddress?.ipAddress ?? "?"): \(Self.maximumConnections) are open")
        }
        return admitted
    }
}
