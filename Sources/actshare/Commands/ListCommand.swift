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
        let (items, options) = try items.selection.resolved(activity.selection)
        try ListRunner(items: items, options: options).run()
    }
}
