import ActShareCore
import ArgumentParser

/// `actshare list [ITEM…]`: the activities that can perform on the items.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the activities that can perform on the items, in offer order.",
        discussion: """
            Pinned activities come first, then the most recently used, then the rest by \
            title. With no items, every activity that is not excluded is listed. The exit \
            code is 3 when items were given and no activity can perform on them.
            """)

    @OptionGroup(title: "Items") var items: ItemOptions
    @OptionGroup(title: "Activities") var activity: ActivityOptions

    func run() throws {
        let invocation = try Invocation(configFile: activity.config)
        let values = try invocation.readItems(items)
        var exclusions = try invocation.exclusions(activity)
        if let type = activity.activity {
            exclusions.onlyTypes = (exclusions.onlyTypes ?? [type]).intersection([type])
        }
        let offers: [Offer]
        if values.isEmpty {
            let all = invocation.registry.providers.flatMap { provider in
                provider.activities.map { Offer(provider: provider, activity: $0) }
            }.filter { exclusions.reason(excluding: $0.activity.type, provider: $0.provider.id) == nil }
            offers = Router.order(all, pins: invocation.config.pin, recents: invocation.recents.types)
        } else {
            let found = invocation.host.offers(for: values, exclusions: exclusions, recents: invocation.recents.types)
            for diagnostic in found.diagnostics { StandardStreams.err("\(diagnostic)\n") }
            offers = found.offers
        }

        if activity.json {
            StandardStreams.out(JSONShapes.list(items: values, offers: offers) + "\n")
        } else {
            let width = offers.map(\.activity.title.count).max() ?? 0
            StandardStreams.out(offers.map { offer in
                let title = offer.activity.title
                return "\(title)\(String(repeating: " ", count: width - title.count))  \(offer.activity.type)\n"
            }.joined())
        }
        if offers.isEmpty && !values.isEmpty {
            throw CommandFailure(.noActivity, activity.json ? nil : "no activity can perform on the items")
        }
    }
}
