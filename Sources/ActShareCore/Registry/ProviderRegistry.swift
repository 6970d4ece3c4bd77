/// Every provider found on the search path, with what was wrong with the ones that
/// could not be used.
///
/// Providers are found in search-path order; in each directory, in name order, a
/// subdirectory holding `provider.yaml` or a `*.yaml` file is one provider. When two
/// providers share an id, or two activities share a type, the first wins and a warning
/// names both files.
public struct ProviderRegistry: Sendable {
    /// Usable providers, in search order. Activities that lost a type conflict are removed.
    public private(set) var providers: [ProviderManifest]
    /// Manifests that could not be used, with the reason.
    public private(set) var failures: [(file: String, error: ActShareError)]
    /// Warnings about conflicts that were resolved.
    public private(set) var warnings: [Diagnostic]

    /// Errors and warnings, in the order a user should read them.
    public var diagnostics: [Diagnostic] { failures.map { Diagnostic($0.error) } + warnings }

    public init(manifests: [ManifestIndex.Entry]) {
        providers = []
        failures = []
        warnings = []
        var providerFiles: [String: String] = [:]
        var activityFiles: [String: String] = [:]
        for entry in manifests {
            switch entry.result {
            case .failure(let error):
                failures.append((entry.file, error))
            case .success(var manifest):
                if let first = providerFiles[manifest.id] {
                    warnings.append(Diagnostic(.warning, "provider '\(manifest.id)' is also declared in \(first), which wins", at: SourceLocation(file: manifest.file, line: 1, column: 1)))
                    continue
                }
                providerFiles[manifest.id] = manifest.file
                manifest.activities.removeAll { activity in
                    if let first = activityFiles[activity.type] {
                        warnings.append(Diagnostic(.warning, "activity type '\(activity.type)' is also declared in \(first), which wins", at: activity.location))
                        return true
                    }
                    activityFiles[activity.type] = manifest.file
                    return false
                }
                providers.append(manifest)
            }
        }
    }

    /// The manifest files in `directories`, in search order.
    public static func manifestFiles(in directories: [String]) -> [String] {
        var files: [String] = []
        var seenDirectories: [String] = []
        for directory in directories where !seenDirectories.contains(directory) {
            seenDirectories.append(directory)
            guard let names = FileSystem.contents(ofDirectory: directory) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = FileSystem.join(directory, name)
                if name.hasSuffix(".yaml") {
                    files.append(path)
                } else {
                    let nested = FileSystem.join(path, "provider.yaml")
                    if FileSystem.exists(nested) { files.append(nested) }
                }
            }
        }
        return files
    }

    /// The provider and declaration of an activity type, if some usable provider has it.
    public func activity(ofType type: String) -> (provider: ProviderManifest, activity: ActivityDeclaration)? {
        for provider in providers {
            if let activity = provider.activities.first(where: { $0.type == type }) {
                return (provider, activity)
            }
        }
        return nil
    }

    /// The usable provider with `id`, if any.
    public func provider(id: String) -> ProviderManifest? {
        providers.first { $0.id == id }
    }
}
