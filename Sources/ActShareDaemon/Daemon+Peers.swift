import ActShareCore
import ActShareHandoff
import NIOConcurrencyHelpers
import NIOCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Daemon {
    /// One connection from another daemon. It must prove itself within 2 s: a paired
    /// device's first request, or a pairing request while `handoff pair --wait` is open.
    func servePeer(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, peer: PeerIdentity) async {
        let channel = connection.channel
        let proven = NIOLockedValueBox(false)
        let unauthenticated = self.unauthenticated
        let prove = {
            let first = proven.withLockedValue { wasProven -> Bool in
                defer { wasProven = true }
                return !wasProven
            }
            if first { unauthenticated.withLockedValue { $0 -= 1 } }
        }
        channel.eventLoop.scheduleTask(in: .seconds(Self.unauthenticatedSeconds)) {
            if !proven.withLockedValue({ $0 }) { channel.close(promise: nil) }
        }
        defer { prove() }
        let remoteHost = channel.remoteAddress?.ipAddress ?? "127.0.0.1"
        try? await connection.executeThenClose { inbound, outbound in
            var frames = inbound.makeAsyncIterator()
            DaemonLog.debug("peer \(remoteHost): connected")
            guard let first = try await frames.next(), let pin = peer.value?.pin else { return }
            let message = try Wire.decode(PeerMessage.self, from: first)
            DaemonLog.debug("peer \(remoteHost): \(message.type.rawValue) from \(pin.prefix(16))")
            if let entry = await state.paired.entry(pin: pin) {
                prove()
                var next: ByteBuffer? = first
                while let frame = next {
                    let request = try Wire.decode(PeerMessage.self, from: frame)
                    try await outbound.write(try Wire.encode(await answer(request, from: entry)))
                    next = try await frames.next()
                }
            } else if message.type == .pairRequest, await state.mayAttemptPairing(), let window = await state.takePairingWindow() {
                DaemonLog.debug("peer \(remoteHost): answering the pairing request")
                prove()
                try await respondToPairing(message, window: window, peer: peer, host: remoteHost, frames: &frames, outbound: outbound)
            } else {
                try await outbound.write(try Wire.encode(PeerMessage(.error, message: "not paired with this device")))
            }
        }
    }

    /// A paired device's request.
    private func answer(_ request: PeerMessage, from entry: PairedDevices.Entry) async -> PeerMessage {
        switch request.type {
        case .send:
            guard var activity = request.activity, activity.type == UserActivity.handedOffURL || activity.type == UserActivity.handedOffText else {
                return PeerMessage(.error, message: "only URLs and text can be handed off")
            }
            activity.needsSaveCommand = nil
            activity.onContinued = nil
            await state.receive(activity, from: entry)
            return PeerMessage(.ok)
        case .list:
            return PeerMessage(.activities, activities: await state.currentActivities.map(\.summary))
        case .fetch:
            guard let id = request.id, var activity = await state.activity(id) else {
                return PeerMessage(.error, message: "no current activity has the id \(request.id ?? "")")
            }
            // The userActivityWillSave moment: the app refreshes userInfo before it leaves.
            if let command = activity.needsSaveCommand, let refreshed = await refreshedUserInfo(command) {
                await state.replaceUserInfo(of: id, with: refreshed)
                activity.userInfo = refreshed
            }
            // An app through ActShareKit: its delegate's userActivityWillSave.
            if let app = await state.takeSaveRequest(id), let refreshed = await app.save(id) {
                await state.replaceUserInfo(of: id, with: refreshed)
                activity.userInfo = refreshed
            }
            activity.needsSaveCommand = nil
            activity.onContinued = nil
            return PeerMessage(.activity, activity: activity)
        case .continued:
            guard let id = request.id, let activity = await state.recordContinuation(of: id, by: request.by ?? "another device") else {
                return PeerMessage(.error, message: "no current activity has the id \(request.id ?? "")")
            }
            if let app = await state.links[id] { await app.tellContinued(id, by: request.by ?? "another device") }
            if let command = activity.onContinued {
                // In the background, its output let go: the app may start something that
                // lasts, and the device that continued is not kept waiting for it.
                _ = await runCommand(
                    ["/bin/sh", "-c", "ACTSHARE_CONTINUED_BY=\"$1\"; export ACTSHARE_CONTINUED_BY; (eval \"$2\") </dev/null >/dev/null &",
                     "sh", request.by ?? "", command],
                    timeLimit: Self.commandTimeLimit)
            }
            return PeerMessage(.ok)
        default:
            return PeerMessage(.error, message: "\(request.type.rawValue) is not a request")
        }
    }

    /// How long an app's command may take: as long as an app linked through ActShareKit
    /// has to answer `will-save`.
    static let commandTimeLimit: Duration = .seconds(2)

    /// What `command` prints, if it is a JSON object small enough for userInfo.
    private func refreshedUserInfo(_ command: String) async -> [String: JSONValue]? {
        guard let output = await runCommand(["/bin/sh", "-c", command], timeLimit: Self.commandTimeLimit),
              output.count <= UserActivity.maximumUserInfoSize else { return nil }
        return try? JSONDecoder().decode([String: JSONValue].self, from: Data(output))
    }

    /// Runs a command on the thread pool (it blocks); its standard output when it exits 0
    /// within `timeLimit`. A command stopped at the limit is said in the daemon's log.
    func runCommand(_ argv: [String], timeLimit: Duration) async -> [UInt8]? {
        let outcome = try? await threadPool.runIfActive {
            try ChildProcess.run(argv[0], Array(argv.dropFirst()), timeLimit: timeLimit)
        }
        guard let outcome else { return nil }
        if outcome.timedOut { DaemonLog.line("stopped `\(argv.last ?? argv[0])` after \(timeLimit), the time an app's command may take") }
        return outcome.status == 0 && !outcome.timedOut ? outcome.output : nil
    }
}
