import ActShareCore

/// The libraries opened so far in this process, by path, so each loads once.
final class LibraryCache {
    private var libraries: [String: ProviderLibrary] = [:]

    func library(for manifest: ProviderManifest) throws -> ProviderLibrary {
        if let library = libraries[manifest.library] { return library }
        let library = try ProviderLibrary(manifest: manifest)
        libraries[manifest.library] = library
        return library
    }
}
