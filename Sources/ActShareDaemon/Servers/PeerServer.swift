import ActShareCore
import ActShareHandoff
import NIOConcurrencyHelpers
import NIOCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The peer port's side of the daemon: another daemon's connection, its requests answered
/// by the parts it needs, and only those (docs/PROTOCOL.md, "Between daemons").
struct PeerServer {
    let peers: PeerDirectory
    let relay: ActivityRelay
    let transfers: TransferService
    let pairing: PairingFlow
    let commands: ActivityCommands
    let clipboard: ClipboardService

    /// One connection from another daemon. It must prove itself within 2 s: a paired
    /// device's first request, or a pairing request while `handoff pair --wait` is open.
    func serve(_ connection: PeerChannel, peer: PeerIdentity, ticket: ConnectionBudget.Ticket) async {
        let channel = connection.channel
        let prove = {
            // Paired devices have a budget of their own; when even that is full, it closes.
            guard ticket.prove() else { throw HandoffError.control(.tooManyPairedConnections) }
        }
        let remoteHost = ClientAddress.unmapped(channel.remoteAddress?.ipAddress ?? "127.0.0.1")
        try? await connection.executeThenClose { inbound, outbound in
            var frames = inbound.makeAsyncIterator()
            DaemonLog.debug("peer \(remoteHost): connected")
            guard let first = try await frames.next(), let pin = peer.value?.pin else { return }
            let message = try Wire.decode(PeerMessage.self, from: first)
            DaemonLog.debug("peer \(remoteHost): \(message.type.rawValue) from \(pin.prefix(16))")
            if let entry = await peers.entry(pin: pin) {
                try prove()
                await peers.saw(entry, at: remoteHost)
                // It is here: what waits for it goes now.
                await transfers.hurry(deviceID: entry.device.id)
                var next: PeerFrame? = first
                while let frame = next {
                    let request = try Wire.decode(PeerMessage.self, from: frame)
                    if request.type == .transferOffer {
                        await transfers.receiveFiles(request, from: entry, frames: &frames, outbound: outbound)
                        return
                    }
                    if request.type == .clipboardFetch {
                        try await clipboard.serveFetch(request, from: entry, outbound: outbound)
                        return
                    }
                    try await outbound.write(try Wire.encode(await answer(request, from: entry)))
                    next = try await frames.next()
                }
            } else if message.type == .pairRequest, let window = await pairing.takeWindow() {
                DaemonLog.debug("peer \(remoteHost): answering the pairing request")
                try prove()
                try await pairing.respondToPairing(message, window: window, peer: peer, host: remoteHost, frames: &frames, outbound: outbound)
            } else {
                try await outbound.write(try Wire.encode(PeerMessage.error(.peer(.notPairedHere))))
            }
        }
    }

    /// A paired device's request, answered by the part it is for.
    private func answer(_ request: PeerMessage, from entry: PairedDevices.Entry) async -> PeerMessage {
        switch request.type {
        case .send: return await relay.receiveHandedOff(request.activity, from: entry)
        case .list: return await relay.listed()
        case .fetch: return await relay.fetched(request.id, commands: commands)
        case .continued: return await relay.continued(request.id, by: request.by, from: entry, commands: commands)
        case .clipboardOffer: return await clipboard.receiveOffer(request, from: entry)
        case .clipboardWithdraw: return await clipboard.withdrawn(request, from: entry)
        case .clipboardFiles: return await clipboard.serveFiles(request, from: entry)
        default: return .error(.peer(.notARequest(kind: request.type.rawValue)))
        }
    }
}
