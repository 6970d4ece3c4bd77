import ActShareHandoff

/// This device's own activities, as its user and apps publish them over the control
/// socket, and what was handed to it.
extension ActivityRelay {
    /// `activity` made current: its id, or why it is refused.
    func publish(_ activity: UserActivity) async -> ControlResponse {
        if let problem = ActivityChecks.problem(with: activity, fromPeer: false) {
            return .failure(.relay(.activityRefused(problem: problem)))
        }
        return .success(id: await store.becomeCurrent(activity))
    }

    /// Activity `id` no longer current.
    func invalidate(_ id: String) async -> ControlResponse {
        guard await store.invalidate(id) else { return .failure(.relay(.noCurrentActivity(id: id))) }
        return .success()
    }

    /// The activities an app kept current, once it is gone.
    func forget(_ ids: [String]) async {
        for id in ids { _ = await store.invalidate(id) }
    }

    /// Activity `id` kept in touch with the app that published it (its will-save, its
    /// continuations).
    func link(_ id: String, to app: AppLink) async { await store.link(id, to: app) }

    /// This device's current activities.
    func current() async -> [UserActivity] { await store.current }

    /// Whether `yes`, the app is asked to save activity `id` before a device fetches it.
    func markNeedsSave(_ id: String, _ yes: Bool) async -> ControlResponse {
        guard await store.activity(id) != nil else { return .failure(.relay(.noCurrentActivity(id: id))) }
        await store.markNeedsSave(id, yes)
        return .success()
    }

    /// An activity another kind of device handed to this one (a phone's link), kept
    /// until it is continued: its id here.
    func keep(_ activity: UserActivity, origin: String, originName: String) async -> String {
        await store.receive(activity, origin: origin, originName: originName)
    }

    /// Whether `id` was handed to this device (and is now handled, so gone).
    func takeHandedOff(_ id: String) async -> Bool { await store.takeReceived(id) != nil }
}
