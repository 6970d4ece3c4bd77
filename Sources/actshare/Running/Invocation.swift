import ActShareCore
import ActShareHost

/// What one run of actshare works with: search paths, config, providers and the host.
final class Invocation {
    let paths: SearchPaths
    let config: Config
    let registry: ProviderRegistry
    let host: ActivityHost

    /// Loads the config and every provider, printing what is wrong with any of them.
    init(configFile: String?, reportDiagnostics: Bool = true) throws {
        paths = SearchPaths.fromEnvironment(configFile: configFile)
        if let configFile, !FileSystem.exists(configFile) {
            throw CommandFailure(.badInput, "\(configFile): no such config file")
        }
        let contents: ManifestIndex.Contents
        do {
            contents = try ManifestLoader(paths: paths).load()
            config = try contents.config?.result.get() ?? Config()
        } catch let error as ActShareError {
            throw CommandFailure(error)
        }
        registry = ProviderRegistry(manifests: contents.manifests, hasNoConflicts: contents.hasNoConflicts)
        host = ActivityHost(registry: registry, config: config, providerHost: paths.providerHost)
        if reportDiagnostics {
            for diagnostic in registry.diagnostics { StandardStreams.err("\(diagnostic)\n") }
        }
    }

    var recents: Recents { Recents(stateDirectory: paths.stateDirectory) }

    /// Reads the command's items, failing with exit code 2 on a bad one.
    func readItems(_ selection: ItemSelection) throws -> [Item] {
        do {
            return try ItemReader().read(arguments: selection.arguments, texts: selection.texts, stdinType: selection.stdinType)
        } catch let error as ActShareError {
            throw CommandFailure(error)
        }
    }

    /// The exclusions from the config and the command line, narrowed to `type` when one
    /// activity is named (so no other provider's code runs). Malformed types in flags are
    /// usage errors.
    func exclusions(_ options: ActivitySelection, onlyOf type: String? = nil) throws -> Exclusions {
        for type in options.exclude + options.only + [options.activity].compactMap({ $0 }) where !ReverseDNS.isValid(type) {
            throw CommandFailure(.badInput, "'\(type)' is not an activity type such as org.example.hello.greet")
        }
        var exclusions = Exclusions(config: config, exclude: options.exclude, only: options.only)
        if let type { exclusions.onlyTypes = (exclusions.onlyTypes ?? [type]).intersection([type]) }
        return exclusions
    }
}
