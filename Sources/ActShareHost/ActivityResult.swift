import ActShareCore

/// How performing an activity ended: the `completionWithItemsHandler` of a share sheet.
public struct ActivityResult: Sendable {
    public enum Status: Sendable, Equatable {
        case completed
        case failed
        /// The user cancelled: a normal outcome, not an error.
        case cancelled
        /// The provider refused the items or options as given (`error` says which).
        case badInput
    }

    /// The activity type.
    public var activity: String
    public var status: Status
    /// Items the provider handed back (files written, links, text).
    public var returnedItems: [Item]
    /// Items the provider handed back that actshare refused, with the reason.
    public var droppedItems: [DroppedItem]
    /// What went wrong, for a failed activity.
    public var error: String?

    public init(activity: String, status: Status, returnedItems: [Item] = [], droppedItems: [DroppedItem] = [], error: String? = nil) {
        self.activity = activity
        self.status = status
        self.returnedItems = returnedItems
        self.droppedItems = droppedItems
        self.error = error
    }

    public var completed: Bool { status == .completed }
}
