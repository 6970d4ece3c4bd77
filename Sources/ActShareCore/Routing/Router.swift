/// Decides which activities may be offered for some items, before any code is loaded.
///
/// The order of the steps is the contract: static `accepts` rules first, then the
/// exclusions. What survives both is handed to the host, which asks the `can-perform`
/// hooks of the survivors only. ``order(_:pins:recents:)`` sorts the final offers.
public struct Router: Sendable {
    public var registry: ProviderRegistry
    public var exclusions: Exclusions

    public init(registry: ProviderRegistry, exclusions: Exclusions) {
        self.registry = registry
        self.exclusions = exclusions
    }

    /// Every activity whose static rules accept `items` and which is not excluded.
    public func candidates(for items: [Item]) -> [Offer] {
        let matcher = ContentTypeMatcher()
        var offers: [Offer] = []
        for provider in registry.providers where !exclusions.disabledProviders.contains(provider.id) {
            for activity in provider.activities
            where exclusions.reason(excluding: activity.type, provider: provider.id) == nil
                && Self.accepts(activity.accepts, items: items, matcher: matcher) {
                offers.append(Offer(provider: provider, activity: activity))
            }
        }
        return offers
    }

    /// Whether `rules` accept `items`: counts and total size over all items, then each
    /// item's kind, content type and URL scheme, combined by `match`.
    public static func accepts(_ rules: AcceptRules, items: [Item], matcher: ContentTypeMatcher = ContentTypeMatcher()) -> Bool {
        guard items.count >= rules.minItems else { return false }
        if let maxItems = rules.maxItems, items.count > maxItems { return false }
        if let maxTotalSize = rules.maxTotalSize {
            var total: UInt64 = 0
            for item in items {
                let (sum, overflow) = total.addingReportingOverflow(item.size)
                if overflow || sum > maxTotalSize { return false }
                total = sum
            }
        }
        if items.isEmpty { return true }
        switch rules.match {
        case .all: return items.allSatisfy { accepts(rules, item: $0, matcher: matcher) }
        case .any: return items.contains { accepts(rules, item: $0, matcher: matcher) }
        }
    }

    /// Whether one item passes the kind, content-type and URL-scheme rules.
    public static func accepts(_ rules: AcceptRules, item: Item, matcher: ContentTypeMatcher = ContentTypeMatcher()) -> Bool {
        if let kinds = rules.kinds, !kinds.contains(item.kind) { return false }
        if let schemes = rules.urlSchemes, item.kind == .url {
            guard let scheme = item.urlScheme, schemes.contains(scheme) else { return false }
        }
        if let patterns = rules.contentTypes {
            return patterns.contains { matcher.matches(item.contentType, pattern: $0) }
        }
        return true
    }

    /// Offer order: pinned types first (in pin order), then the most recently used, then
    /// by title, then by type.
    public static func order(_ offers: [Offer], pins: [String], recents: [String]) -> [Offer] {
        func rank(_ type: String) -> (Int, Int) {
            if let pin = pins.firstIndex(of: type) { return (0, pin) }
            if let recent = recents.firstIndex(of: type) { return (1, recent) }
            return (2, 0)
        }
        return offers.sorted { left, right in
            let (l, r) = (rank(left.activity.type), rank(right.activity.type))
            if l != r { return l < r }
            let (lt, rt) = (left.activity.title.lowercased(), right.activity.title.lowercased())
            if lt != rt { return lt < rt }
            return left.activity.type < right.activity.type
        }
    }
}
