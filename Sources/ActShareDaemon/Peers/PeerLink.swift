import ActShareHandoff
import NIOCore
import NIOPosix
import NIOSSL

/// A connection to another daemon: TLS with this device's identity, the other side's
/// accepted by pin (one paired device, or, when pairing, anyone, its key recorded).
struct PeerLink {
    let channel: PeerChannel
    let peer: PeerIdentity

    static func connect(host: String, port: Int, group: EventLoopGroup, context: NIOSSLContext,
                        accept: @escaping @Sendable (String) -> Bool) async throws -> PeerLink {
        let peer = PeerIdentity()
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(2))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let tls = try NIOSSLClientHandler(
                        context: context, serverHostname: nil, customVerificationCallback: TLS.verifier(peer, accept: accept))
                    try channel.pipeline.syncOperations.addHandler(tls)
                    try channel.pipeline.syncOperations.addHandler(PeerFrameReader())
                    try channel.pipeline.syncOperations.addHandler(PeerFrameWriter())
                    return try PeerChannel(wrappingChannelSynchronously: channel)
                }
            }
        return PeerLink(channel: channel, peer: peer)
    }

    /// Sends `request` and returns the one reply, within `seconds`; closes the connection.
    static func exchange(host: String, port: Int, group: EventLoopGroup, context: NIOSSLContext, pin: String,
                         _ request: PeerMessage, seconds: Double = 3) async throws -> PeerMessage {
        try await Wire.within(seconds) {
            let link = try await connect(host: host, port: port, group: group, context: context) { $0 == pin }
            return try await link.channel.executeThenClose { inbound, outbound in
                try await outbound.write(try Wire.encode(request))
                var frames = inbound.makeAsyncIterator()
                guard let reply = try await frames.next() else { throw HandoffError.peer(.closedConnection(PeerAddress(host: host, port: port))) }
                return try Wire.decode(PeerMessage.self, from: reply)
            }
        }
    }
}
