/// An activity that is offered for some items, with the provider that performs it.
/// A class: offers are sorted and passed around by the hundred.
///
/// What a share sheet shows is at hand; the full declarations (options, hooks) are
/// decoded by ``declaration()`` only when the activity is asked or performed, so
/// listing hundreds of offers decodes none of them.
public final class Offer: Sendable {
    public let type: String
    /// Completes "I want to…".
    public let title: String
    /// An icon file path or a freedesktop icon name.
    public let image: String
    public let category: ActivityCategory
    public let providerID: String
    /// Whether the provider's `can-perform` hook must still be asked.
    public let hasCanPerform: Bool
    private let source: Source

    private enum Source: Sendable {
        case declared(ProviderManifest, ActivityDeclaration)
        case routed(ProviderRegistry, ActivityRoute)
    }

    public init(provider: ProviderManifest, activity: ActivityDeclaration) {
        type = activity.type
        title = activity.title
        image = activity.image
        category = activity.category
        providerID = provider.id
        hasCanPerform = activity.hooks.canPerform != nil
        source = .declared(provider, activity)
    }

    /// The offer of a route; its declarations come from `registry` when asked for.
    public init(route: ActivityRoute, registry: ProviderRegistry) {
        type = route.activity.type
        title = route.activity.title
        image = route.activity.image
        category = route.activity.category
        providerID = route.providerID
        hasCanPerform = route.activity.hasCanPerform
        source = .routed(registry, route)
    }

    /// The provider and the activity's full declaration.
    public func declaration() throws -> (provider: ProviderManifest, activity: ActivityDeclaration) {
        switch source {
        case .declared(let provider, let activity):
            return (provider, activity)
        case .routed(let registry, let route):
            return try registry.declaration(of: route)
        }
    }
}
