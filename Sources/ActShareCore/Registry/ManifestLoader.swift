/// Gets the decoded manifests and config for a run: from the index when it is fresh,
/// else from `actshare-manifests`, the helper that parses YAML and refreshes the index.
///
/// The helper is `actshare` itself under that name (ActShareManifests' ManifestsHelper),
/// in a process of its own: a manifest that crashes or hangs the YAML parser stops
/// only the helper, which has ``helperTimeLimit`` in all, and a run whose index is
/// fresh does not touch YAML code at all.
public struct ManifestLoader: Sendable {
    public var paths: SearchPaths

    public init(paths: SearchPaths) {
        self.paths = paths
    }

    /// How long reading every manifest may take. Each file is read with a size limit and
    /// only if it is a regular file, so this bounds what nothing else does.
    static let helperTimeLimit: Duration = .seconds(30)

    /// The config file that applies: the first candidate that exists, if any.
    public var configFile: String? { paths.configFiles.first(where: FileSystem.exists) }

    /// The manifests on the search path and the config, decoded.
    public func load() throws -> ManifestIndex.Contents {
        let configFile = configFile
        let index = ManifestIndex(
            directory: paths.cacheDirectory, libraryDirectories: paths.libraryDirectories,
            providerDirectories: paths.providerDirectories)
        if let contents = index.freshContents(directories: paths.providerDirectories, configFile: configFile) {
            return contents
        }
        var arguments = ["--index", index.file]
        if let configFile { arguments += ["--config", configFile] }
        for directory in paths.providerDirectories { arguments += ["--directory", directory] }
        return try runHelper(arguments, index: index)
    }

    /// One manifest decoded without touching the index, for `providers check`.
    public func decode(manifest file: String) throws -> ManifestIndex.Entry {
        let index = ManifestIndex(directory: paths.cacheDirectory, libraryDirectories: paths.libraryDirectories)
        guard let entry = try runHelper(["--", file], index: index).manifests.first else {
            throw ActShareError(.io, "\(SearchPaths.manifestHelperName) returned nothing for \(file)")
        }
        return entry
    }

    /// Every error and warning of one manifest, as lines `FILE:LINE:COLUMN: error: …`,
    /// for `providers check` (decoding for use stops at the first).
    public func problems(manifest file: String) throws -> [String] {
        let outcome = try helperOutcome(["--check", file])
        guard !outcome.timedOut, outcome.status == 0 else {
            throw ActShareError(.io, "cannot read manifests: \(SearchPaths.manifestHelperName) failed (status \(outcome.status))")
        }
        return PathName.decode(outcome.output).split(separator: "\n").map(String.init)
    }

    private func runHelper(_ arguments: [String], index: ManifestIndex) throws -> ManifestIndex.Contents {
        let helper = SearchPaths.manifestHelperName
        let outcome: ChildProcess.Outcome
        do {
            outcome = try helperOutcome(arguments)
        } catch let error as ActShareError {
            throw ActShareError(.io, "cannot read manifests: \(error.message)")
        }
        if outcome.timedOut {
            throw ActShareError(.io, "cannot read manifests: \(helper) did not finish within \(Self.helperTimeLimit), and was stopped")
        }
        guard outcome.status == 0, let contents = index.contents(of: outcome.output) else {
            throw ActShareError(.io, "cannot read manifests: \(helper) failed (status \(outcome.status))")
        }
        return contents
    }

    /// Runs the helper (this executable as `actshare-manifests`) to its end, with the
    /// library and built-in directories and then `arguments`, within ``helperTimeLimit``.
    private func helperOutcome(_ arguments: [String]) throws -> ChildProcess.Outcome {
        let builtins = paths.builtinDirectories.flatMap { ["--builtin-dir", $0] }
        return try ChildProcess.run(
            paths.manifestHelper, ["--library-dirs", paths.libraryDirectories.joined(separator: ":")] + builtins + arguments,
            name: SearchPaths.manifestHelperName, timeLimit: Self.helperTimeLimit)
    }
}
