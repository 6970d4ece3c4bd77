import ActShareCore
import CActShareProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Calls a provider's hooks in `actshare-provider-host`, a helper process of its own.
///
/// The helper starts on the first call that needs the library. A call that reports
/// nothing must end within the provider's time limit; once it reports (progress, a log
/// line, an item), it must report again or end within the idle limit, so a perform that
/// keeps reporting runs as long as it needs. A crash, an exit, a hang, a broken or
/// garbled pipe ends the helper and makes every later call fail with the same message,
/// so the provider is left out and the host goes on. Cancellation reaches the provider
/// as `is_cancelled` (SIGUSR1), and one that does not stop within the grace period is
/// killed.
final class HelperTransport: HookTransport {
    private let manifest: ProviderManifest
    private let helper: String
    private let limits: HookLimits
    private let sandbox: SandboxSettings
    private let cancelled: UnsafeMutablePointer<Int32>
    /// Where `--explain` shows each sandbox's rules, if asked.
    private let trace: Trace?
    private var process: ProviderProcess?
    private var fault: ActShareError?
    /// The symbols LOAD resolves, kept to load again in a helper with another sandbox.
    private var symbols: [String] = []
    /// Whether LOAD was asked for: once per transport (a helper may be started before).
    private var loaded = false
    /// What LOAD's answer named missing, once it is read.
    private(set) var missingSymbols: Set<String>?
    /// What the running helper's sandbox allows, the hooks it was started for, and its
    /// private temporary directory (none for `can-perform` alone: ``HookPhase``).
    private var policy: SandboxPolicy?
    private var phase: HookPhase?
    private var privateDirectory: PrivateDirectory?
    var temporaryDirectory: TemporaryDirectoryView? {
        guard let privateDirectory, let process else { return nil }
        return TemporaryDirectoryView(path: privateDirectory.path, helper: process.pid, limit: policy?.temporaryFiles ?? 0)
    }
    /// A helper for prepare and perform, started while can-perform runs in another
    /// (``prestartActing(_:)``), with its private directory and its sandbox, whose answer
    /// is still to be read.
    private var spare: Spare?
    private typealias Spare = (process: ProviderProcess, directory: PrivateDirectory, policy: SandboxPolicy)
    /// The running helper's process id, if one runs, and the spare's.
    var helperProcess: pid_t? { process?.pid }
    var spareProcess: pid_t? { spare?.process.pid }
    /// The output files granted alone to the running helper, made for it.
    private var outputFiles: [OutputFile] = []
    /// The Landlock ABI the running helper enforces (0: none; nil: not started).
    private(set) var landlockABI: UInt32?

    /// How long a cancelled provider may take to stop before it is killed.
    static let cancellationGrace: UInt64 = 2_000_000_000

    init(manifest: ProviderManifest, helper: String, limits: HookLimits, sandbox: SandboxSettings,
         cancelled: UnsafeMutablePointer<Int32>, trace: Trace?) {
        self.manifest = manifest
        self.helper = helper
        self.limits = limits
        self.sandbox = sandbox
        self.cancelled = cancelled
        self.trace = trace
    }

    func load(symbols: [String], request: ActivityRequest, phase: HookPhase, answerLater: Bool) throws -> Set<String>? {
        if let fault { throw fault }
        precondition(!loaded, "load twice")
        loaded = true
        self.symbols = symbols
        try start(for: request, phase: phase, answerLater: answerLater)
        return answerLater ? nil : missingSymbols
    }

    /// Starts the helper ahead of the first `can-perform` call, so that its start overlaps
    /// what actshare does meanwhile (typing and routing the items): the process, its guard
    /// and, when its sandbox would create nothing (no output file), its sandbox for
    /// `request`, the items as located before they are typed. No provider code is loaded:
    /// that waits for the first call, as for a helper started then. Not for a provider
    /// that may hand off, whose helper is given a connection made for the request's items.
    /// A failure here is left to the first call, which starts again and says what went
    /// wrong. `concurrently`: one of several started together (``ProviderProcess``).
    func prestart(_ request: ActivityRequest, concurrently: Bool) {
        guard process == nil, fault == nil, !manifest.permissions.handoff else { return }
        do {
            try spawn(grant: nil, phase: .checking, concurrently: concurrently)
            let policy = policy(for: request)
            guard policy.outputFiles.isEmpty else { return }
            self.policy = policy
            try enter(policy)
        } catch {
            fault = nil
            discardHelper()
        }
    }

    /// Starts, while a `can-perform` call runs in the helper started for it, the helper
    /// that prepare and perform will run in for `request` (the process, its private
    /// directory and its sandbox), so that the perform does not wait for it; it is taken
    /// if the perform's request gives the same sandbox, and stopped otherwise. Not for a
    /// provider that may hand off, nor when the sandbox would create an output file.
    func prestartActing(_ request: ActivityRequest) {
        guard spare == nil, fault == nil, !manifest.permissions.handoff else { return }
        do {
            let directory = try PrivateDirectory()
            let policy = policy(for: request, privateDirectory: directory.path)
            let frame = policy.frame
            // Too many items for one frame is said by the perform's own start.
            guard policy.outputFiles.isEmpty, frame.payload.count < Int(ASP_MAX_FRAME) - 1 else { return }
            let process = try makeProcess(grant: nil, phase: .acting, privateDirectory: directory.path)
            try process.send(frame)
            spare = (process, directory, policy)
        } catch {
            // Left to the perform, which starts its own helper and says what went wrong.
        }
    }

    /// The spare helper, if its sandbox is the one `request` needs; one that is not is
    /// stopped.
    private func takeSpare(for request: ActivityRequest) -> Spare? {
        guard let spare else { return nil }
        self.spare = nil
        guard policy(for: request, privateDirectory: spare.directory.path) == spare.policy else {
            spare.process.stop()
            return nil
        }
        return spare
    }

    /// Starts a helper process for hooks of `phase`, with its private directory if they
    /// may write one; not yet sandboxed.
    private func spawn(grant: Int32?, phase: HookPhase, concurrently: Bool = false) throws {
        privateDirectory = phase == .acting ? try PrivateDirectory() : nil
        self.phase = phase
        process = try makeProcess(grant: grant, phase: phase, privateDirectory: privateDirectory?.path, concurrently: concurrently)
    }

    private func makeProcess(grant: Int32?, phase: HookPhase, privateDirectory: String?, concurrently: Bool = false) throws -> ProviderProcess {
        var environment = SandboxSettings.environment(privateDirectory: privateDirectory, permissions: manifest.permissions)
        if grant != nil { environment.append("\(HandoffGrant.variable)=\(HandoffGrant.descriptor)") }
        var arguments = (manifest.permissions.background ? ["--keep-sessions"] : []) + (manifest.permissions.reachesUnixSockets ? ["--unix-sockets"] : [])
        // Nothing a provider that may start no process leaves behind, and no folder to
        // remove: no guard to fork (0.26 ms of a list).
        if phase == .checking, !manifest.permissions.exec, arguments.isEmpty, grant == nil { arguments = ["--threads-only"] }
        return try ProviderProcess(
            helper: helper, provider: manifest.id, arguments: arguments, environment: environment, grant: grant, concurrently: concurrently)
    }

    /// Stops the helper, if one runs, and forgets its sandbox: the next start makes another.
    private func discardHelper() {
        process?.stop()
        process = nil
        policy = nil
        phase = nil
        outputFiles = []
        unanswered = []
        unansweredBytes = 0
    }

    /// Starts a helper whose sandbox fits `request` and `phase` (or keeps the one started
    /// ahead, if its sandbox is the same), and loads the library in it: ``missingSymbols``
    /// once the answer is read, which `answerLater` leaves to the next call.
    private func start(for request: ActivityRequest, phase: HookPhase, answerLater: Bool = false) throws {
        do {
            // Started ahead for other hooks, or sandboxed for other items or options: a
            // sandbox only narrows, so the helper is replaced.
            if process != nil, self.phase != phase || policy.map({ self.policy(for: request) != $0 }) == true {
                discardHelper()
            }
            if process == nil, phase == .acting, let spare = takeSpare(for: request) {
                process = spare.process
                privateDirectory = spare.directory
                self.phase = .acting
                policy = spare.policy
                unanswered = [Pending(handle: sandboxAnswer(spare.policy))]
            }
            if process == nil {
                let grant = manifest.permissions.handoff ? HandoffGrant.open(items: request.items.compactMap(\.path)) : nil
                defer { if let grant { close(grant) } }
                try spawn(grant: grant, phase: phase)
            }
            if policy == nil {
                let policy = policy(for: request)
                self.policy = policy
                outputFiles = policy.outputFiles.map(OutputFile.init)
                try enter(policy)
            }
            if let policy { trace?("provider \(manifest.id): sandbox: \(policy.description)") }
        } catch let error as ProviderProcess.Fault {
            throw record(ActShareError(.providerFailed, "provider \(manifest.id): \(error.description)", at: manifest.libraryLocation))
        }
        let frame = Frame.load(library: manifest.library, symbols: symbols)
        let symbols = symbols
        let answer = { (reply: Frame) throws in
            var reader = FrameReader(reply.payload)
            switch reply.kind {
            case .ok:
                var missing: Set<String> = []
                for _ in 0..<(try reader.uint32()) {
                    let index = Int(try reader.uint32())
                    guard index < symbols.count else { throw FrameReader.Malformed(what: "a symbol index out of range") }
                    missing.insert(symbols[index])
                }
                self.missingSymbols = missing
            case .error:
                let (kind, message) = try reader.error()
                guard Int(kind) == ASP_ERROR_LOAD else { throw self.unexpected(kind, message, hook: nil) }
                let reason = LibraryFile.problem(self.manifest.library) ?? PathName.decode(message)
                throw self.record(ActShareError(
                    .providerFailed, "provider \(self.manifest.id): cannot load library \(self.manifest.library): \(reason)",
                    at: self.manifest.libraryLocation))
            default:
                throw FrameReader.Malformed(what: "an unexpected reply")
            }
        }
        if answerLater {
            try post(frame, handle: answer)
        } else {
            try exchange(frame, hook: nil, event: nil, handle: answer)
        }
    }

    /// The user's directories, read once: a policy is made again for every request.
    private lazy var home = FileSystem.homeDirectory
    private lazy var xdg = XDGDirectories.fromEnvironment()

    /// What the sandbox of the running helper allows for `request`.
    private func policy(for request: ActivityRequest) -> SandboxPolicy {
        policy(for: request, privateDirectory: privateDirectory?.path)
    }

    /// What the sandbox of a helper with `privateDirectory` allows for `request`.
    private func policy(for request: ActivityRequest, privateDirectory: String?) -> SandboxPolicy {
        var policy = SandboxPolicy(
            manifest: manifest, request: request, privateDirectory: privateDirectory, limits: sandbox.limits, home: home, xdg: xdg)
        policy.required = sandbox.required
        return policy
    }

    /// Sends SANDBOX; its answer (which Landlock ABI the helper enforces) is read before
    /// LOAD's. Not waited for: a helper that cannot set up its sandbox says so and exits
    /// before it reads LOAD, so LOAD follows at once and a start costs one round trip.
    private func enter(_ policy: SandboxPolicy) throws {
        try post(policy.frame, handle: sandboxAnswer(policy))
    }

    /// Reads SANDBOX's answer for `policy`.
    private func sandboxAnswer(_ policy: SandboxPolicy) -> (Frame) throws -> Void {
        { reply in
            var reader = FrameReader(reply.payload)
            switch reply.kind {
            case .ok:
                let abi = try reader.uint32()
                self.landlockABI = abi
                if abi == 0 { SandboxSettings.warnUnsandboxedOnce() }
                if Int(try reader.byte()) & ASP_SANDBOX_CAPPED_TEMPORARY == 0 && policy.privateDirectory != nil {
                    self.trace?("provider \(self.manifest.id): temporary files not capped: this system allows no user namespace")
                }
            case .error:
                let (kind, message) = try reader.error()
                let what: String
                switch Int(kind) {
                case ASP_ERROR_NO_LANDLOCK: what = "not run: this kernel has no Landlock to sandbox it, and config 'sandbox: required'"
                case ASP_ERROR_SANDBOX: what = "its sandbox could not be set up: \(PathName.decode(message))"
                default: throw self.unexpected(kind, message, hook: nil)
                }
                throw self.record(ActShareError(.providerFailed, "provider \(self.manifest.id): \(what)", at: self.manifest.libraryLocation))
            default:
                throw FrameReader.Malformed(what: "an unexpected reply")
            }
        }
    }

    func begin(_ request: ActivityRequest, phase: HookPhase) throws {
        // Options can change what the sandbox allows (the output directory), and so do the
        // hooks (a private TMPDIR for prepare and perform): a request that needs another
        // sandbox gets a new helper, as a sandbox only ever narrows.
        if fault == nil, let policy, self.phase != phase || self.policy(for: request) != policy {
            try settle()  // what this helper was sent is answered first
            discardHelper()
            try start(for: request, phase: phase)
        }
        // Not awaited here: the reply is read before the next call's (see `exchange`).
        try post(.request(request)) { reply in
            var reader = FrameReader(reply.payload)
            switch reply.kind {
            case .ok: return
            case .error:
                let (kind, message) = try reader.error()
                throw self.unexpected(kind, message, hook: nil)
            default: throw FrameReader.Malformed(what: "an unexpected reply")
            }
        }
    }

    func call(_ hook: HookDeclaration, item: Int, event: (SessionEvent) -> Bool) throws -> HookReturnValue {
        var result: Result<HookReturnValue, any Error>?
        try withoutActuallyEscaping(event) { event in
            try post(hook, item: item, event: event) { result = $0 }
            try settle()
        }
        guard let result else { preconditionFailure("a call settled without its answer") }
        return try result.get()
    }

    func post(_ hook: HookDeclaration, item: Int, event: @escaping (SessionEvent) -> Bool,
              done: @escaping (Result<HookReturnValue, any Error>) -> Void) throws {
        try post(Frame.call(hook, item: item), hook: hook, event: event) { reply in
            var reader = FrameReader(reply.payload)
            switch reply.kind {
            case .done:
                done(.success(HookReturnValue(raw: try reader.uint64(), string: try reader.optionalBytes())))
            case .error:
                let (kind, message) = try reader.error()
                let error = self.unexpected(kind, message, hook: hook)
                // Recorded, the helper is gone and the rest unanswered; else only this call failed.
                if self.fault != nil { throw error }
                done(.failure(error))
            default:
                throw FrameReader.Malformed(what: "an unexpected reply")
            }
        }
    }

    // MARK: Frames

    /// A frame larger than the helper takes (``ASP_MAX_FRAME``) is said as what it is,
    /// before it is sent: too many items (their paths, or the sandbox's rules for them).
    private func checkSize(_ frame: Frame) throws {
        guard frame.payload.count >= Int(ASP_MAX_FRAME) - 1 else { return }
        let what = frame.kind == .sandbox ? "the rules of its sandbox for them" : "their names and paths"
        throw record(ActShareError(
            .badInput,
            "provider \(manifest.id): too many items to give it at once: \(what) take \(frame.payload.count >> 20) MiB, over the \(ASP_MAX_FRAME >> 20) MiB its helper takes; share fewer at a time, or their folder",
            at: manifest.libraryLocation))
    }

    /// A frame sent whose reply is still to be read: what reads it, the hook it calls (for
    /// what is said if the helper fails meanwhile), and where the call's callbacks go.
    private struct Pending {
        var handle: (Frame) throws -> Void
        var hook: HookDeclaration? = nil
        var event: ((SessionEvent) -> Bool)? = nil
        /// When it was sent (CLOCK_MONOTONIC nanoseconds): a call's time limit runs from then
        /// if it is the first the helper has to answer.
        var sent = ProviderProcess.now()
    }

    /// Frames sent whose replies are still to be read, in order. REQUEST, and LOAD and
    /// CALL when asked, are sent without waiting, so calls cost one round trip together.
    private var unanswered: [Pending] = []
    /// The bytes sent since a reply was last waited for.
    private var unansweredBytes = 0
    /// The most bytes sent ahead of the replies: a pipe holds at least a page, and a helper
    /// blocked writing replies no one reads would not read the rest (each would wait for
    /// the other). Past this, the replies are read first.
    static let bytesAhead = 4096

    private func post(_ frame: Frame, hook: HookDeclaration? = nil, event: ((SessionEvent) -> Bool)? = nil,
                      handle: @escaping (Frame) throws -> Void) throws {
        if let fault { throw fault }
        try checkSize(frame)
        let size = 4 + 1 + frame.payload.count
        if !unanswered.isEmpty && unansweredBytes + size > Self.bytesAhead { try settle() }
        guard let process else { preconditionFailure("a frame before load") }
        do {
            try process.send(frame)
        } catch let fault as ProviderProcess.Fault {
            throw record(failure(hook, fault.description))
        }
        unansweredBytes += size
        unanswered.append(Pending(handle: handle, hook: hook, event: event))
    }

    /// Sends `frame` and reads replies until every frame sent has its reply.
    private func exchange(_ frame: Frame, hook: HookDeclaration?, event: ((SessionEvent) -> Bool)?,
                          handle: @escaping (Frame) throws -> Void) throws {
        try post(frame, hook: hook, event: event, handle: handle)
        try settle()
    }

    /// Hands replies to their frames' handlers, in order, until none is left, passing
    /// callbacks to the call they belong to (the first unanswered). Each call must end
    /// within the provider's time limit from when it was sent or the one before it ended;
    /// once it reports, within the idle limit of its last report. Faults end the helper
    /// and are remembered; what was not answered then is dropped.
    func settle() throws {
        if let fault { throw fault }
        unansweredBytes = 0
        guard let process, let first = unanswered.first else { return }
        let limit = limits.timeoutMilliseconds
        // From when the first was sent: the helper has worked on it since, while actshare
        // sent the other helpers theirs and read their answers.
        var deadline = first.sent + UInt64(limit) * 1_000_000
        var waited = HookLimits.words(limit)
        var cancelling = false
        // The hook a failure is said of: the next call's (REQUEST and LOAD go with one).
        var hook: HookDeclaration? { unanswered.first { $0.hook != nil }?.hook }
        do {
            while !unanswered.isEmpty {
                let reply = try process.receive(deadline: {
                    if !cancelling && cancelled.pointee != 0 {
                        // The user cancelled: tell the provider, and give it a grace period.
                        cancelling = true
                        process.requestCancel()
                        deadline = min(deadline, ProviderProcess.now() + Self.cancellationGrace)
                    }
                    return deadline
                }, timeout: waited)
                var reader = FrameReader(reply.payload)
                let callback: SessionEvent?
                switch reply.kind {
                case .progress: callback = .progress(Double(bitPattern: try reader.uint64()))
                case .log: callback = .log(level: Int32(try reader.byte()), message: try reader.bytes())
                case .item:
                    callback = .item(kind: Int32(try reader.byte()), value: try reader.bytes(), contentType: try reader.optionalBytes())
                case .setError: callback = .setError(try reader.bytes())
                case .decline: callback = .declined(try reader.bytes())
                case .target:
                    callback = .target(kind: Int32(try reader.byte()), id: try reader.bytes(), title: try reader.bytes(),
                                       subtitle: try reader.optionalBytes(), image: try reader.optionalBytes())
                case .refused: callback = .refused(what: Int32(try reader.byte()), subject: try reader.bytes())
                default: callback = nil
                }
                guard let callback else {
                    let pending = unanswered.removeFirst()
                    do {
                        try pending.handle(reply)
                    } catch {
                        unanswered.insert(pending, at: 0)  // what a failure below is said of
                        throw error
                    }
                    if pending.hook != nil && !cancelling {
                        // The next call's time starts now.
                        deadline = ProviderProcess.now() + UInt64(limit) * 1_000_000
                        waited = HookLimits.words(limit)
                    }
                    continue
                }
                guard let event = unanswered[0].event else { throw FrameReader.Malformed(what: "a callback outside a call") }
                let accepted = event(callback)
                if case .item = callback {
                    try process.send(.answer(accepted: accepted))
                }
                // A sign of life: from now on the idle limit applies.
                if !cancelling {
                    deadline = ProviderProcess.now() + UInt64(limits.idleMilliseconds) * 1_000_000
                    waited = HookLimits.words(limits.idleMilliseconds) + " since its last report"
                }
            }
        } catch let fault as ProviderProcess.Fault {
            let hook = hook
            unanswered = []
            if cancelling { throw HookCancelled() }
            throw record(failure(hook, fault.description))
        } catch let malformed as FrameReader.Malformed {
            let hook = hook
            unanswered = []
            process.stop()
            throw record(failure(hook, "sent \(malformed.what) (the pipe is corrupt), and was stopped"))
        } catch {
            unanswered = []
            throw error
        }
    }

    // MARK: Messages

    /// An ERROR frame that is not the provider's doing: the helper and actshare disagree.
    private func unexpected(_ kind: Int32, _ message: [UInt8], hook: HookDeclaration?) -> ActShareError {
        let text = PathName.decode(message)
        switch Int(kind) {
        case ASP_ERROR_SYMBOL:
            return symbolMissing(hook, text)
        case ASP_ERROR_TOO_LARGE:
            return ActShareError(.providerFailed, "provider \(manifest.id): \(hook?.role.rawValue ?? "a") hook \(HookReturnValue.tooLarge(text))", at: hook?.location ?? manifest.libraryLocation)
        case ASP_ERROR_CALL:
            return ActShareError(.providerFailed, "provider \(manifest.id): \(hook?.role.rawValue ?? "a") hook could not be called: \(text)", at: hook?.location ?? manifest.libraryLocation)
        default:
            return record(failure(hook, "refused a frame (error \(kind): \(text)); actshare and \(helper) do not match"))
        }
    }

    private func failure(_ hook: HookDeclaration?, _ what: String) -> ActShareError {
        let subject = hook.map { "\($0.role.rawValue) hook" } ?? "provider host"
        return ActShareError(.providerFailed, "provider \(manifest.id): \(subject) \(what)", at: hook?.location ?? manifest.libraryLocation)
    }

    private func symbolMissing(_ hook: HookDeclaration?, _ symbol: String) -> ActShareError {
        ActShareError(
            .providerFailed,
            "provider \(manifest.id): \(hook?.role.rawValue ?? "a") hook symbol '\(symbol)' is not in \(FileSystem.baseName(manifest.library))",
            at: hook?.location ?? manifest.libraryLocation)
    }

    /// Remembers a fault that ended the helper (or kept it from starting): every later
    /// call fails with the same message.
    private func record(_ error: ActShareError) -> ActShareError {
        fault = error
        process?.stop()
        return error
    }
}
