import ActShareCore
import CActShareCall

/// Runs a provider's hooks inside the host process, through libffi.
///
/// For trusted providers (`isolation: in-process`): a crash in the provider is a crash
/// of the host.
public final class InProcessBackend: ProviderBackend {
    public let manifest: ProviderManifest
    private let libraries: LibraryCache
    private let cancelled: UnsafeMutablePointer<Int32>

    init(manifest: ProviderManifest, libraries: LibraryCache, cancelled: UnsafeMutablePointer<Int32>) {
        self.manifest = manifest
        self.libraries = libraries
        self.cancelled = cancelled
    }

    public func canPerform(_ activity: ActivityDeclaration, request: ActivityRequest) throws -> Bool {
        guard let hook = activity.hooks.canPerform else { return true }
        let cRequest = CRequest(request)
        let session = CSession(request: cRequest, provider: manifest.id, observer: nil, cancelled: cancelled)
        var answers: [Bool] = []
        try call(hook, request: cRequest, session: session) { raw in
            answers.append(HookResult.verdict(raw, returns: hook.returns))
            return true
        }
        return activity.accepts.match.combine(answers)
    }

    public func perform(_ activity: ActivityDeclaration, request: ActivityRequest, observer: (any SessionObserver)?) throws -> PerformOutcome {
        let cRequest = CRequest(request)
        let session = CSession(request: cRequest, provider: manifest.id, observer: observer, cancelled: cancelled)
        var status = PerformOutcome.Status.done
        for hook in [activity.hooks.prepare, activity.hooks.perform].compactMap({ $0 }) {
            try call(hook, request: cRequest, session: session) { raw in
                // A returned string may live in a buffer the next call reuses: copy it now.
                let text = hook.returns == .string ? UnsafePointer<CChar>(bitPattern: UInt(raw)).map { String(cString: $0) } : nil
                if let text { session.appendReturnedText(text) }
                status = HookResult.status(raw, returns: hook.returns, text: text)
                return status == .done
            }
            if status != .done { break }
        }
        if status == .done && cancelled.pointee != 0 { status = .cancelled }
        return PerformOutcome(status: status, returnedItems: session.returnedItems, errorMessage: session.errorMessage)
    }

    public func check() throws {
        let library = try libraries.library(for: manifest)
        for activity in manifest.activities {
            for hook in activity.hooks.all {
                _ = try library.address(of: hook, provider: manifest.id)
            }
        }
    }

    // MARK: Calls

    /// Calls `hook` once, or once per item, handing each raw return value to `body`
    /// straight away (a returned string may live in a buffer the next call reuses).
    /// Stops when `body` returns false.
    private func call(_ hook: HookDeclaration, request: CRequest, session: CSession, body: (UInt64) throws -> Bool) throws {
        let function = try libraries.library(for: manifest).address(of: hook, provider: manifest.id)
        let arguments = HookCall(hook)
        let indices: [Int] = hook.isPerItem ? Array(request.request.items.indices) : [-1]
        for index in indices {
            let raw = try arguments.invoke(function, request: request.pointer, session: session.pointer, item: index) { message in
                ActShareError(.providerFailed, "provider \(manifest.id): \(hook.role.rawValue) hook: \(message)")
            }
            guard try body(raw) else { return }
        }
    }
}
