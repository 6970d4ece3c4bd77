import ActShareCore
import ActShareHost
import ArgumentParser

/// `actshare providers check PATH`: validates manifests and their libraries.
struct ProvidersCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a provider's manifest and its library (for plugin authors).",
        discussion: """
            PATH is a provider.yaml, a provider directory holding one, a single *.yaml \
            manifest, or a directory of providers (each checked). Every manifest is checked \
            against schema actshare/provider@1 and all its errors are printed at once, as \
            FILE:LINE:COLUMN: error: MESSAGE; then its library is loaded and every hook \
            symbol resolved. Warnings name what works here but not once installed. The \
            exit code is 2 if anything is wrong.
            """)

    @Argument(help: ArgumentHelp("A manifest, a provider directory, or a directory of providers.", valueName: "path"), completion: .file())
    var path: String

    func run() throws {
        let paths = SearchPaths.fromEnvironment()
        var files: [String]
        if let problem = FileSystem.unreadableDirectory(path) {
            throw CommandFailure(.badInput, "\(PathName.display(path)): cannot read: \(problem)")
        }
        if FileSystem.isDirectory(path) {
            let nested = FileSystem.join(path, "provider.yaml")
            if FileSystem.exists(nested) {
                files = [nested]
            } else {
                files = ProviderRegistry.scan([path]).files
                guard !files.isEmpty else {
                    throw CommandFailure(.badInput, "\(PathName.display(path)): no provider.yaml, and no providers in it")
                }
            }
        } else {
            guard FileSystem.exists(path) else {
                let reason = FileSystem.unreadableDirectory(FileSystem.directoryName(FileSystem.absolute(path))).map { "cannot read: \($0)" }
                throw CommandFailure(.badInput, "\(PathName.display(path)): \(reason ?? "no such manifest")")
            }
            files = [path]
        }
        var failed = false
        for file in files where !check(file, paths: paths) { failed = true }
        if failed { throw CommandFailure(.badInput, nil) }
    }

    /// Checks one manifest and its library, printing what it finds; true if it is usable.
    private func check(_ file: String, paths: SearchPaths) -> Bool {
        let loader = ManifestLoader(paths: paths)
        do {
            let problems = try loader.problems(manifest: FileSystem.absolute(file))
            for line in problems { StandardStreams.err(TerminalText.visible(line) + "\n") }
            if problems.contains(where: { $0.contains(": error: ") }) { return false }
            let entry = try loader.decode(manifest: FileSystem.absolute(file))
            let manifest = try entry.manifest().get()
            let registry = ProviderRegistry(manifests: [entry])
            let missing = try ActivityHost(registry: registry, config: Config(), providerHost: paths.providerHost).check(manifest)
            for error in missing { StandardStreams.err("\(error.description)\n") }
            guard missing.isEmpty else { return false }
            let count = manifest.activities.count
            StandardStreams.out("\(file): ok: \(manifest.id) \(manifest.version), \(count) activit\(count == 1 ? "y" : "ies"), library \(manifest.library)\n")
            return true
        } catch let error as ActShareError {
            StandardStreams.err("\(error.description)\n")
            return false
        } catch {
            StandardStreams.err("actshare: \(file): \(error)\n")
            return false
        }
    }
}
