import ArgumentParser

/// `actshare [share] ITEM…`: pick an activity for the items and perform it.
struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Pick an activity for the items and perform it (the default command).",
        discussion: """
            On a terminal, a numbered list of the activities that can perform on the items \
            is shown; without one, on a display, the share sheet's window opens (paired \
            devices, a search field and the activities; zenity or kdialog when it cannot). \
            Options with a prompt and no value (Mail's recipient) are asked for in the same \
            place, which also shows the progress and the result. Otherwise give --activity, \
            or --picker none to print the choices (exit code 2).
            """)

    @OptionGroup(title: "Items") var items: ItemOptions
    @OptionGroup(title: "Activities") var activity: ActivityOptions

    func run() throws {
        let (items, options) = try items.selection.resolved(activity.selection)
        let invocation = try Invocation(configFile: options.config, trace: options.trace)
        let values = try invocation.readItems(items)
        var runner = ActivityRunner(invocation: invocation, options: options, stdinIsItem: items.readsStandardInput)
        runner.sharing = true
        try runner.run(items: values, type: activity.activity)
    }
}
