/// Told about an activity's life elsewhere: NSUserActivityDelegate for actshare.
///
/// Called on ActShareKit's own thread, one call at a time, never on the caller's.
public protocol UserActivityDelegate: AnyObject, Sendable {
    /// Another device is about to fetch the activity, and it `needsSave`: bring
    /// `userInfo` up to date now (with `addUserInfoEntries` or by setting it).
    func userActivityWillSave(_ activity: UserActivity)
    /// A paired device continued the activity.
    func userActivityWasContinued(_ activity: UserActivity, by device: String)
}

extension UserActivityDelegate {
    public func userActivityWillSave(_ activity: UserActivity) {}
    public func userActivityWasContinued(_ activity: UserActivity, by device: String) {}
}
