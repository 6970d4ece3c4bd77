import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

extension Daemon {
    /// The peer port, listening: each connection admitted within the budget gets TLS that
    /// accepts the paired devices' pins (or anyone while pairing is open) and the peer
    /// framing. Bound before the control socket appears, so that the socket appearing
    /// means the daemon is all there (clients and tests wait for it), and a port in use
    /// ends the daemon before it does.
    static func listen(group: MultiThreadedEventLoopGroup, address: String, port: Int, context: NIOSSLContext, budget: ConnectionBudget,
                       pins: NIOLockedValueBox<Set<String>>, pairingOpen: NIOLockedValueBox<Bool>) async throws -> NIOAsyncChannel<AcceptedPeer, Never> {
        let admission = AdmissionHandler(budget: budget)
        do {
            return try await ServerBootstrap(group: group)
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
                .bind(host: address, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        guard let ticket = admission.take(channel) else { return .refused(channel) }
                        channel.closeFuture.whenComplete { _ in ticket.release() }
                        // Proven within the time, or closed: the TLS handshake counts.
                        channel.eventLoop.scheduleTask(in: .seconds(Self.unauthenticatedSeconds)) {
                            if !ticket.isProven { channel.close(promise: nil) }
                        }
                        let peer = PeerIdentity()
                        // Paired devices, or anyone while `handoff pair --wait` is open.
                        let tls = NIOSSLServerHandler(context: context, customVerificationCallback: TLS.verifier(peer) { pin in
                            pins.withLockedValue { $0.contains(pin) } || pairingOpen.withLockedValue { $0 }
                        })
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .seconds(Self.idleSeconds)))
                        try channel.pipeline.syncOperations.addHandler(CloseWhenIdle())
                        try channel.pipeline.syncOperations.addHandler(tls)
                        try channel.pipeline.syncOperations.addHandler(PeerFrameReader())
                        try channel.pipeline.syncOperations.addHandler(PeerFrameWriter())
                        return .admitted(try PeerChannel(wrappingChannelSynchronously: channel), peer, ticket)
                    }
                }
        } catch {
            let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
            throw HandoffError.control(.cannotListen(address: address, port: port, reason: reason))
        }
    }
}
