import ActShareCore

/// Runs a provider's hooks inside the host process, through libffi.
///
/// For trusted providers (`isolation: in-process`): a crash in the provider is a crash
/// of the host.
public final class InProcessBackend: ProviderBackend {
    public let manifest: ProviderManifest
    private let libraries: LibraryCache
    private let cancelled: UnsafeMutablePointer<Int32>
    private var interfaces: [String: CallInterface] = [:]

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
                _ = try interface(for: hook)
            }
        }
    }

    // MARK: Calls

    /// Calls `hook` once, or once per item, handing each raw return value to `body`
    /// straight away (a returned string may live in a buffer the next call reuses).
    /// Stops when `body` returns false.
    private func call(_ hook: HookDeclaration, request: CRequest, session: CSession, body: (UInt64) throws -> Bool) throws {
        let function = try libraries.library(for: manifest).address(of: hook, provider: manifest.id)
        let interface = try interface(for: hook)
        let indices: [Int?] = hook.isPerItem ? request.request.items.indices.map { $0 } : [nil]
        for index in indices {
            let raw = interface.call(function, arguments: try arguments(for: hook, item: index, request: request, session: session))
            guard try body(raw) else { return }
        }
    }

    private func interface(for hook: HookDeclaration) throws -> CallInterface {
        // Two activities may bind one symbol with different arguments.
        let key = hook.symbol + "(" + hook.arguments.map(\.word).joined(separator: ",") + ")" + hook.returns.rawValue
        if let interface = interfaces[key] { return interface }
        let interface = try CallInterface(hook: hook)
        interfaces[key] = interface
        return interface
    }

    /// Marshals the declared argument words for one call.
    private func arguments(for hook: HookDeclaration, item index: Int?, request: CRequest, session: CSession) throws -> [CallInterface.Argument] {
        var values: [CallInterface.Argument] = []
        let item = index.map { request.item($0) }
        for argument in hook.arguments {
            switch argument {
            case .itemPath: values.append(.pointer(item?.path))
            case .itemURI: values.append(.pointer(item?.uri))
            case .itemText: values.append(.pointer(item?.text))
            case .itemContentType: values.append(.pointer(item?.content_type))
            case .itemSize: values.append(.unsigned(item?.size ?? 0))
            case .itemData:
                guard let index else {
                    values += [.pointer(nil), .unsigned(0)]
                    continue
                }
                do {
                    let (bytes, length) = try request.data(ofItem: index)
                    values += [.pointer(bytes), .unsigned(UInt64(length))]
                } catch let error as ActShareError {
                    throw ActShareError(.io, "provider \(manifest.id): \(hook.role.rawValue) hook: \(error.message)")
                }
            case .itemsCount: values.append(.unsigned(UInt64(request.request.items.count)))
            case .activityType: values.append(.pointer(request.pointer.pointee.activity_type))
            case .option(let name): values.append(.pointer(request.option(name)))
            case .request: values.append(.pointer(UnsafeRawPointer(request.pointer)))
            case .session: values.append(.pointer(UnsafeRawPointer(session.pointer)))
            }
        }
        return values
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
