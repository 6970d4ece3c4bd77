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
            guard ticket.prove() else { throw HandoffError.tooManyPairedConnections }
        }
        let remoteHost = ClientAddress.unmapped(channel.remoteAddress?.ipAddress ?? "127.0.0.1")
        try? await connection.executeThenClose { inbound, outbound in
            var frames = inbound.makeAsyncIterator()
            DaemonLog.debug("peer \(remoteHost): connected")
            guard let first = try await frames.next(), let pin = peer.value?.pin else { return }
            let message = try Wire.decode(PeerMessage.self, from: first)
            DaemonLog.debug("peer \(remoteHost): \(message.type.rawValue) from \(pin.prefix(16))")
            if let entry = await peers.paired.list.entry(pin: pin) {
                try prove()
                await peers.paired.saw(entry, at: remoteHost)
                // It is here: what waits for it goes now.
                await transfers.queue.hurry(deviceID: entry.device.id)
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
            } else if message.type == .pairRequest, await pairing.gate.mayAttempt(), let window = await pairing.gate.take() {
                DaemonLog.debug("peer \(remoteHost): answering the pairing request")
                try prove()
                try await pairing.respondToPairing(message, window: window, peer: peer, host: remoteHost, frames: &frames, outbound: outbound)
            } else {
                try await outbound.write(try Wire.encode(PeerMessage(.error, message: "not paired with this device")))
            }
        }
    }

    /// A paired device's request.
    private func answer(_ request: PeerMessage, from entry: PairedDevices.Entry) async -> PeerMessage {
        switch request.type {
        case .send:
            guard let sent = request.activity, sent.type == UserActivity.handedOffURL || sent.type == UserActivity.handedOffText else {
                return PeerMessage(.error, message: "only URLs and text can be handed off")
            }
            let activity: UserActivity
            switch ActivityChecks.fromPeer(sent) {
            case .success(let checked): activity = checked
            case .failure(let refusal):
                DaemonLog.line("refused what \(entry.name) handed off: \(refusal.message)")
                return PeerMessage(.error, message: "refused: \(refusal.message)")
            }
            // A URL goes to the browser: http and https only, whatever the sender checked.
            if activity.type == UserActivity.handedOffURL {
                guard let url = activity.webpageURL, ActivityChecks.isWebURL(url) else {
                    DaemonLog.line("refused a URL from \(entry.name) that is not http or https")
                    return PeerMessage(.error, message: "refused: only http and https URLs are opened")
                }
            } else {
                guard case .string = activity.userInfo["text"] else { return PeerMessage(.error, message: "refused: no text") }
            }
            await relay.store.receive(activity, from: entry)
            return PeerMessage(.ok)
        case .list:
            return PeerMessage(.activities, activities: await relay.store.current.map(\.summary))
        case .fetch:
            guard let id = request.id, ActivityChecks.isActivityID(id), var activity = await relay.store.activity(id) else {
                return PeerMessage(.error, message: "no current activity has that id")
            }
            // The userActivityWillSave moment: the app refreshes userInfo before it leaves.
            if let command = activity.needsSaveCommand, let refreshed = await commands.refreshedUserInfo(command) {
                await relay.store.replaceUserInfo(of: id, with: refreshed)
                activity.userInfo = refreshed
            }
            // An app through ActShareKit: its delegate's userActivityWillSave.
            if let app = await relay.store.takeSaveRequest(id), let refreshed = await app.save(id) {
                await relay.store.replaceUserInfo(of: id, with: refreshed)
                activity.userInfo = refreshed
            }
            activity.needsSaveCommand = nil
            activity.onContinued = nil
            return PeerMessage(.activity, activity: activity)
        case .clipboardOffer:
            return await clipboard.receiveOffer(request, from: entry)
        case .clipboardWithdraw:
            return await clipboard.withdrawn(request, from: entry)
        case .clipboardFiles:
            return await clipboard.serveFiles(request, from: entry)
        case .continued:
            // Who continued it, as the device says: a name fit to show, or its paired name.
            let by = request.by.flatMap { ActivityChecks.isDeviceName($0) ? $0 : nil } ?? entry.name
            guard let id = request.id, ActivityChecks.isActivityID(id), let activity = await relay.store.recordContinuation(of: id, by: by) else {
                return PeerMessage(.error, message: "no current activity has that id")
            }
            if let app = await relay.store.links[id] { await app.tellContinued(id, by: by) }
            if let command = activity.onContinued {
                // Let go: the app may start something that lasts, and the device that
                // continued is not kept waiting for it. Its words, never a shell's.
                await commands.startCommand(command, environment: ["ACTSHARE_CONTINUED_BY=\(by)"])
            }
            return PeerMessage(.ok)
        default:
            return PeerMessage(.error, message: "\(request.type.rawValue) is not a request")
        }
    }
}
