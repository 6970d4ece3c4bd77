import ActShareCore
import ActShareHandoff
import NIOConcurrencyHelpers
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
    /// Extra addresses to try for paired devices (config `handoff.peers`, discovery static).
    let staticPeers: [(host: String, port: Int)]

    private(set) var activities: [String: UserActivity] = [:]
    private(set) var paired: PairedDevices
    /// Read by TLS verification callbacks, which cannot wait for the actor.
    nonisolated let pins: NIOLockedValueBox<Set<String>>
    nonisolated let pairingOpen = NIOLockedValueBox(false)
    private var window: PairingWindow?
    private var pairingAttempts: [ContinuousClock.Instant] = []

    init(name: String, port: Int, identity: Identity, paths: HandoffPaths, staticPeers: [(host: String, port: Int)]) {
        self.name = name
        self.port = port
        self.identity = identity
        self.paths = paths
        self.staticPeers = staticPeers
        let paired = PairedDevices(directory: paths.stateDirectory)
        self.paired = paired
        pins = NIOLockedValueBox(paired.pins)
    }

    // MARK: Activities published here

    func becomeCurrent(_ activity: UserActivity) -> String {
        var activity = activity
        var generator = SystemRandomNumberGenerator()
        activity.id = Hex.string((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
        activity.created = Date().timeIntervalSince1970
        activity.origin = name
        activities[activity.id] = activity
        return activity.id
    }

    func invalidate(_ id: String) -> Bool { activities.removeValue(forKey: id) != nil }

    // MARK: Activities handed to this device (the Hand Off activity)

    private(set) var received: [String: UserActivity] = [:]

    func receive(_ activity: UserActivity, from entry: PairedDevices.Entry) {
        var activity = activity
        activity.origin = entry.device.id
        activity.originName = entry.name
        activity.created = Date().timeIntervalSince1970
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
