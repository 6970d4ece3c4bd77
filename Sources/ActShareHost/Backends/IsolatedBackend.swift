import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs a provider's hooks in `actshare-provider-host`, a helper process of its own.
///
/// The helper starts on the first call that needs the library. Every exchange has the
/// provider's time limit; a crash, an exit, a hang, a broken or garbled pipe ends the
/// helper and makes this back end fail every later call with the same message, so the
/// provider is left out and the host goes on. Session callbacks arrive as frames while
/// a hook runs; cancellation reaches the provider as `is_cancelled` (SIGUSR1), and one
/// that does not stop within the grace period is killed.
public final class IsolatedBackend: ProviderBackend, @unchecked Sendable {
    public let manifest: ProviderManifest
    private let helper: String
    private let timeoutMilliseconds: Int
    private let cancelled: UnsafeMutablePointer<Int32>
    private var process: ProviderProcess?
    private var fault: ActShareError?
    /// The activity of the request being served, for progress reports.
    private var activityType: String?

    /// How long a cancelled provider may take to stop before it is killed.
    static let cancellationGrace: UInt64 = 2_000_000_000

    init(manifest: ProviderManifest, helper: String, timeoutMilliseconds: Int, cancelled: UnsafeMutablePointer<Int32>) {
        self.manifest = manifest
        self.helper = helper
        self.timeoutMilliseconds = timeoutMilliseconds
        self.cancelled = cancelled
    }

    public func canPerform(_ activity: ActivityDeclaration, request: ActivityRequest) throws -> Bool {
        guard let hook = activity.hooks.canPerform else { return true }
        var answers: [Bool] = []
        try run(hook, request: request) { raw, _ in
            answers.append(HookResult.verdict(raw, returns: hook.returns))
            return true
        }
        return activity.accepts.match.combine(answers)
    }

    public func perform(_ activity: ActivityDeclaration, request: ActivityRequest, observer: (any SessionObserver)?) throws -> PerformOutcome {
        var collected = Collected()
        var status = PerformOutcome.Status.done
        do {
            try sendRequest(request)
            for hook in [activity.hooks.prepare, activity.hooks.perform].compactMap({ $0 }) {
                try calls(hook, items: request.items.count) { index in
                    let (raw, text) = try call(hook, item: index, observer: observer, collected: &collected)
                    if let text { collected.items.append(.text(text)) }
                    status = HookResult.status(raw, returns: hook.returns, text: text)
                    return status == .done
                }
                if status != .done { break }
            }
        } catch is ProviderProcess.CancellationError {
            status = .cancelled
        }
        if status == .done && cancelled.pointee != 0 { status = .cancelled }
        return PerformOutcome(status: status, returnedItems: collected.items, errorMessage: collected.error)
    }

    public func check() throws {
        try started()
        for activity in manifest.activities {
            for hook in activity.hooks.all {
                var frame = Frame(.symbol)
                frame.append(hook.symbol)
                try exchange(frame, hook: hook) { reply in
                    if reply.kind == .error { throw symbolMissing(hook) }
                }
            }
        }
    }

    // MARK: Calls

    /// What a perform collects from the session callbacks.
    private struct Collected {
        var items: [Item] = []
        var error: String?
    }

    /// Runs `hook` once or per item (can-perform), handing each result to `body`.
    private func run(_ hook: HookDeclaration, request: ActivityRequest, body: (UInt64, String?) throws -> Bool) throws {
        try sendRequest(request)
        var collected = Collected()
        try calls(hook, items: request.items.count) { index in
            let (raw, text) = try call(hook, item: index, observer: nil, collected: &collected)
            return try body(raw, text)
        }
    }

    private func calls(_ hook: HookDeclaration, items: Int, _ body: (Int) throws -> Bool) throws {
        for index in hook.isPerItem ? Array(0..<items) : [-1] {
            guard try body(index) else { return }
        }
    }

    /// One CALL: returns the raw result and a returned string, after passing on the
    /// callbacks that arrive while the hook runs.
    private func call(_ hook: HookDeclaration, item: Int, observer: (any SessionObserver)?, collected: inout Collected) throws -> (UInt64, String?) {
        var frame = Frame(.call)
        frame.append(hook.symbol)
        frame.append(UInt8(hook.returns.callCode))
        frame.append(UInt8(hook.arguments.count))
        for argument in hook.arguments {
            frame.append(UInt8(argument.callCode))
            if case .option(let name) = argument { frame.append(name) }
        }
        frame.append(UInt64(bitPattern: Int64(item)))
        var result: (UInt64, String?) = (0, nil)
        try exchange(frame, hook: hook, observer: observer) { reply in
            var reader = FrameReader(reply.payload)
            switch reply.kind {
            case .done:
                result = (try reader.uint64(), try reader.optionalString())
            case .error:
                let message = try reader.string()
                if message.hasPrefix("symbol '") { throw symbolMissing(hook) }
                throw failure(hook, message)
            case .item:
                let kind = Int32(try reader.byte())
                // A file's path is bytes; anything else must be text.
                let value = kind == ItemKind.file.cValue ? try reader.path() : try reader.string()
                if let item = ReturnedItem.make(kind: kind, value: value, contentType: try reader.optionalString()) {
                    collected.items.append(item)
                }
                throw Continue()
            case .setError:
                // It may name a file whose name is not UTF-8: kept as bytes (PathName).
                collected.error = try reader.path()
                throw Continue()
            default:
                throw FrameReader.Malformed(what: "an unexpected reply")
            }
        }
        return result
    }

    private func sendRequest(_ request: ActivityRequest) throws {
        try started()
        activityType = request.activityType
        var frame = Frame(.request)
        frame.append(request.activityType)
        frame.append(optional: request.subject)
        frame.append(UInt32(request.items.count))
        for item in request.items {
            frame.append(UInt8(item.kind.cValue))
            frame.append(optionalPath: item.path)
            frame.append(optional: item.url)
            frame.append(item.contentType)
            frame.append(item.size)
            let data = item.kind == .file ? nil : item.inlineBytes
            frame.append(UInt8(data == nil ? 0 : 1))
            if let data { frame.append(bytes: data) }
        }
        frame.append(UInt32(request.options.count))
        for (name, value) in request.options {
            frame.append(name)
            frame.append(value)
        }
        // Not awaited here: the reply is read before the next call's (see `exchange`).
        try post(frame) { reply in
            if reply.kind == .error {
                var reader = FrameReader(reply.payload)
                throw self.failure(nil, "refused the request: \((try? reader.string()) ?? "no reason")")
            }
        }
    }

    /// Starts the helper and loads the library, once.
    private func started() throws {
        if let fault { throw fault }
        guard process == nil else { return }
        do {
            process = try ProviderProcess(helper: helper, provider: manifest.id)
        } catch let error as ProviderProcess.Fault {
            throw record(ActShareError(.providerFailed, "provider \(manifest.id): \(error.description)", at: manifest.libraryLocation))
        }
        var frame = Frame(.load)
        frame.append(manifest.library)
        try post(frame) { reply in
            if reply.kind == .error {
                var reader = FrameReader(reply.payload)
                let reason = LibraryFile.problem(self.manifest.library) ?? (try? reader.string()) ?? "unknown error"
                throw self.record(ActShareError(
                    .providerFailed, "provider \(self.manifest.id): cannot load library \(self.manifest.library): \(reason)",
                    at: self.manifest.libraryLocation))
            }
        }
    }

    /// Frames sent whose replies are still to be read, in order, with their handlers.
    /// LOAD and REQUEST are sent without waiting, so starting a helper and asking a
    /// hook costs one round trip, not three.
    private var unanswered: [(Frame) throws -> Void] = []

    private func post(_ frame: Frame, handle: @escaping (Frame) throws -> Void) throws {
        guard let process else { throw fault ?? failure(nil, "no helper process") }
        do {
            try process.send(frame)
        } catch let fault as ProviderProcess.Fault {
            throw record(failure(nil, fault.description))
        }
        unanswered.append(handle)
    }

    /// A frame handler's way of saying "keep reading": the reply was a callback.
    private struct Continue: Error {}

    /// Sends `frame` and hands replies to `handle` until one is final, passing progress
    /// and log frames to `observer`. Faults end the helper and are remembered.
    private func exchange(_ frame: Frame, hook: HookDeclaration?, observer: (any SessionObserver)? = nil,
                          handle: (Frame) throws -> Void) throws {
        guard let process else { throw fault ?? failure(hook, "no helper process") }
        // "5s", "0.3s": the limit as a person wrote it in the manifest or config.
        let limit = timeoutMilliseconds % 1000 == 0 ? "\(timeoutMilliseconds / 1000)s" : "\(Double(timeoutMilliseconds) / 1000)s"
        var deadline = ProviderProcess.now() + UInt64(timeoutMilliseconds) * 1_000_000
        var cancelling = false
        do {
            try process.send(frame)
            // Replies come in order: first those of frames posted earlier, then this one's.
            try withoutActuallyEscaping(handle) { handle in
                var handlers = unanswered + [handle]
                unanswered = []
                while !handlers.isEmpty {
                    let reply = try process.receive(deadline: {
                        if !cancelling && cancelled.pointee != 0 {
                            // The user cancelled: tell the provider, and give it a grace period.
                            cancelling = true
                            process.requestCancel()
                            deadline = min(deadline, ProviderProcess.now() + Self.cancellationGrace)
                        }
                        return deadline
                    }, timeout: limit)
                    switch reply.kind {
                    case .progress:
                        var reader = FrameReader(reply.payload)
                        let fraction = Double(bitPattern: try reader.uint64())
                        if fraction.isFinite { observer?.progress(min(max(fraction, 0), 1), activity: activityType ?? manifest.id) }
                    case .log:
                        var reader = FrameReader(reply.payload)
                        let level = LogLevel(rawValue: Int32(try reader.byte())) ?? .info
                        observer?.log(level, try reader.string(), provider: manifest.id)
                    default:
                        do {
                            try handlers[0](reply)
                            handlers.removeFirst()
                        } catch is Continue {
                            continue
                        }
                    }
                }
            }
        } catch let fault as ProviderProcess.Fault {
            if cancelling { throw ProviderProcess.CancellationError() }
            throw record(failure(hook, fault.description))
        } catch let malformed as FrameReader.Malformed {
            process.stop()
            throw record(failure(hook, "sent \(malformed.what) (the pipe is corrupt), and was stopped"))
        }
    }

    // MARK: Messages

    private func failure(_ hook: HookDeclaration?, _ what: String) -> ActShareError {
        let subject = hook.map { "\($0.role.rawValue) hook" } ?? "provider host"
        return ActShareError(.providerFailed, "provider \(manifest.id): \(subject) \(what)", at: hook?.location ?? manifest.libraryLocation)
    }

    private func symbolMissing(_ hook: HookDeclaration) -> ActShareError {
        ActShareError(
            .providerFailed,
            "provider \(manifest.id): \(hook.role.rawValue) hook symbol '\(hook.symbol)' is not in \(FileSystem.baseName(manifest.library))",
            at: hook.location)
    }

    /// Remembers a fault that ended the helper (or kept it from starting): every later
    /// call fails with the same message.
    private func record(_ error: ActShareError) -> ActShareError {
        fault = error
        process?.stop()
        return error
    }
}
