import ActShareHandoff

/// Activities between the paired devices, as this device answers them: one handed off
/// to it, its list, an activity fetched, and one continued elsewhere.
extension ActivityRelay {
    /// A paired device's Hand Off: a URL for the browser or text, checked here whatever
    /// the sender checked.
    func receiveHandedOff(_ sent: UserActivity?, from entry: PairedDevices.Entry) async -> PeerMessage {
        guard let sent, sent.type == UserActivity.handedOffURL || sent.type == UserActivity.handedOffText else {
            return .error(.relay(.onlyURLsAndTextHandedOff))
        }
        let activity: UserActivity
        switch ActivityChecks.fromPeer(sent) {
        case .success(let checked): activity = checked
        case .failure(let refusal):
            DaemonLog.line("refused what \(entry.name) handed off: \(refusal.message)")
            return .error(.relay(.activityRefused(problem: refusal.message)))
        }
        // A URL goes to the browser: http and https only.
        if activity.type == UserActivity.handedOffURL {
            guard let url = activity.webpageURL, ActivityChecks.isWebURL(url) else {
                DaemonLog.line("refused a URL from \(entry.name) that is not http or https")
                return .error(.relay(.notAWebURL))
            }
        } else {
            guard case .string = activity.userInfo["text"] else { return .error(.relay(.noHandedOffText)) }
        }
        await store.receive(activity, from: entry)
        return PeerMessage(.ok)
    }

    /// This device's current activities, as a paired device lists them.
    func listed() async -> PeerMessage {
        PeerMessage(.activities, activities: await store.current.map(\.summary))
    }

    /// A paired device fetching activity `id`: its userInfo refreshed first by the app (its
    /// needs-save command, or its delegate through ActShareKit), without the commands.
    func fetched(_ id: String?, commands: ActivityCommands) async -> PeerMessage {
        guard let id, ActivityChecks.isActivityID(id), var activity = await store.activity(id) else {
            return .error(.relay(.noSuchActivity))
        }
        // The userActivityWillSave moment: the app refreshes userInfo before it leaves.
        if let command = activity.needsSaveCommand, let refreshed = await commands.refreshedUserInfo(command) {
            await store.replaceUserInfo(of: id, with: refreshed)
            activity.userInfo = refreshed
        }
        if let app = await store.takeSaveRequest(id), let refreshed = await app.save(id) {
            await store.replaceUserInfo(of: id, with: refreshed)
            activity.userInfo = refreshed
        }
        activity.needsSaveCommand = nil
        activity.onContinued = nil
        return PeerMessage(.activity, activity: activity)
    }

    /// A paired device continued activity `id`: recorded, the app told, its on-continued
    /// command started. `by`: who continued it, as the device says (a name fit to show,
    /// else its paired name).
    func continued(_ id: String?, by name: String?, from entry: PairedDevices.Entry, commands: ActivityCommands) async -> PeerMessage {
        let by = name.flatMap { ActivityChecks.isDeviceName($0) ? $0 : nil } ?? entry.name
        guard let id, ActivityChecks.isActivityID(id), let activity = await store.recordContinuation(of: id, by: by) else {
            return .error(.relay(.noSuchActivity))
        }
        if let app = await store.links[id] { await app.tellContinued(id, by: by) }
        if let command = activity.onContinued {
            // Let go: the app may start something that lasts, and the device that
            // continued is not kept waiting for it. Its words, never a shell's.
            await commands.startCommand(command, environment: ["ACTSHARE_CONTINUED_BY=\(by)"])
        }
        return PeerMessage(.ok)
    }
}
