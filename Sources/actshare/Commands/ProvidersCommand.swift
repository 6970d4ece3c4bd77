import ArgumentParser

/// `actshare providers`: every provider found, and `providers check` for authors.
struct ProvidersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "Show every provider found, or check one (for plugin authors).",
        subcommands: [ProvidersListCommand.self, ProvidersCheckCommand.self],
        defaultSubcommand: ProvidersListCommand.self)
}
