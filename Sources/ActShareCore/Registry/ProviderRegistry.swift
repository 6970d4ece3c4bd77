import Synchronization

/// Every provider found on the search path, with what was wrong with the ones that
/// could not be used.
///
/// Providers are found in search-path order; in each directory, in name order, a
/// subdirectory holding `provider.yaml` or a `*.yaml` file is one provider. When two
/// providers share an id, or two activities share a type, the first wins and a warning
/// names both files.
///
/// Routing reads only each provider's summary (``routes``); a whole manifest is decoded
/// when one of its activities is offered, so a thousand installed providers cost little
/// more than the few that can handle the items.
public struct ProviderRegistry: Sendable {
    /// Every activity that may be offered, in search order, after conflicts were resolved.
    public private(set) var routes: [ActivityRoute] = []
    /// Manifests that could not be used, with the reason.
    public private(set) var failures: [(file: String, error: ActShareError)] = []
    /// Warnings about conflicts that were resolved.
    public private(set) var warnings: [Diagnostic] = []

    private let entries: [ManifestIndex.Entry]
    /// Entry positions of the usable providers, in search order.
    private var usable: [Int] = []
    /// Activity types that lost a conflict, by entry position (rare, so usually empty).
    private var lostTypes: [Int: [String]] = [:]
    private let decoded: DecodedManifests

    /// Errors and warnings, in the order a user should read them.
    public var diagnostics: [Diagnostic] { failures.map { Diagnostic($0.error) } + warnings }

    /// A registry of `entries`, in search order. With `hasNoConflicts` (known from the
    /// index) the check for shared ids and types is skipped.
    public init(manifests entries: [ManifestIndex.Entry], hasNoConflicts: Bool = false) {
        self.entries = entries
        decoded = DecodedManifests(count: entries.count)
        routes.reserveCapacity(entries.count)
        usable.reserveCapacity(entries.count)
        // Sets, not maps to files: conflicts are rare, and their winner is looked up then.
        var ids: Set<String> = []
        var types: Set<String> = []
        if !hasNoConflicts {
            ids.reserveCapacity(entries.count)
            types.reserveCapacity(entries.count * 2)
        }
        for (position, entry) in entries.enumerated() {
            switch entry.summary {
            case .failure(let error):
                failures.append((entry.file, error))
            case .success(let summary) where hasNoConflicts:
                usable.append(position)
                for activity in summary.activities {
                    routes.append(ActivityRoute(provider: position, providerID: summary.id, activity: activity))
                }
            case .success(let summary):
                guard ids.insert(summary.id).inserted else {
                    let first = firstFile(providerID: summary.id)
                    warnings.append(Diagnostic(.warning, "provider '\(summary.id)' is also declared in \(first), which wins", at: SourceLocation(file: entry.file, line: 1, column: 1)))
                    continue
                }
                usable.append(position)
                for activity in summary.activities {
                    let type = activity.type
                    guard types.insert(type).inserted else {
                        let first = route(ofType: type).map { entries[$0.provider].file } ?? entry.file
                        let location = (try? entry.manifest().get())?.activities.first { $0.type == type }?.location
                        warnings.append(Diagnostic(.warning, "activity type '\(type)' is also declared in \(first), which wins", at: location))
                        lostTypes[position, default: []].append(type)
                        continue
                    }
                    routes.append(ActivityRoute(provider: position, providerID: summary.id, activity: activity))
                }
            }
        }
    }

    /// What a scan of the provider directories found.
    public struct Scan: Sendable {
        /// The manifest files, in search order.
        public var files: [String] = []
        /// Subdirectories without a `provider.yaml`: adding one there changes no
        /// provider directory, so the index watches them too.
        public var emptySubdirectories: [String] = []
    }

    /// The manifests in `directories`, in search order.
    public static func scan(_ directories: [String]) -> Scan {
        var scan = Scan()
        var seenDirectories: [String] = []
        for directory in directories where !seenDirectories.contains(directory) {
            seenDirectories.append(directory)
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            guard let paths = FileSystem.contents(ofDirectory: directory, prefixedWith: prefix) else { continue }
            for path in paths where FileSystem.baseName(path).utf8.first != UInt8(ascii: ".") {
                if FileSystem.hasSuffix(path, ".yaml") {
                    scan.files.append(path)
                } else if FileSystem.isDirectory(path) {
                    let nested = FileSystem.join(path, "provider.yaml")
                    // A provider directory actshare may not search is reported (reading its
                    // manifest fails with "Permission denied"), not taken for an empty one.
                    if FileSystem.exists(nested) || FileSystem.unreadableDirectory(path) != nil {
                        scan.files.append(nested)
                    } else {
                        scan.emptySubdirectories.append(path)
                    }
                }
            }
        }
        return scan
    }

    // MARK: Decoded manifests

    /// Every usable provider, decoded, without activities that lost a type conflict.
    /// Decodes every manifest: for listings of all providers, not for routing.
    public var providers: [ProviderManifest] {
        usable.compactMap { position in
            guard let manifest = manifest(at: position) else { return nil }
            guard let lost = lostTypes[position] else { return manifest }
            return manifest.keeping(manifest.activities.filter { !lost.contains($0.type) })
        }
    }

    /// The provider and full declaration of a route's activity, decoded once.
    public func declaration(of route: ActivityRoute) throws -> (provider: ProviderManifest, activity: ActivityDeclaration) {
        let manifest = try decodedManifest(at: route.provider)
        guard let activity = manifest.activities.first(where: { $0.type == route.type }) else {
            throw ActShareError(.io, "the manifest index does not match \(manifest.file); remove \(route.providerID)'s cache entry by touching the file")
        }
        return (manifest, activity)
    }

    /// The provider and declaration of an activity type, if some usable provider has it.
    public func activity(ofType type: String) -> (provider: ProviderManifest, activity: ActivityDeclaration)? {
        guard let route = route(ofType: type) else { return nil }
        return try? declaration(of: route)
    }

    /// The usable provider with `id`, if any.
    public func provider(id: String) -> ProviderManifest? {
        for position in usable {
            if case .success(let summary) = entries[position].summary, summary.id == id {
                return manifest(at: position)
            }
        }
        return nil
    }

    private func route(ofType type: String) -> ActivityRoute? {
        routes.first { $0.type == type }
    }

    private func firstFile(providerID: String) -> String {
        for position in usable {
            if case .success(let summary) = entries[position].summary, summary.id == providerID {
                return entries[position].file
            }
        }
        return "?"
    }

    /// The decoded manifest of entry `position`, decoding it once.
    private func manifest(at position: Int) -> ProviderManifest? {
        try? decodedManifest(at: position)
    }

    private func decodedManifest(at position: Int) throws -> ProviderManifest {
        try decoded.manifest(at: position) { try entries[position].manifest().get() }
    }
}

/// The manifests a registry has decoded so far, shared by its copies. An array by entry
/// position, not a dictionary: no hashing, and no Hashable lookup at start-up.
private final class DecodedManifests: Sendable {
    private let manifests: Mutex<[ProviderManifest?]>

    init(count: Int) {
        manifests = Mutex(Array(repeating: nil, count: count))
    }

    func manifest(at position: Int, decode: () throws -> ProviderManifest) throws -> ProviderManifest {
        if let manifest = manifests.withLock({ $0[position] }) { return manifest }
        let manifest = try decode()
        manifests.withLock { $0[position] = manifest }
        return manifest
    }
}
