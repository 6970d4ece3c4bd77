import ArgumentParser

/// `actshare perform TYPE ITEM…`: perform one named activity, with no picker.
struct PerformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perform",
        abstract: "Perform one activity on the items, without a picker.",
        discussion: "The activity must be able to perform on the items; if not, the exit code is 3.")

    @Argument(help: ArgumentHelp("The activity type, such as org.example.hello.greet.", valueName: "type"),
              completion: .custom(CompletionCandidates.activityTypes))
    var type: String

    @OptionGroup(title: "Items") var items: ItemOptions
    @OptionGroup(title: "Activities") var activity: ActivityOptions

    func validate() throws {
        if let other = activity.activity, other != type {
            throw CommandFailure(.badInput, "perform takes the activity type once: '\(type)' and --activity '\(other)' differ")
        }
    }

    func run() throws {
        try Self.perform(type, items: items.selection, options: activity.selection)
    }

    /// Performs `type` on the items: the whole command, also run by the fast path.
    static func perform(_ type: String, items: ItemSelection, options: ActivitySelection) throws {
        let (items, options) = try items.resolved(options)
        let invocation = try Invocation(configFile: options.config, trace: options.trace)
        // As for list: the activity's can-perform helper starts while the items are read.
        invocation.prestartHelpers(for: items, exclusions: try invocation.exclusions(options, onlyOf: type))
        let values = try invocation.readItems(items)
        // And prepare's and perform's, while the can-perform hook runs in that one.
        invocation.host.prestartPerform(of: type, items: values, options: (try? options.optionPairs()) ?? [])
        let runner = ActivityRunner(invocation: invocation, options: options, stdinIsItem: items.readsStandardInput)
        try runner.run(items: values, type: type)
    }
}
