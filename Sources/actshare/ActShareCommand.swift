import ArgumentParser

/// The `actshare` command: a share sheet for Linux.
struct ActShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actshare",
        abstract: "Share files, URLs and text with any activity that can handle them.",
        discussion: """
            actshare offers every activity that can handle the items you name (copy, mail, \
            print, hand off, or anything a provider adds) and performs the one you pick. \
            With no subcommand it runs 'share'.

            Providers are found in $ACTSHARE_PROVIDER_PATH, $XDG_DATA_HOME/actshare/providers \
            and each $XDG_DATA_DIRS/actshare/providers; the config is \
            $XDG_CONFIG_HOME/actshare/config.yaml.

            Exit codes: 0 completed, 1 the activity failed, 2 bad usage or input, \
            3 no activity can perform on the items (or the named one is unknown or \
            excluded), 4 cancelled.

            Examples:
              actshare report.pdf                 pick an activity for a file
              actshare list --json notes.txt      what can handle notes.txt
              actshare perform org.example.hello.greet --text hi
              echo hi | actshare -a org.example.wordcount.count -
            """,
        version: "0.1.0",
        subcommands: [
            ShareCommand.self, ListCommand.self, PerformCommand.self, ProvidersCommand.self, IntegrateCommand.self,
            ActivityCommand.self, HandoffCommand.self, DaemonCommand.self, ForgetCommand.self, UploadsCommand.self,
        ],
        defaultSubcommand: ShareCommand.self)
}
