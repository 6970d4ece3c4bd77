import ActShareCore
import ArgumentParser

/// `actshare providers [--json]`: every provider on the search path, ok or what is wrong.
struct ProvidersListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show every provider found: ok, disabled, or what is wrong.",
        discussion: "Each usable provider's library is loaded to check its hooks. The exit code is 0 even when some are broken.")

    @Flag(help: "Print machine-readable JSON on standard output.")
    var json = false

    @Option(help: ArgumentHelp("Read this config file instead of $XDG_CONFIG_HOME/actshare/config.yaml.", valueName: "file"))
    var config: String?

    func run() throws {
        let invocation = try Invocation(configFile: config, reportDiagnostics: false)
        let disabled = Set(invocation.config.disabledProviders)
        var rows: [(json: String, line: String)] = []

        for (file, error) in invocation.registry.failures {
            rows.append((
                JSONWriter.object([
                    ("file", .string(file)), ("id", .string(nil)), ("status", .string("error")),
                    ("error", .string(error.description)), ("activities", .raw("[]")),
                ]),
                "error     \(file)\n          \(error.description)\n"))
        }
        for provider in invocation.registry.providers {
            var status = "ok"
            var problem: String?
            if disabled.contains(provider.id) {
                status = "disabled"
            } else {
                do {
                    try invocation.host.check(provider)
                } catch let error as ActShareError {
                    status = "error"
                    problem = error.description
                }
            }
            let types = provider.activities.map(\.type)
            rows.append((
                JSONWriter.object([
                    ("file", .string(provider.file)), ("id", .string(provider.id)), ("name", .string(provider.name)),
                    ("version", .string(provider.version)), ("library", .string(provider.library)),
                    ("isolation", .string(provider.isolation.rawValue)), ("status", .string(status)),
                    ("error", .string(problem)),
                    ("activities", .raw(JSONWriter.array(types.map { JSONWriter.object([("type", .string($0))]) })))
                ]),
                "\(status.padding(9)) \(provider.id) \(provider.version) (\(provider.name)) \(provider.file)\n"
                    + (problem.map { "          \($0)\n" } ?? "")
                    + types.map { "          - \($0)\n" }.joined()))
        }
        let warnings = invocation.registry.warnings
        if json {
            let warningList = JSONWriter.array(warnings.map { JSONWriter.object([("warning", .string($0.description))]) })
            StandardStreams.out(JSONWriter.object([
                ("providers", .raw(JSONWriter.array(rows.map(\.json)))),
                ("warnings", .raw(warningList)),
            ]) + "\n")
        } else {
            StandardStreams.out(rows.map(\.line).joined())
            for warning in warnings { StandardStreams.err("\(warning)\n") }
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
