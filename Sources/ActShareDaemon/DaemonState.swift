import ActShareCore
import ActShareHandoff
import NIOConcurrencyHelpers
import NIOCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything the daemon knows, behind one actor: this device's published activities, its
/// paired devices, and an open pairing window.
actor DaemonState {
    let name: String
    let port: Int
    let identity: Identity
    let paths: HandoffPaths

    private(set) var activities: [String: UserActivity] = [:]
    private(set) var paired: PairedDevices
    /// Read by TLS verification callbacks, which cannot wait for the actor.
    nonisolated let pins: NIOLockedValueBox<Set<String>>
    nonisolated let pairingOpen = NIOLockedValueBox(false)
    /// Where paired devices were paired or last seen: their connections draw on a budget
    /// of their own (ConnectionBudget).
    nonisolated let pairedAddresses: NIOLockedValueBox<Set<String>>
    private var window: PairingWindow?
    private var pairingAttempts: [ContinuousClock.Instant] = []

    init(name: String, port: Int, identity: Identity, paths: HandoffPaths) {
        self.name = name
        self.port = port
        self.identity = identity
        self.paths = paths
        let paired = PairedDevices(file: paths.pairedDevices)
        self.paired = paired
        pins = NIOLockedValueBox(paired.pins)
        pairedAddresses = NIOLockedValueBox(Set(paired.entries.map(\.host)))
    }

    // MARK: Activities published here

    /// Publishes `activity`. Like NSUserActivity's `becomeCurrent`, it replaces the
    /// current activity of the same type and team: an app has one current activity of a
    /// kind, not a growing list.
    func becomeCurrent(_ activity: UserActivity) -> String {
        for old in activities.values where old.type == activity.type && old.team == activity.team { _ = invalidate(old.id) }
        var activity = activity
        activity.id = Pairing.newID()
        activity.created = Date().timeIntervalSince1970
        activity.origin = name
        activities[activity.id] = activity
        return activity.id
    }

    func invalidate(_ id: String) -> Bool {
        links.removeValue(forKey: id)
        needsSave.remove(id)
        return activities.removeValue(forKey: id) != nil
    }

    // MARK: Apps that published through ActShareKit

    private(set) var links: [String: AppLink] = [:]
    private var needsSave: Set<String> = []

    func link(_ id: String, to link: AppLink) { links[id] = link }

    func markNeedsSave(_ id: String, _ value: Bool) {
        if value { needsSave.insert(id) } else { needsSave.remove(id) }
    }

    /// The app to ask for a save before `id` leaves, if it asked to be asked.
    func takeSaveRequest(_ id: String) -> AppLink? {
        guard needsSave.remove(id) != nil else { return nil }
        return links[id]
    }

    // MARK: Activities handed to this device (the Hand Off activity)

    private(set) var received: [String: UserActivity] = [:]

    /// At most this many handed-off items wait here; beyond it the oldest is let go.
    static let receivedLimit = 64

    /// Keeps what a paired device handed off, under an id made here (so that no device
    /// can replace what another sent).
    func receive(_ activity: UserActivity, from entry: PairedDevices.Entry) {
        var activity = activity
        activity.id = Pairing.newID()
        activity.origin = entry.device.id
        activity.originName = entry.name
        activity.created = Date().timeIntervalSince1970
        if received.count >= Self.receivedLimit, let oldest = received.values.min(by: { $0.created < $1.created }) {
            received.removeValue(forKey: oldest.id)
        }
        received[activity.id] = activity
    }

    /// A received activity, taken: once continued it is gone.
    func takeReceived(_ id: String) -> UserActivity? { received.removeValue(forKey: id) }

    func activity(_ id: String) -> UserActivity? { activities[id] }

    func replaceUserInfo(of id: String, with userInfo: [String: JSONValue]) {
        activities[id]?.userInfo = userInfo
    }

    func recordContinuation(of id: String, by device: String) -> UserActivity? {
        activities[id]?.continuedBy.append(device)
        return activities[id]
    }

    var currentActivities: [UserActivity] { activities.values.sorted { $0.created > $1.created } }

    // MARK: Paired devices

    func addPaired(_ entry: PairedDevices.Entry) throws {
        try paired.add(entry)
        pins.withLockedValue { $0 = paired.pins }
        pairedAddresses.withLockedValue { _ = $0.insert(entry.host) }
    }

    /// A paired device proved itself from `address`: later connections from there are
    /// counted as its own. The set is bounded (a device that moves often leaves the
    /// oldest addresses to the strangers' budget).
    func saw(_ entry: PairedDevices.Entry, at address: String) {
        pairedAddresses.withLockedValue { addresses in
            if addresses.count >= 4 * max(paired.entries.count, 1) + 16 { addresses = Set(paired.entries.map(\.host)) }
            addresses.insert(address)
        }
    }

    /// A paired device answered at another address than the one kept: keep the new one.
    func moved(_ entry: PairedDevices.Entry, to host: String, port: Int) {
        guard var moved = paired.entry(pin: entry.pin) else { return }
        moved.host = host
        moved.port = port
        try? addPaired(moved)
    }

    func removePaired(pin: String) throws {
        try paired.remove(pin: pin)
        pins.withLockedValue { $0 = paired.pins }
    }

    // MARK: Pairing

    /// Opens the window for one incoming pairing; nil if one is open already.
    func openPairingWindow() -> PairingWindow? {
        guard window == nil else { return nil }
        let opened = PairingWindow()
        window = opened
        pairingOpen.withLockedValue { $0 = true }
        return opened
    }

    /// The open window, taken by the first pairing request (nil: refuse the request).
    func takePairingWindow() -> PairingWindow? {
        defer {
            window = nil
            pairingOpen.withLockedValue { $0 = false }
        }
        return window
    }

    func closePairingWindow(_ closing: PairingWindow) {
        if window === closing {
            window = nil
            pairingOpen.withLockedValue { $0 = false }
        }
    }

    /// Whether a pairing attempt may start now: at most three in any ten seconds, so that
    /// nobody can try code after code.
    func mayAttemptPairing() -> Bool {
        let now = ContinuousClock.now
        pairingAttempts.removeAll { now - $0 > .seconds(10) }
        guard pairingAttempts.count < 3 else { return false }
        pairingAttempts.append(now)
        return true
    }
}

/// An open `handoff pair --wait`: the responding peer connection tells the CLI the code
/// through `events` and learns the user's answer through `answers`.
final class PairingWindow: Sendable {
    let events: AsyncStream<ControlResponse>
    let eventSink: AsyncStream<ControlResponse>.Continuation
    let answers: AsyncStream<Bool>
    let answerSink: AsyncStream<Bool>.Continuation

    init() {
        (events, eventSink) = AsyncStream.makeStream()
        (answers, answerSink) = AsyncStream.makeStream()
    }
}

/// An app's control connection, kept for its activity's events.
final class AppLink: Sendable {
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let pending = NIOLockedValueBox<CheckedContinuation<[String: JSONValue]?, Never>?>(nil)

    init(outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.outbound = outbound
    }

    /// Asks the app to save (`will-save`) and waits up to 2 s for its `update`.
    func save(_ id: String) async -> [String: JSONValue]? {
        let timer = Task {
            try await Task.sleep(for: .seconds(2))
            self.answer(nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            // Waiting before the event goes out: a quick answer cannot be missed.
            pending.withLockedValue { $0 = continuation }
            let outbound = self.outbound
            Task {
                let event = ControlResponse.success(id: id, event: "will-save")
                if (try? await outbound.write(try Wire.line(event))) == nil { self.answer(nil) }
            }
        }
    }

    /// The app's update (or nil on timeout): resumes a waiting `save`.
    func answer(_ userInfo: [String: JSONValue]?) {
        pending.withLockedValue { waiting in
            waiting?.resume(returning: userInfo)
            waiting = nil
        }
    }

    func tellContinued(_ id: String, by device: String) async {
        let event = ControlResponse.success(id: id, device: Device(id: "", name: device, host: "", port: 0), event: "continued")
        _ = try? await outbound.write(try Wire.line(event))
    }
}
