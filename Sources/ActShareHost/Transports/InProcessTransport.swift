import ActShareCore
import CActShareCall
#if canImport(Glibc)
import Glibc
#endif

/// Calls a provider's hooks inside the host process, through libffi.
///
/// For trusted providers (`isolation: in-process`, or named in config `in-process`): a
/// crash of the provider is a crash of the host, and there is no time limit.
final class InProcessTransport: HookTransport {
    var temporaryDirectory: TemporaryDirectoryView? { nil }
    private let manifest: ProviderManifest
    private let libraries: LibraryCache
    private let cancelled: UnsafeMutablePointer<Int32>
    private var session: CSession?

    init(manifest: ProviderManifest, libraries: LibraryCache, cancelled: UnsafeMutablePointer<Int32>) {
        self.manifest = manifest
        self.libraries = libraries
        self.cancelled = cancelled
    }

    private(set) var missingSymbols: Set<String>?

    /// Answers at once: nothing to wait for in this process.
    func load(symbols: [String], request: ActivityRequest, phase: HookPhase, answerLater: Bool) throws -> Set<String>? {
        let library = try libraries.library(for: manifest)
        let missing = Set(symbols.filter { !library.has($0) })
        missingSymbols = missing
        return missing
    }

    func begin(_ request: ActivityRequest, phase: HookPhase) throws {
        session = CSession(request: CRequest(request), cancelled: cancelled)
    }

    /// Calls at once: nothing to wait for in this process.
    func post(_ hook: HookDeclaration, item: Int, event: @escaping (SessionEvent) -> Bool,
              done: @escaping (Result<HookReturnValue, any Error>) -> Void) throws {
        done(Result { try call(hook, item: item, event: event) })
    }

    func settle() throws {}

    func call(_ hook: HookDeclaration, item: Int, event: (SessionEvent) -> Bool) throws -> HookReturnValue {
        guard let session else { preconditionFailure("call before begin") }
        let function = try libraries.library(for: manifest).address(of: hook, provider: manifest.id)
        return try session.withSink(event) {
            let raw = try HookCall(hook).invoke(function, request: session.request.pointer, session: session.pointer, item: item) { message in
                ActShareError(.providerFailed, "provider \(manifest.id): \(hook.role.rawValue) hook could not be called: \(message)", at: hook.location)
            }
            // A returned string may live in a buffer the next call reuses: copied now.
            let pointer = hook.returns == .string ? UnsafePointer<CChar>(bitPattern: UInt(raw)) : nil
            if let pointer, strlen(pointer) > HookReturnValue.maximumString {
                throw ActShareError(.providerFailed, "provider \(manifest.id): \(hook.role.rawValue) hook \(HookReturnValue.tooLarge(String(strlen(pointer))))", at: hook.location)
            }
            let string = pointer.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
            return HookReturnValue(raw: raw, string: string)
        }
    }
}
