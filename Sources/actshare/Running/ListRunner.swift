import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

/// The flow of `list`: the activities that can perform on the items, in offer order.
struct ListRunner {
    let items: ItemSelection
    let options: ActivitySelection
    /// `--ranked`: the sheet's order (the user's past choices first), not the offer order.
    var ranked = false

    func run() throws {
        let invocation = try Invocation(configFile: options.config, trace: options.trace)
        // The process ends after listing: freeing every manifest one by one would only
        // cost time, so the invocation is deliberately kept.
        _ = Unmanaged.passRetained(invocation)
        let exclusions = try invocation.exclusions(options, onlyOf: options.activity)
        invocation.prestartHelpers(for: items, exclusions: exclusions)
        let values = try invocation.readItems(items)
        let recents = invocation.recents.types
        var offers: [Offer]
        var targets: [String: [ActivityTarget]] = [:]
        if values.isEmpty {
            let all = invocation.registry.providers.flatMap { provider in
                provider.activities.map { Offer(provider: provider, activity: $0) }
            }.filter { exclusions.reason(excluding: $0.type, provider: $0.providerID) == nil }
            offers = Router.order(all, pins: invocation.config.pin, recents: recents)
        } else {
            let found = invocation.host.offers(for: values, exclusions: exclusions, recents: recents)
            for diagnostic in found.diagnostics { StandardStreams.err("\(diagnostic)\n") }
            offers = found.offers
            targets = found.targets
        }
        if ranked, let choices = invocation.choices {
            (offers, targets) = choices.ranked(offers, targets: targets, for: ChoiceHistory.family(of: values), pins: invocation.config.pin,
                                               now: Int64(time(nil)))
        }

        if options.json {
            StandardStreams.out(JSONShapes.list(items: values, offers: offers, targets: targets) + "\n")
        } else {
            // Each target on a line of its own under its activity, indented, with its id.
            let width = offers.map { offer in
                ([offer.title.count] + (targets[offer.type] ?? []).map { $0.title.count + 2 }).max() ?? 0
            }.max() ?? 0
            func line(_ title: String, _ name: String) -> String {
                "\(title)\(String(repeating: " ", count: max(0, width - title.count)))  \(name)\n"
            }
            StandardStreams.outsideText(offers.map { offer in
                line(offer.title, offer.type) + (targets[offer.type] ?? []).map { line("  " + $0.title, "--target \($0.id)") }.joined()
            }.joined())
        }
        if offers.isEmpty && !values.isEmpty {
            throw CommandFailure(.noActivity, options.json ? nil : "no activity can perform on the items")
        }
    }
}
