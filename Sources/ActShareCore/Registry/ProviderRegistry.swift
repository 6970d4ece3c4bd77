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
        providers.reserveCapacity(manifests.count)
        // Sets, not maps to files: conflicts are rare, and their winner is looked up then.
        var ids: Set<String> = []
        var types: Set<String> = []
        ids.reserveCapacity(manifests.count)
        types.reserveCapacity(manifests.count * 2)
        for entry in manifests {
            switch entry.result {
            case .failure(let error):
                failures.append((entry.file, error))
            case .success(let manifest):
                guard ids.insert(manifest.id).inserted else {
                    let first = provider(id: manifest.id)?.file ?? "?"
                    warnings.append(Diagnostic(.warning, "provider '\(manifest.id)' is also declared in \(first), which wins", at: SourceLocation(file: manifest.file, line: 1, column: 1)))
                    continue
                }
                var kept = manifest.activities
                var conflicts = 0
                for activity in manifest.activities where !types.insert(activity.type).inserted {
                    let first = self.activity(ofType: activity.type)?.provider.file ?? manifest.file
                    warnings.append(Diagnostic(.warning, "activity type '\(activity.type)' is also declared in \(first), which wins", at: activity.location))
                    kept.removeAll { $0 === activity }
                    conflicts += 1
                }
                providers.append(conflicts == 0 ? manifest : manifest.keeping(kept))
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
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            files.reserveCapacity(files.count + names.count)
            for name in names where name.utf8.first != UInt8(ascii: ".") {
                let path = prefix + name
                if name.utf8.count > 5 && name.utf8.reversed().starts(with: "lmay.".utf8) {
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
