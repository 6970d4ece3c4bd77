import ActShareCore
import ActShareHandoff
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The activities ``ActivityRelay`` keeps: those published here (and the apps that
/// published them through ActShareKit), and those paired devices handed to this one.
actor ActivityStore {
    /// The name published activities carry as their origin.
    let deviceName: String

    private var activities: [String: UserActivity] = [:]
    private(set) var links: [String: AppLink] = [:]
    private var needsSave: Set<String> = []
    private(set) var received: [String: UserActivity] = [:]

    /// At most this many handed-off items wait here; beyond it the oldest is let go.
    static let receivedLimit = 64

    init(deviceName: String) {
        self.deviceName = deviceName
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
        activity.origin = deviceName
        activities[activity.id] = activity
        return activity.id
    }

    func invalidate(_ id: String) -> Bool {
        links.removeValue(forKey: id)
        needsSave.remove(id)
        return activities.removeValue(forKey: id) != nil
    }

    func activity(_ id: String) -> UserActivity? { activities[id] }

    func replaceUserInfo(of id: String, with userInfo: [String: JSONValue]) {
        activities[id]?.userInfo = userInfo
    }

    func recordContinuation(of id: String, by device: String) -> UserActivity? {
        activities[id]?.continuedBy.append(device)
        return activities[id]
    }

    var current: [UserActivity] { activities.values.sorted { $0.created > $1.created } }

    // MARK: Apps that published through ActShareKit

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

    /// Keeps what a paired device handed off, under an id made here (so that no device
    /// can replace what another sent).
    func receive(_ activity: UserActivity, from entry: PairedDevices.Entry) {
        receive(activity, origin: entry.device.id, originName: entry.name)
    }

    /// `activity` handed to this device by `originName` (`origin` its id; a phone's is
    /// `quickshare:ENDPOINT`): kept until continued, the oldest dropped beyond the limit.
    /// Its new id.
    @discardableResult
    func receive(_ activity: UserActivity, origin: String, originName: String) -> String {
        var activity = activity
        activity.id = Pairing.newID()
        activity.origin = origin
        activity.originName = originName
        activity.created = Date().timeIntervalSince1970
        if received.count >= Self.receivedLimit, let oldest = received.values.min(by: { $0.created < $1.created }) {
            received.removeValue(forKey: oldest.id)
        }
        received[activity.id] = activity
        return activity.id
    }

    /// A received activity, taken: once continued it is gone.
    func takeReceived(_ id: String) -> UserActivity? { received.removeValue(forKey: id) }
}
