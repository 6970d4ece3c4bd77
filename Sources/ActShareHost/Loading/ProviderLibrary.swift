import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

/// A provider's shared library, opened once and never closed.
///
/// Libraries are opened `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE`: every symbol resolves at
/// load time (a missing dependency fails now, not mid-call), one provider's symbols never
/// replace another's, and code that may have registered runtime metadata (Swift, C++) is
/// never unmapped. In the release link, which exports its Swift runtime to the daemon's
/// library (ReleaseLink), also `RTLD_DEEPBIND`: a provider binds to its own libraries
/// first, as a Swift provider on the toolchain's shared runtime would otherwise take half
/// its runtime from actshare and crash. Nowhere else: the flag breaks the sanitizers' own
/// interposition (a provider built with ASan loads in process only without it) and hides
/// `LD_PRELOAD` interposers. No allocator ownership crosses the C interface, so a
/// provider's malloc being its own libc's is safe.
final class ProviderLibrary {
    let path: String
    private let handle: UnsafeMutableRawPointer

    /// Opens the library of `manifest`, or throws an error pointing at its `library:` key.
    init(manifest: ProviderManifest) throws {
        path = manifest.library
        guard let handle = dlopen(manifest.library, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE | (ReleaseLink.exportsRuntime ? RTLD_DEEPBIND : 0)) else {
            let reason = LibraryFile.problem(manifest.library) ?? dlerror().map { String(cString: $0) } ?? "unknown error"
            throw ActShareError(
                .providerFailed, "provider \(manifest.id): cannot load library \(manifest.library): \(Self.shorten(reason, path: manifest.library))",
                at: manifest.libraryLocation)
        }
        self.handle = handle
    }

    /// The address of `hook`'s symbol, or an error pointing at the hook's declaration.
    func address(of hook: HookDeclaration, provider: String) throws -> UnsafeMutableRawPointer {
        _ = dlerror()
        guard let address = dlsym(handle, hook.symbol) else {
            throw ActShareError(
                .providerFailed,
                "provider \(provider): \(hook.role.rawValue) hook symbol '\(hook.symbol)' is not in \(FileSystem.baseName(path))",
                at: hook.location)
        }
        return address
    }

    /// Whether the library has `symbol`.
    func has(_ symbol: String) -> Bool {
        dlsym(handle, symbol) != nil
    }

    /// dlerror starts with the library's path, which the message already names.
    private static func shorten(_ reason: String, path: String) -> String {
        reason.hasPrefix(path + ": ") ? String(reason.dropFirst(path.count + 2)) : reason
    }
}
