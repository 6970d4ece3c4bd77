import ActShareCore

/// The hook sequence of ``ProviderBackend``, written once over either transport.
///
/// Everything that decides an outcome lives here, so a provider behaves the same in
/// process and in its helper: which calls are made (once, or once per item), how
/// per-item answers combine, prepare → perform, which returned items are kept (and why
/// one is dropped), what a return value means (and that `42` is not a status), and how
/// text that is not UTF-8 is treated (log and error messages keep their bytes, shown
/// `\xE9`; a returned text that is not UTF-8 is dropped).
final class HookRunner: ProviderBackend {
    let manifest: ProviderManifest
    private let transport: any HookTransport
    private let cancelled: UnsafeMutablePointer<Int32>
    /// Where calls and dropped items are explained, if asked.
    var trace: Trace?
    /// The symbols the library lacks, once it is loaded.
    private var missing: Set<String>?
    /// Whether the library was asked to load (its answer may still be to come).
    private var loadSent = false
    /// Why calls posted were not answered (the helper's fault), once one was not.
    private var unanswered: (any Error)?

    /// The answers of one activity's posted can-perform calls, filled in as they are read.
    private final class PostedCalls {
        var results: [Result<HookReturnValue, any Error>?]
        var said: [String?]
        /// The targets offered, checked, over all the calls (an id offered twice counts once).
        var targets: [ActivityTarget] = []
        /// Targets offered by each call, counted past the most kept.
        var offered: [Int]
        var warnings: [String] = []
        init(count: Int) {
            results = Array(repeating: nil, count: count)
            said = Array(repeating: nil, count: count)
            offered = Array(repeating: 0, count: count)
        }

        /// Takes one target a call offered: whether it was within the most a call offers.
        func offer(_ event: SessionEvent, slot: Int, provider: String, activity: String) -> Bool {
            guard case .target(let kind, let id, let title, let subtitle, let image) = event else { return false }
            offered[slot] += 1
            guard offered[slot] <= OfferedTarget.maximum else {
                if offered[slot] == OfferedTarget.maximum + 1 {
                    warnings.append("provider \(provider): \(activity) offered more than \(OfferedTarget.maximum) targets; the first \(OfferedTarget.maximum) are kept")
                }
                return false
            }
            switch OfferedTarget.make(kind: kind, id: id, title: title, subtitle: subtitle, image: image) {
            case .success(let target):
                if targets.contains(where: { $0.id == target.id }) {
                    if !targets.contains(target) {
                        warnings.append("provider \(provider): \(activity) offered the target '\(target.id)' twice; the first is kept")
                    }
                } else {
                    targets.append(target)
                }
            case .failure(let refusal):
                warnings.append("provider \(provider): \(activity) offered a target ('\(refusal.id)') that is left out: \(refusal.reason)")
            }
            return true
        }
    }

    init(manifest: ProviderManifest, transport: any HookTransport, cancelled: UnsafeMutablePointer<Int32>, trace: Trace?) {
        self.manifest = manifest
        self.transport = transport
        self.cancelled = cancelled
        self.trace = trace
    }

    /// Starts the transport's helper ahead of the first call
    /// (``HookTransport/prestart(_:concurrently:)``).
    func prestart(_ request: ActivityRequest, concurrently: Bool) {
        if missing == nil { transport.prestart(request, concurrently: concurrently) }
    }

    /// Starts the helper that prepare and perform will run in, while can-perform runs
    /// (``HookTransport/prestartActing(_:)``).
    func prestartActing(_ request: ActivityRequest) {
        transport.prestartActing(request)
    }

    func canPerform(_ activity: ActivityDeclaration, request: ActivityRequest) throws -> CanPerformAnswer {
        let answer = try postCanPerform(activity, request: request)
        settle()
        return try answer()
    }

    func postCanPerform(_ activity: ActivityDeclaration, request: ActivityRequest) throws -> () throws -> CanPerformAnswer {
        guard let hook = activity.hooks.canPerform else { return { CanPerformAnswer(true) } }
        let calls = indices(hook, request)
        let answers = PostedCalls(count: calls.count)
        do {
            // The library's answer may come with the first call's: then the other hooks are
            // checked after it.
            let checked = try ready(activity, request, .checking, answerLater: true)
            try transport.begin(request, phase: .checking)
            for (slot, index) in calls.enumerated() {
                try transport.post(hook, item: index, event: { [manifest] event in
                    switch event {
                    case .declined(let words):
                        answers.said[slot] = Self.text(words)
                        return false
                    case .target:
                        return answers.offer(event, slot: slot, provider: manifest.id, activity: activity.type)
                    default:
                        return false
                    }
                }, done: { answers.results[slot] = $0 })
            }
            return { [self] in
                if !checked { takeLoadAnswer() }
                var verdicts: [Bool] = []
                var reason: String?
                for (slot, index) in calls.enumerated() {
                    guard let result = answers.results[slot] else { throw unanswered ?? HookCancelled() }
                    let value = try result.get()
                    let answer = HookResult.verdict(value.raw, returns: hook.returns)
                    let said = answers.said[slot]
                    // Said with a yes, it is a note for this trace alone (where the activity would go).
                    let why = said.map { " (\($0))" } ?? ""
                    trace?("\(activity.type): can-perform \(hook.symbol)\(Self.naming(index, request)) answered \(HookResult.describe(value.raw, returns: hook.returns, role: hook.role))\(why)")
                    if !answer, let said { reason = said }
                    verdicts.append(answer)
                }
                if !checked { try ready(activity, request, .checking) }
                for target in answers.targets {
                    trace?("\(activity.type): offers the target '\(target.id)' (\(target.kind.rawValue)): \(target.title)")
                }
                for warning in answers.warnings { trace?("\(activity.type): \(warning)") }
                return CanPerformAnswer(activity.accepts.match.combine(verdicts), reason: reason, targets: answers.targets, warnings: answers.warnings)
            }
        } catch {
            // What ended the helper also leaves the calls posted before unanswered.
            unanswered = error
            throw error
        }
    }

    func settle() {
        do {
            try transport.settle()
        } catch {
            unanswered = error
        }
    }

    func perform(_ activity: ActivityDeclaration, request: ActivityRequest, observer: (any SessionObserver)?) throws -> PerformOutcome {
        try ready(activity, request, .acting)
        var outcome = PerformOutcome(status: .done)
        do {
            try transport.begin(request, phase: .acting)
            hooks: for hook in [activity.hooks.prepare, activity.hooks.perform].compactMap({ $0 }) {
                for index in indices(hook, request) {
                    let value = try transport.call(hook, item: index) { event in
                        handle(event, activity: activity, outcome: &outcome, observer: observer)
                    }
                    var (status, problem) = HookResult.status(value.raw, returns: hook.returns, returnedString: value.string != nil)
                    if let bytes = value.string {
                        if let text = String(validatingUTF8Bytes: bytes) {
                            outcome.returnedItems.append(.text(text))
                        } else {
                            (status, problem) = (.failed, "returned text that is not UTF-8")
                        }
                    }
                    trace?("\(activity.type): \(hook.role.rawValue) \(hook.symbol)\(Self.naming(index, request)) \(problem ?? "returned " + HookResult.describe(value.raw, returns: hook.returns, role: hook.role))")
                    if let problem {
                        let said = outcome.errorMessage.map { " (it said: \($0))" } ?? ""
                        outcome.errorMessage = "the \(hook.role.rawValue) hook \(problem)\(said)"
                    }
                    outcome.status = status
                    if status != .done { break hooks }
                }
            }
        } catch is HookCancelled {
            outcome.status = .cancelled
        }
        // Files made in a helper's private folder go when it ends: placed or said.
        if outcome.status == .done, let temporary = transport.temporaryDirectory {
            ReturnedFiles.settle(&outcome, temporary: temporary, besideItems: manifest.permissions.write.contains(.besideItems),
                                 request: request, trace: trace)
        }
        // What the sandbox refused is the likely reason of a failure: said first, with
        // what the provider said after it; after a success, it is a warning.
        if let refusal = outcome.refusals.first, outcome.status == .failed || outcome.status == .badInput {
            let said = outcome.errorMessage.map { " (it said: \($0))" } ?? ""
            outcome.errorMessage = refusal + said
        } else {
            for refusal in outcome.refusals { observer?.log(.warning, refusal, provider: manifest.id) }
        }
        if outcome.status == .done && cancelled.pointee != 0 { outcome.status = .cancelled }
        return outcome
    }

    func check() throws -> [ActShareError] {
        let missing = try loaded(ActivityRequest(activityType: "", items: []), .checking) ?? []
        return manifest.activities.flatMap { activity in
            activity.hooks.all.filter { missing.contains($0.symbol) }.map(symbolMissing)
        }
    }

    func missingHook(_ activity: ActivityDeclaration) -> ActShareError? {
        guard let missing = missing ?? transport.missingSymbols else { return nil }
        return activity.hooks.all.first { missing.contains($0.symbol) }.map(symbolMissing)
    }

    // MARK: Steps

    /// Loads the library (once, resolving every hook of every activity) and throws if
    /// one of `activity`'s hooks is missing: such an activity is never offered. False when
    /// the library's answer is still to come (`answerLater`, ``HookTransport``): then this
    /// is asked again after the next call.
    @discardableResult
    private func ready(_ activity: ActivityDeclaration, _ request: ActivityRequest, _ phase: HookPhase,
                       answerLater: Bool = false) throws -> Bool {
        guard let missing = try loaded(request, phase, answerLater: answerLater) else { return false }
        if let hook = activity.hooks.all.first(where: { missing.contains($0.symbol) }) { throw symbolMissing(hook) }
        return true
    }

    /// The symbols the library lacks; nil while the load's answer is still to come.
    private func loaded(_ request: ActivityRequest, _ phase: HookPhase, answerLater: Bool = false) throws -> Set<String>? {
        if let missing { return missing }
        if loadSent {
            takeLoadAnswer()
            return missing
        }
        var symbols: [String] = []
        for activity in manifest.activities {
            for hook in activity.hooks.all where !symbols.contains(hook.symbol) { symbols.append(hook.symbol) }
        }
        loadSent = true
        _ = try transport.load(symbols: symbols, request: request, phase: phase, answerLater: answerLater)
        takeLoadAnswer()
        return missing
    }

    /// Takes the load's answer once it has been read, and tells it when tracing.
    private func takeLoadAnswer() {
        guard missing == nil, let found = transport.missingSymbols else { return }
        trace?("provider \(manifest.id): loaded \(manifest.library)\(found.isEmpty ? "" : "; missing: \(found.sorted().joined(separator: ", "))")")
        missing = found
    }

    private func indices(_ hook: HookDeclaration, _ request: ActivityRequest) -> [Int] {
        hook.isPerItem ? Array(request.items.indices) : [-1]
    }

    /// A session callback, decided the same way in both modes.
    private func handle(_ event: SessionEvent, activity: ActivityDeclaration, outcome: inout PerformOutcome,
                        observer: (any SessionObserver)?) -> Bool {
        switch event {
        case .progress(let fraction):
            if fraction.isFinite { observer?.progress(min(max(fraction, 0), 1), activity: activity.type) }
            return true
        case .log(let level, let message):
            observer?.log(LogLevel(rawValue: level) ?? .info, Self.text(message), provider: manifest.id)
            return true
        case .item(let kind, let value, let contentType):
            switch ReturnedItem.make(kind: kind, value: value, contentType: contentType, temporary: transport.temporaryDirectory) {
            case .success(let item):
                outcome.returnedItems.append(item)
                return true
            case .failure(let dropped):
                outcome.droppedItems.append(dropped)
                trace?("\(activity.type): dropped a returned \(dropped.kind) item '\(dropped.value)': \(dropped.reason)")
                return false
            }
        case .setError(let message):
            outcome.errorMessage = Self.text(message)
            return true
        case .declined, .target:
            // Only a can-perform hook's word counts.
            return false
        case .refused(let what, let subject):
            let refusal = SandboxRefusal(what: what, subject: PathName.decode(subject)).description(provider: manifest.id)
            outcome.refusals.append(refusal)
            trace?("\(activity.type): \(refusal)")
            return true
        }
    }

    // MARK: Messages

    /// A log or error message: cut at `ASP_MAX_MESSAGE` bytes, and bytes that are not
    /// UTF-8 shown as `\xE9` (messages often name files, whose names need not be UTF-8).
    private static func text(_ message: [UInt8]) -> String {
        PathName.display(PathName.decode(message.prefix(HookReturnValue.maximumMessage)))
    }

    private static func naming(_ index: Int, _ request: ActivityRequest) -> String {
        guard index >= 0 else { return "" }
        return " for item \(index + 1) (\(request.items[index].displayName))"
    }

    private func symbolMissing(_ hook: HookDeclaration) -> ActShareError {
        ActShareError(
            .providerFailed,
            "provider \(manifest.id): \(hook.role.rawValue) hook symbol '\(hook.symbol)' is not in \(FileSystem.baseName(manifest.library))",
            at: hook.location)
    }
}
