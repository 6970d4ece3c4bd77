import ActShareCore
import ActShareCrypto
import ActShareQuickShare
import NIOCore
import NIOPosix
import Synchronization

/// Quick Share in the daemon, beside LocalSend (docs/PROTOCOL.md, "Quick Share"): a TCP
/// port of the kernel's choosing where phones connect, each connection a
/// ``QuickShareReceiverHandler`` whose question goes through the requests LocalSend's go
/// through.
final class QuickShareService: Sendable {
    let settings: QuickShareSettings
    /// The questions waiting for the user: LocalSend's, so that `handoff requests` has one list.
    let requests: LocalSendRequests
    /// This device as phones see it: a new endpoint id each start, as Android's.
    let endpoint = QuickShareEndpoint.random()
    let name: String
    private let state = Mutex(State())
    private struct State {
        var port: Int?
        var connections = 0
    }

    /// Connections at once: a phone needs one; more are closed as they come.
    static let maximumConnections = 8

    init(settings: QuickShareSettings, name: String, requests: LocalSendRequests) {
        self.settings = settings
        self.name = name
        self.requests = requests
    }

    /// The port phones connect to, once listening.
    var port: Int? { state.withLock { $0.port } }

    /// Listens until cancelled; a port that cannot be had is said in the log.
    func run(group: MultiThreadedEventLoopGroup, listenAddress: String, transfers: TransferService) async {
        let server: Channel
        do {
            server = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        guard self.admit(channel) else { throw ChannelError.ioOnClosedChannel }
                        let address = channel.remoteAddress?.ipAddress ?? "?"
                        let inbound = QuickShareInbound(service: self, transfers: transfers, ownName: self.name)
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
