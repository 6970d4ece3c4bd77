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
        let excluding = !exclusions.excludedTypes.isEmpty || !exclusions.disabledProviders.isEmpty || exclusions.onlyTypes != nil
        var offers: [Offer] = []
        for route in registry.routes
        where !(excluding && exclusions.reason(excluding: route.type, provider: route.providerID) != nil)
            && Self.accepts(route.accepts, items: items, matcher: matcher) {
            offers.append(Offer(route: route, registry: registry))
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

    /// Whether `rules` may accept items of `kinds` (one per item), judged by their number
    /// and kinds only, which is what is known of items before they are read: true for
    /// every set of items of those kinds that ``accepts(_:items:matcher:)`` accepts.
    public static func mayAccept(_ rules: AcceptRules, kinds: [ItemKind]) -> Bool {
        guard kinds.count >= rules.minItems else { return false }
        if let maxItems = rules.maxItems, kinds.count > maxItems { return false }
        guard let allowed = rules.kinds, !kinds.isEmpty else { return true }
        switch rules.match {
        case .all: return kinds.allSatisfy { allowed.contains($0) }
        case .any: return kinds.contains { allowed.contains($0) }
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

    /// Why `route` is not a candidate for `items` (the exclusion, or the first static
    /// rule that refuses them), or nil if it is one. For `--explain`: slower than
    /// ``candidates(for:)``, and called only when tracing.
    public func rejection(of route: ActivityRoute, items: [Item]) -> String? {
        if let reason = exclusions.reason(excluding: route.type, provider: route.providerID) { return reason }
        return Self.rejection(route.accepts, items: items)
    }

    /// Which static rule of `rules` refuses `items`, in words, or nil if they pass.
    public static func rejection(_ rules: AcceptRules, items: [Item], matcher: ContentTypeMatcher = ContentTypeMatcher()) -> String? {
        if items.count < rules.minItems { return "min-items is \(rules.minItems); there \(items.count == 1 ? "is 1 item" : "are \(items.count) items")" }
        if let maxItems = rules.maxItems, items.count > maxItems { return "max-items is \(maxItems); there are \(items.count) items" }
        if let maxTotalSize = rules.maxTotalSize {
            let total = items.reduce(UInt64(0)) { $0.addingReportingOverflow($1.size).overflow ? .max : $0 + $1.size }
            if total > maxTotalSize { return "max-total-size is \(maxTotalSize) bytes; the items hold \(total)" }
        }
        let refusals = items.enumerated().map { index, item in rejection(rules, item: item, matcher: matcher).map { "item \(index + 1) (\(item.displayName)) \($0)" } }
        switch rules.match {
        case .all: return refusals.lazy.compactMap { $0 }.first
        case .any: return refusals.contains(nil) || items.isEmpty ? nil : "no item matches (match: any): " + refusals.compactMap { $0 }.joined(separator: "; ")
        }
    }

    /// Which rule refuses one item, in words ("is text; kinds are file, url").
    static func rejection(_ rules: AcceptRules, item: Item, matcher: ContentTypeMatcher) -> String? {
        if let kinds = rules.kinds, !kinds.contains(item.kind) {
            return "is \(item.kind.rawValue); kinds are \(ItemKind.allCases.filter { kinds.contains($0) }.map(\.rawValue).joined(separator: ", "))"
        }
        if let schemes = rules.urlSchemes, item.kind == .url {
            guard let scheme = item.urlScheme, schemes.contains(scheme) else {
                return "has the scheme \(item.urlScheme ?? "(none)"); url-schemes are \(schemes.joined(separator: ", "))"
            }
        }
        if let patterns = rules.contentTypes, !patterns.contains(where: { matcher.matches(item.contentType, pattern: $0) }) {
            return "is \(item.contentType); content-types are \(patterns.joined(separator: ", "))"
        }
        return nil
    }

    /// Offer order: pinned types first (in pin order), then the most recently used, then
    /// by title, then by type.
    public static func order(_ offers: [Offer], pins: [String], recents: [String]) -> [Offer] {
        // Ranks are computed once per offer, not once per comparison.
        let ranked = offers.map { offer -> (rank: Int, offer: Offer) in
            if let pin = pins.firstIndex(of: offer.type) { return (pin, offer) }
            if let recent = recents.firstIndex(of: offer.type) { return (pins.count + recent, offer) }
            return (Int.max, offer)
        }
        return ranked.sorted { left, right in
            if left.rank != right.rank { return left.rank < right.rank }
            let byTitle = caseInsensitiveOrder(left.offer.title, right.offer.title)
            if byTitle != 0 { return byTitle < 0 }
            return left.offer.type < right.offer.type
        }.map(\.offer)
    }

    /// Compares titles ignoring case: ASCII byte by byte (no lowercased copies), other
    /// text through `lowercased()`.
    static func caseInsensitiveOrder(_ left: String, _ right: String) -> Int {
        var (left, right) = (left, right)
        let ascii: Int? = left.withUTF8 { l in
            right.withUTF8 { r in
                for (a, b) in zip(l, r) {
                    if a >= 0x80 || b >= 0x80 { return nil }
                    let (x, y) = (a | (a >= 65 && a <= 90 ? 0x20 : 0), b | (b >= 65 && b <= 90 ? 0x20 : 0))
                    if x != y { return Int(x) - Int(y) }
                }
                return l.count == r.count ? 0 : (l.count < r.count ? -1 : 1)
            }
        }
        if let ascii { return ascii }
        let (x, y) = (left.lowercased(), right.lowercased())
        return x == y ? 0 : (x < y ? -1 : 1)
    }
}
