/// The part of a manifest that routing and listing read for every provider: its id and,
/// for each activity, the type, static rules and what a share sheet shows. It is kept
/// first in each index record, so the rest (options, hooks) is decoded only when needed.
public struct ProviderSummary: Sendable {
    /// One activity as routing and listing see it.
    public struct Activity: Sendable {
        public var type: String
        public var title: String
        public var image: String
        public var category: ActivityCategory
        public var accepts: AcceptRules
        /// Whether the host must still ask the provider's code before offering it.
        public var hasCanPerform: Bool

        public init(_ activity: ActivityDeclaration) {
            self.init(
                type: activity.type, title: activity.title, image: activity.image, category: activity.category,
                accepts: activity.accepts, hasCanPerform: activity.hooks.canPerform != nil)
        }

        public init(type: String, title: String, image: String, category: ActivityCategory, accepts: AcceptRules, hasCanPerform: Bool) {
            self.type = type
            self.title = title
            self.image = image
            self.category = category
            self.accepts = accepts
            self.hasCanPerform = hasCanPerform
        }
    }

    public var id: String
    public var activities: [Activity]

    public init(id: String, activities: [Activity]) {
        self.id = id
        self.activities = activities
    }

    /// The summary of a decoded manifest.
    public init(_ manifest: ProviderManifest) {
        self.init(id: manifest.id, activities: manifest.activities.map(Activity.init))
    }
}
