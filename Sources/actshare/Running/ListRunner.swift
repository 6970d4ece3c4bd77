import ActShareCore

/// The flow of `list`: the activities that can perform on the items, in offer order.
struct ListRunner {
    let items: ItemSelection
    let options: ActivitySelection

    func run() throws {
        let invocation = try Invocation(configFile: options.config, trace: options.trace)
        // The process ends after listing: freeing every manifest one by one would only
        // cost time, so the invocation is deliberately kept.
        _ = Unmanaged.passRetained(invocation)
        let exclusions = try invocation.exclusions(options, onlyOf: options.activity)
        invocation.prestartHelpers(for: items, exclusions: exclusions)
        let values = try invocation.readItems(items)
        let recents = invocation.recents.types
        let offers: [Offer]
        if values.isEmpty {
            let all = invocation.registry.providers.flatMap { provider in
                provider.activities.map { Offer(provider: provider, activity: $0) }
            }.filter { exclusions.reason(excluding: $0.type, provider: $0.providerID) == nil }
            offers = Router.order(all, pins: invocation.config.pin, recents: recents)
        } else {
            let found = invocation.host.offers(for: values, exclusions: exclusions, recents: recents)
            for diagnostic in found.diagnostics { StandardStreams.err("\(diagnostic)\n") }
            offers = found.offers
        }

        if options.json {
            StandardStreams.out(JSONShapes.list(items: values, offers: offers) + "\n")
        } else {
            let width = offers.map(\.title.count).max() ?? 0
            StandardStreams.outsideText(offers.map { offer in
                let title = offer.title
                return "\(title)\(String(repeating: " ", count: width - title.count))  \(offer.type)\n"
            }.joined())
        }
        if offers.isEmpty && !values.isEmpty {
            throw CommandFailure(.noActivity, options.json ? nil : "no activity can perform on the items")
        }
    }
}
