import ActShareCore
import ArgumentParser

/// `actshare forget`: deletes what actshare remembers of past shares.
struct ForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Forget which activities and targets you chose in past shares.",
        discussion: """
            The share sheet puts first what you chose most for the kind of item you share, \
            from $XDG_STATE_HOME/actshare/choices.jsonl (the kinds of items, the activities \
            and targets, and when; never the items' names or contents), and list orders by \
            the activities used last ($XDG_STATE_HOME/actshare/recents). This deletes both. \
            To keep nothing from now on, set remember-choices: false in the config.
            """)

    func run() throws {
        let state = SearchPaths.fromEnvironment(configFile: nil).stateDirectory
        let forgotChoices = try ChoiceHistory(stateDirectory: state).forget()
        let forgotRecents = try Recents(stateDirectory: state).forget()
        StandardStreams.out(forgotChoices || forgotRecents ? Localized.text("Past choices forgotten.") + "\n"
                                                           : Localized.text("No past choices to forget.") + "\n")
    }
}
