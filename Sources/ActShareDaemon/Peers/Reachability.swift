/// Whether each paired device answered when it was last asked, so that the share sheet's
/// and `list`'s Hand Off targets (docs/PROTOCOL.md, `devices` with `timeout: 0`) say it at
/// once, without asking every device again at every list.
actor Reachability {
    /// By device id: whether it answered the last time it was asked.
    private var answered: [String: Bool] = [:]
    /// Whether every device is being asked now (at most one such round at a time).
    private var refreshing = false

    func record(_ deviceID: String, reachable: Bool) {
        answered[deviceID] = reachable
    }

    /// Whether `deviceID` answered when it was last asked; nil when it was not asked yet.
    func lastAnswer(_ deviceID: String) -> Bool? {
        answered[deviceID]
    }

    /// Starts a round of asking, unless one is under way: whether this one may go.
    func beginRefresh() -> Bool {
        guard !refreshing else { return false }
        refreshing = true
        return true
    }

    func endRefresh() {
        refreshing = false
    }
}
