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
        config = try Self.loadConfig(paths: paths, explicit: configFile != nil)
        registry = ProviderRegistry.load(paths: paths)
        host = ActivityHost(registry: registry, config: config)
        if reportDiagnostics {
            for diagnostic in registry.diagnostics { StandardStreams.err("\(diagnostic)\n") }
        }
    }

    private static func loadConfig(paths: SearchPaths, explicit: Bool) throws -> Config {
        for file in paths.configFiles {
            guard FileSystem.exists(file) else {
                if explicit { throw CommandFailure(.badInput, "\(file): no such config file") }
                continue
            }
            do {
                return try ConfigDecoder().decode(file: file)
            } catch let error as ActShareError {
                throw CommandFailure(error)
            }
        }
        return Config()
    }

    var recents: Recents { Recents(stateDirectory: paths.stateDirectory) }

    /// Reads the command's items, failing with exit code 2 on a bad one.
    func readItems(_ options: ItemOptions) throws -> [Item] {
        do {
            return try ItemReader().read(arguments: options.items, texts: options.texts, stdinType: options.stdinType)
        } catch let error as ActShareError {
            throw CommandFailure(error)
        }
    }

    /// The exclusions from the config and the command line. `--activity` also narrows
    /// the offer to that one type.
    func exclusions(_ options: ActivityOptions) throws -> Exclusions {
        for type in options.exclude + options.only + [options.activity].compactMap({ $0 }) where !isReverseDNS(type) {
            throw CommandFailure(.badInput, "'\(type)' is not an activity type such as org.example.hello.greet")
        }
        return Exclusions(config: config, exclude: options.exclude, only: options.only)
    }

    private func isReverseDNS(_ type: String) -> Bool {
        let labels = type.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && !$0.contains(" ") }
    }
}
