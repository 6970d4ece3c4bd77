import ActShareCore
import ActShareHost
import ArgumentParser

/// `actshare providers check PATH`: validates one manifest and its library.
struct ProvidersCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a provider's manifest and its library (for plugin authors).",
        discussion: """
            PATH is a provider.yaml, a provider directory holding one, or a single *.yaml \
            manifest. The manifest is checked against schema actshare/provider@1, the \
            library is loaded, and every hook symbol is resolved. Problems are printed as \
            FILE:LINE:COLUMN: error: MESSAGE; the exit code is then 2.
            """)

    @Argument(help: ArgumentHelp("The manifest or provider directory.", valueName: "path"))
    var path: String

    func run() throws {
        var file = path
        if FileSystem.isDirectory(path) { file = FileSystem.join(path, "provider.yaml") }
        guard FileSystem.exists(file) else {
            throw CommandFailure(.badInput, "\(file): no such manifest")
        }
        do {
            let paths = SearchPaths.fromEnvironment()
            let entry = try ManifestLoader(paths: paths).decode(manifest: FileSystem.absolute(file))
            let manifest = try entry.manifest().get()
            let registry = ProviderRegistry(manifests: [entry])
            try ActivityHost(registry: registry, config: Config(), providerHost: paths.providerHost).check(manifest)
            let count = manifest.activities.count
            StandardStreams.out("\(file): ok: \(manifest.id) \(manifest.version), \(count) activit\(count == 1 ? "y" : "ies"), library \(manifest.library)\n")
        } catch let error as ActShareError {
            StandardStreams.err("\(error.description)\n")
            throw CommandFailure(.badInput, nil)
        }
    }
}
