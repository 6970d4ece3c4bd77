import ActShareCore
import ActShareHost

/// What one run of actshare works with: search paths, config, providers and the host.
final class Invocation {
    let paths: SearchPaths
    let config: Config
    let registry: ProviderRegistry
    let host: ActivityHost

    /// Loads the config and every provider, printing what is wrong with any of them.
    init(configFile: String?, reportDiagnostics: Bool = true, trace: Trace? = nil) throws {
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
        host.trace = trace
        // A directory actshare may not read is said, not skipped in silence.
        for directory in paths.providerDirectories {
            if let problem = FileSystem.unreadableDirectory(directory) {
                StandardStreams.err("actshare: warning: cannot read provider directory \(PathName.display(directory)): \(problem)\n")
            }
        }
        if reportDiagnostics {
            for diagnostic in registry.diagnostics { StandardStreams.err("\(diagnostic)\n") }
        }
        if let trace {
            // Providers see it too, and may then say where an activity would go (provider.h, decline).
            Environment.set("ACTSHARE_TRACE", "1")
            Self.explain(paths: paths, contents: contents, trace: trace)
        }
    }

    /// Where the config, the provider directories, the manifests and their libraries
    /// were found, for `--explain`.
    private static func explain(paths: SearchPaths, contents: ManifestIndex.Contents, trace: Trace) {
        trace("config: \(contents.config?.file ?? "none (\(paths.configFiles.joined(separator: ", ")) do not exist)")")
        for directory in paths.providerDirectories {
            let count = ProviderRegistry.scan([directory]).files.count
            let problem = FileSystem.exists(directory) ? FileSystem.unreadableDirectory(directory) : "does not exist"
            trace("provider directory \(directory): \(problem ?? "\(count) manifest\(count == 1 ? "" : "s")")")
        }
        for entry in contents.manifests {
            switch entry.manifest() {
            case .success(let manifest):
                let library = FileSystem.exists(manifest.library) ? manifest.library : "\(manifest.library) (missing)"
                let count = manifest.activities.count
                trace("manifest \(entry.file): provider \(manifest.id), \(count) activit\(count == 1 ? "y" : "ies"), library \(library)")
            case .failure(let error):
                trace("manifest \(entry.file): not usable: \(error.description)")
            }
        }
    }

    var recents: Recents { Recents(stateDirectory: paths.stateDirectory) }
    /// The user's past choices, when the config lets them be remembered (else none).
    var choices: ChoiceHistory? { config.rememberChoices ? ChoiceHistory(stateDirectory: paths.stateDirectory) : nil }

    /// Starts, before the items are read, the helpers their can-perform hooks will run in
    /// (``ActivityHost/prestartHelpers(for:exclusions:)``): from the items as located, when
    /// they can be located without reading (no standard input, no request).
    func prestartHelpers(for selection: ItemSelection, exclusions: Exclusions) {
        guard selection.request == nil, let located = ItemReader.untypedItems(arguments: selection.arguments, texts: selection.texts) else { return }
        host.prestartHelpers(for: located, exclusions: exclusions)
    }

    /// Reads the command's items, failing with exit code 2 on a bad one.
    func readItems(_ selection: ItemSelection) throws -> [Item] {
        do {
            return try ItemReader().read(arguments: selection.arguments, texts: selection.texts, stdinType: selection.stdinType)
                + (selection.request?.sharedItems() ?? [])
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
        if options.fromProgram { exclusions.onlyNamedBy = "'only'" }
        if let type { exclusions.onlyTypes = (exclusions.onlyTypes ?? [type]).intersection([type]) }
        return exclusions
    }
}
