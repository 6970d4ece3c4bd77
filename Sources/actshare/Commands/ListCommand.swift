import ArgumentParser

/// `actshare list [ITEM…]`: the activities that can perform on the items.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the activities that can perform on the items, in offer order.",
        discussion: """
            Pinned activities come first, then the most recently used, then the rest by \
            title: an order scripts can rely on. --ranked gives the share sheet's order \
            instead, with what you chose most for this kind of item first. With no items, \
            every activity that is not excluded is listed. The exit code is 3 when items \
            were given and no activity can perform on them.
            """)

    @OptionGroup(title: "Items") var items: ItemOptions
    @OptionGroup(title: "Activities") var activity: ActivityOptions

    @Flag(help: "Order as the share sheet does: what you chose most for this kind of item first (see `actshare forget`).")
    var ranked = false

    func run() throws {
        let (items, options) = try items.selection.resolved(activity.selection)
        try ListRunner(items: items, options: options, ranked: ranked).run()
    }
}
