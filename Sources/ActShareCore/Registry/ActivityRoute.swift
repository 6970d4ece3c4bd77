/// One activity as the registry routes it: enough to apply the static rules and the
/// exclusions, and to list it, without decoding the rest of its provider's manifest.
public struct ActivityRoute: Sendable {
    /// The position of the provider's entry in the registry.
    public var provider: Int
    public var providerID: String
    public var activity: ProviderSummary.Activity

    public init(provider: Int, providerID: String, activity: ProviderSummary.Activity) {
        self.provider = provider
        self.providerID = providerID
        self.activity = activity
    }

    public var type: String { activity.type }
    public var accepts: AcceptRules { activity.accepts }
}
