import ArgumentParser

/// `actshare providers`: every provider found, and `providers check` for authors.
struct ProvidersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "Show every provider found; check one, or start one (for plugin authors).",
        subcommands: [ProvidersListCommand.self, ProvidersCheckCommand.self, ProvidersNewCommand.self],
        defaultSubcommand: ProvidersListCommand.self)
}
