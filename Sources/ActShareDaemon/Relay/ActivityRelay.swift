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

/// Activities between paired devices: the current ones of every reachable device, one
/// fetched whole from its origin to continue here, one handed off to a device (the Hand
/// Off activity), and the word that one was continued.
struct ActivityRelay: Sendable {
    let device: LocalDevice
    /// The activities published here and those handed to this device.
    let store: ActivityStore
    let peers: PeerDirectory

    /// At most this many activities are taken from one paired device's list.
    static let listLimit = 256

    /// The current activities of every reachable paired device, newest first, each with
    /// `origin` set to the device's id.
    func remoteActivities() async -> [UserActivity] {
        await withTaskGroup(of: [UserActivity].self) { group in
            for (entry, addresses) in await peers.targets() {
                group.addTask {
                    guard let reply = try? await peers.request(PeerMessage(.list), to: entry, addresses: addresses) else { return [] }
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
            var all: [UserActivity] = await Array(store.received.values)
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
           let handed = await store.received[wanted.id] {
            if case .string(let text) = handed.userInfo["text"], handed.type == UserActivity.handedOffText {
                return .success(activity: handed, continuation: Continuation(text: text))
            } else if let url = handed.webpageURL {
                return .success(activity: handed, continuation: Continuation(url: url))
            }
            return .failure(.relay(.nothingToContinue(id: handed.id)))
        }
        guard let wanted = id.map({ id in listed.first { $0.id == id } }) ?? listed.first else {
            return .failure(.relay(.noRemoteActivity(id: id)))
        }
        guard let (entry, addresses) = await peers.targets().first(where: { $0.entry.device.id == wanted.origin }) else {
            return .failure(.relay(.originNoLongerPaired(id: wanted.id)))
        }
        do {
            // The origin may first wait for its app's command and its linked app (2 s each).
            let reply = try await peers.request(PeerMessage(.fetch, id: wanted.id), to: entry, addresses: addresses, seconds: 6)
            guard reply.type == .activity, let sent = reply.activity else {
                return .failure(.relay(.didNotSendActivity(device: entry.name, reason: Daemon.quoted(reply.message))))
            }
            var activity: UserActivity
            switch ActivityChecks.fromPeer(sent) {
            case .success(let checked) where checked.id == wanted.id: activity = checked
            case .success: return .failure(.relay(.sentAnotherActivity(device: entry.name, id: wanted.id)))
            case .failure(let refusal): return .failure(.relay(.sentRefusedActivity(device: entry.name, problem: refusal.message)))
            }
            activity.origin = entry.device.id
            activity.originName = entry.name
            var handlerProblems: [String] = []
            let handlers = HandlerManifest.load(from: device.paths.handlerDirectories) { handlerProblems.append($0) }
            for problem in handlerProblems { DaemonLog.line(problem) }
            switch HandlerManifest.continuation(for: activity, handlers: handlers) {
            case .success(let continuation):
                return .success(device: entry.device, activity: activity, continuation: continuation)
            case .failure(let failure):
                var response = ControlResponse.failure(failure)
                response.activity = activity
                return response
            }
        } catch {
            return .failure(.peer(.deviceUnreachable(device: entry.name, HandoffError(error))))
        }
    }

    /// The Hand Off activity: `activity` to the device named, or the only one.
    func send(_ activity: UserActivity, to device: String?) async -> ControlResponse {
        var activity = activity
        if let problem = ActivityChecks.problem(with: activity, fromPeer: false) { return .failure(.relay(.cannotHandOff(problem: problem))) }
        let chosen: [PeerDirectory.Target]
        do {
            chosen = try await peers.targets(named: device.map { [$0] } ?? [], all: false, howToChoose: "choose one with -o device=NAME")
        } catch {
            return .failure(HandoffError(error))
        }
        activity.id = Pairing.newID()
        let (entry, addresses) = chosen[0]
        do {
            let reply = try await peers.request(PeerMessage(.send, activity: activity), to: entry, addresses: addresses)
            guard reply.type == .ok else { return .failure(.relay(.handOffRefused(device: entry.name, reason: Daemon.quoted(reply.message)))) }
            return .success(id: activity.id, device: entry.device)
        } catch {
            return .failure(.peer(.deviceUnreachable(device: entry.name, HandoffError(error))))
        }
    }

    func tellContinued(id: String, device: String) async throws {
        guard let (entry, addresses) = await peers.targets().first(where: { $0.entry.device.id == device }) else {
            throw HandoffError.peer(.noDeviceWithID(device))
        }
        _ = try await peers.request(PeerMessage(.continued, id: id, by: self.device.name), to: entry, addresses: addresses)
    }
}
