/// An activity that is offered for some items, with the provider that performs it.
public struct Offer: Sendable {
    public var provider: ProviderManifest
    public var activity: ActivityDeclaration

    public init(provider: ProviderManifest, activity: ActivityDeclaration) {
        self.provider = provider
        self.activity = activity
    }
}
