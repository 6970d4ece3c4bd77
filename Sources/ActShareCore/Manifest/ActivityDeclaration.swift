/// One activity a provider offers, as its manifest declares it. Immutable.
public final class ActivityDeclaration: Sendable {
    /// Reverse-DNS type, unique across providers (`org.example.hello.greet`).
    public let type: String
    /// Completes "I want to…", in Title Case (`Say Hello`).
    public let title: String
    /// An absolute path to an icon file, or a freedesktop icon name.
    public let image: String
    public let category: ActivityCategory
    public let accepts: AcceptRules
    public let options: [OptionDeclaration]
    public let hooks: ActivityHooks
    /// Where the activity is declared.
    public let location: SourceLocation

    public init(
        type: String, title: String, image: String, category: ActivityCategory, accepts: AcceptRules,
        options: [OptionDeclaration], hooks: ActivityHooks, location: SourceLocation
    ) {
        self.type = type
        self.title = title
        self.image = image
        self.category = category
        self.accepts = accepts
        self.options = options
        self.hooks = hooks
        self.location = location
    }

    /// The declared option called `name`, if any.
    public func option(named name: String) -> OptionDeclaration? {
        options.first { $0.name == name }
    }
}
