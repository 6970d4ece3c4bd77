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
            answers.append(hook.returns == .bool ? (raw & 0xFF) != 0 : Int32(truncatingIfNeeded: raw) != 0)
            return true
        }
        switch activity.accepts.match {
        case .all: return answers.allSatisfy { $0 }
        case .any: return answers.contains(true)
        }
    }

    public func perform(_ activity: ActivityDeclaration, request: ActivityRequest, observer: (any SessionObserver)?) throws -> PerformOutcome {
        let cRequest = CRequest(request)
        let session = CSession(request: cRequest, provider: manifest.id, observer: observer, cancelled: cancelled)
        var status = PerformOutcome.Status.done
        for hook in [activity.hooks.prepare, activity.hooks.perform].compactMap({ $0 }) {
            try call(hook, request: cRequest, session: session) { raw in
                status = outcome(of: raw, hook: hook, session: session)
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

    /// Reads a prepare or perform hook's raw return as an outcome.
    private func outcome(of raw: UInt64, hook: HookDeclaration, session: CSession) -> PerformOutcome.Status {
        switch hook.returns {
        case .status, .verdict:
            switch Int32(truncatingIfNeeded: raw) {
            case 0: return .done
            case 2: return .cancelled
            default: return .failed
            }
        case .bool:
            return (raw & 0xFF) != 0 ? .done : .failed
        case .string:
            guard let pointer = UnsafePointer<CChar>(bitPattern: UInt(raw)) else { return .failed }
            session.appendReturnedText(String(cString: pointer))
            return .done
        case .void:
            return .done
        }
    }
}
