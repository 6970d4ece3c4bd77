import ActShareCore
import ActShareHost
import ArgumentParser

/// `actshare providers [--json]`: every provider on the search path, ok or what is wrong.
struct ProvidersListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show every provider found: ok, disabled, or what is wrong, and what each may do.",
        discussion: """
            Each usable provider's library is loaded to check its hooks. Each provider's line says \
            whether it runs sandboxed and, if so, what its manifest lets it read, write and reach \
            (docs/PLUGINS.md, Permissions). The exit code is 0 even when some are broken.
            """)

    @Flag(help: "Print machine-readable JSON on standard output.")
    var json = false

    @Option(help: ArgumentHelp("Read this config file instead of $XDG_CONFIG_HOME/actshare/config.yaml.", valueName: "file"), completion: .file())
    var config: String?

    func run() throws {
        let invocation = try Invocation(configFile: config, reportDiagnostics: false)
        let disabled = Set(invocation.config.disabledProviders)
        var rows: [Row] = invocation.registry.failures.map { file, error in
            Row(file: file, status: "error", error: error.description)
        }
        let landlock = ActivityHost.landlockABI
        for provider in invocation.registry.providers {
            var row = Row(file: provider.file, status: "ok", provider: provider)
            let inProcess = invocation.host.runsInProcess(provider)
            row.isolation = inProcess ? .inProcess : .process
            row.sandbox = inProcess ? "in actshare's process: not sandboxed"
                : landlock == 0 ? "not sandboxed: this kernel has no Landlock" : "sandboxed: \(provider.permissions.summary)"
            if disabled.contains(provider.id) {
                row.status = "disabled"
            } else {
                do {
                    if let missing = try invocation.host.check(provider).first {
                        row.status = "error"
                        row.error = missing.description
                    }
                } catch let error as ActShareError {
                    row.status = "error"
                    row.error = error.description
                }
            }
            rows.append(row)
        }
        let warnings = invocation.registry.warnings
        if json {
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("providers")
            writer.beginArray()
            for row in rows { row.write(to: &writer) }
            writer.endArray()
            writer.key("warnings")
            writer.beginArray()
            for warning in warnings {
                writer.beginObject()
                writer.member("warning", .string(warning.description))
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
            StandardStreams.out(writer.text + "\n")
        } else {
            StandardStreams.out(rows.map(\.text).joined())
            for warning in warnings { StandardStreams.err("\(warning)\n") }
        }
    }

    /// One provider (or broken manifest) as `providers` shows it.
    private struct Row {
        var file: String
        var status: String
        var error: String?
        var provider: ProviderManifest?
        /// Where it runs: the manifest's word, or the config's `in-process:`.
        var isolation: Isolation?
        /// How it runs and what it may do, in words.
        var sandbox: String?

        init(file: String, status: String, error: String? = nil, provider: ProviderManifest? = nil) {
            self.file = file
            self.status = status
            self.error = error
            self.provider = provider
        }

        func write(to writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("file", .string(file))
            writer.member("id", .string(provider?.id))
            if let provider {
                writer.member("name", .string(provider.name))
                writer.member("version", .string(provider.version))
                writer.member("library", .string(provider.library))
                writer.member("isolation", .string((isolation ?? provider.isolation).rawValue))
                writer.key("permissions")
                writer.beginObject()
                for (key, places) in [("read", provider.permissions.read), ("write", provider.permissions.write)] {
                    writer.key(key)
                    writer.beginArray()
                    for place in places { writer.value(.string(place.text)) }
                    writer.endArray()
                }
                writer.key("output-option")
                writer.beginArray()
                for option in provider.permissions.outputOptions { writer.value(.string(option)) }
                writer.endArray()
                writer.member("network", .bool(provider.permissions.network))
                writer.member("exec", .bool(provider.permissions.exec))
                writer.member("background", .bool(provider.permissions.background))
                writer.member("display", .bool(provider.permissions.display))
                writer.member("dbus", .string(provider.permissions.dbus.rawValue))
                writer.member("handoff", .bool(provider.permissions.handoff))
                writer.endObject()
                writer.member("sandbox", .string(sandbox))
            }
            writer.member("status", .string(status))
            writer.member("error", .string(error))
            writer.key("activities")
            writer.beginArray()
            for activity in provider?.activities ?? [] {
                writer.beginObject()
                writer.member("type", .string(activity.type))
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }

        var text: String {
            guard let provider else { return "error     \(file)\n          \(error ?? "")\n" }
            return "\(status.padding(9)) \(provider.id) \(provider.version) (\(provider.name)) \(file)\n"
                + (error.map { "          \($0)\n" } ?? "")
                + (sandbox.map { "          \($0)\n" } ?? "")
                + provider.activities.map { "          - \($0.type)\n" }.joined()
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
