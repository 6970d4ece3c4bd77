import ActShareCore

/// What the host asks of a provider: one activity on some items, with option values.
public struct ActivityRequest: Sendable {
    public var activityType: String
    public var items: [Item]
    /// Option values by name, in the order the activity declares them.
    public var options: [(name: String, value: String)]
    public var subject: String?
    /// The id of the target the user chose (one the activity offered), or nil.
    public var target: String?

    public init(activityType: String, items: [Item], options: [(name: String, value: String)] = [], subject: String? = nil,
                target: String? = nil) {
        self.activityType = activityType
        self.items = items
        self.options = options
        self.subject = subject
        self.target = target
    }

    /// The value of option `name`, if it has one.
    public func option(_ name: String) -> String? {
        options.first { $0.name == name }?.value
    }
}
