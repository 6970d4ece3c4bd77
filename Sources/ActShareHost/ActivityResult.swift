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
    /// Whether the failure is a fault of the provider (it crashed, hung, broke its pipe,
    /// lacks a hook), not one it reported: then `error` is for its developer alone.
    public var isFault = false

    public init(activity: String, status: Status, returnedItems: [Item] = [], droppedItems: [DroppedItem] = [], error: String? = nil) {
        self.activity = activity
        self.status = status
        self.returnedItems = returnedItems
        self.droppedItems = droppedItems
        self.error = error
    }

    public var completed: Bool { status == .completed }

    /// What the provider itself said of its failure (its `set_error`), without the type
    /// `error` starts with; nil for a fault, or when it said nothing.
    public var providerMessage: String? {
        guard !isFault, let error, error.hasPrefix(activity + ": ") else { return nil }
        return String(error.dropFirst(activity.count + 2))
    }
}
