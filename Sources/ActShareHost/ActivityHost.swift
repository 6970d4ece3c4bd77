import ActShareCore
import CActShareSystem
#if canImport(Glibc)
import Glibc
#endif

/// The host: finds the activities that can perform on some items and performs one.
///
/// This is the narrow front end the CLI (and any other front end) uses. It routes with
/// ``Router`` (static rules and exclusions, no code loaded), then asks the `can-perform`
/// hooks of the survivors through each provider's ``ProviderBackend``.
public final class ActivityHost {
    public let registry: ProviderRegistry
    public let config: Config
    private let libraries = LibraryCache()
    private var backends: [String: any ProviderBackend] = [:]
    /// Non-zero once the user cancelled (SIGINT or SIGTERM, see ``catchCancellationSignals()``).
    public let cancellationFlag: UnsafeMutablePointer<Int32>

    /// The `actshare-provider-host` executable that runs `isolation: process` providers.
    public let providerHost: String
    /// Where `--explain` writes why each activity was or was not offered and every hook
    /// call; nil (the default) traces nothing.
    public var trace: Trace?

    public init(registry: ProviderRegistry, config: Config, providerHost: String) {
        self.registry = registry
        self.config = config
        self.providerHost = providerHost
        cancellationFlag = cactshare_cancel_flag()
    }

    /// From now on Ctrl-C (SIGINT) and SIGTERM cancel the running activity instead of
    /// ending actshare: the provider sees `is_cancelled`, an isolated one that does not
    /// stop within the grace period is killed, and the result is "cancelled".
    public func catchCancellationSignals() {
        cactshare_catch_cancel_signals()
    }

    /// What ``offers(for:exclusions:recents:)`` found.
    public struct Offers: Sendable {
        /// The activities that can perform on the items, in offer order.
        public var offers: [Offer]
        /// One line for each fault of a `can-perform` hook (its activities are left out).
        public var diagnostics: [Diagnostic]
        /// The fault that left out each activity type, so `perform TYPE` can report it.
        public var faults: [String: ActShareError]
        /// The types the manifest's rules let through and their `can-perform` hook declined.
        public var declined: Set<String> = []
        /// Why, for those whose provider said (`actshare_decline`), by type.
        public var reasons: [String: String] = [:]
        /// The targets each offered activity's can-perform hook offered, by type, in the
        /// provider's order (none for most).
        public var targets: [String: [ActivityTarget]] = [:]
    }

    /// The activities that can perform on `items`, in offer order, and what went wrong
    /// with the `can-perform` hooks that could not be asked.
    public func offers(for items: [Item], exclusions: Exclusions, recents: [String]) -> Offers {
        let router = Router(registry: registry, exclusions: exclusions)
        var diagnostics: [Diagnostic] = []
        let candidates = router.candidates(for: items)
        if let trace {
            for route in registry.routes {
                if let reason = router.rejection(of: route, items: items) { trace("\(route.type): not offered: \(reason)") }
            }
        }
        // can-perform hooks: the isolated providers' first, sent without waiting (each
        // helper answers while actshare asks the next provider), then the in-process ones,
        // which run as they are asked; then the helpers' answers are read.
        var answers = [Result<CanPerformAnswer, ActShareError>?](repeating: nil, count: candidates.count)
        var byProvider: [String: [Int]] = [:]
        var providerOrder: [String] = []
        for (index, offer) in candidates.enumerated() where offer.hasCanPerform {
            if byProvider[offer.providerID] == nil { providerOrder.append(offer.providerID) }
            byProvider[offer.providerID, default: []].append(index)
        }
        let helperFirst = providerOrder.filter { id in
            guard let index = byProvider[id]?.first, let manifest = try? candidates[index].declaration().provider else { return false }
            return !runsInProcess(manifest)
        }
        let startsAHelper = Set(helperFirst)  // a set: 1,000 providers, not a million comparisons
        providerOrder = helperFirst + providerOrder.filter { !startsAHelper.contains($0) }
        var posted: [(index: Int, answer: () throws -> CanPerformAnswer)] = []
        var asked: [any ProviderBackend] = []
        for id in providerOrder {
            let indices = byProvider[id] ?? []
            do {
                let backend = try backend(forProviderOf: candidates[indices[0]])
                asked.append(backend)
                for index in indices {
                    do {
                        let offer = candidates[index]
                        let (provider, activity) = try offer.declaration()
                        let request = ActivityRequest(activityType: offer.type, items: items, options: Self.defaultOptions(config: config, provider, activity))
                        posted.append((index, try backend.postCanPerform(activity, request: request)))
                    } catch {
                        answers[index] = .failure(Self.fault(error, provider: id))
                    }
                }
            } catch {
                for index in indices { answers[index] = .failure(Self.fault(error, provider: id)) }
            }
        }
        for backend in asked { backend.settle() }
        for (index, answer) in posted {
            answers[index] = Result { try answer() }.mapError { Self.fault($0, provider: candidates[index].providerID) }
        }
        var offers: [Offer] = []
        var faults: [String: ActShareError] = [:]
        var reported: Set<String> = []
        var declined: Set<String> = []
        var reasons: [String: String] = [:]
        var targets: [String: [ActivityTarget]] = [:]
        for (index, offer) in candidates.enumerated() {
            // An activity without can-perform whose library loaded for another: its hooks
            // were resolved then, and one that lacks a hook is not offered either.
            if answers[index] == nil, let backend = backends[offer.providerID], let (_, activity) = try? offer.declaration(),
               let missing = backend.missingHook(activity) {
                answers[index] = .failure(missing)
            }
            switch answers[index] {
            case nil:
                offers.append(offer)
                trace?("\(offer.type): offered")
            case .success(let answer)? where answer.canPerform:
                offers.append(offer)
                trace?("\(offer.type): offered")
                if !answer.targets.isEmpty { targets[offer.type] = answer.targets }
                diagnostics += answer.warnings.map { Diagnostic(.warning, $0) }
            case .success(let answer)?:
                declined.insert(offer.type)
                reasons[offer.type] = answer.reason
                trace?("\(offer.type): not offered: its can-perform hook answered no\(answer.reason.map { ": \($0)" } ?? "")")
            case .failure(let error)?:
                trace?("\(offer.type): not offered: \(error.description)")
                faults[offer.type] = error
                // One line per fault, however many of the provider's activities it hit.
                if reported.insert(error.description).inserted { diagnostics.append(Diagnostic(error)) }
            }
        }
        return Offers(offers: Router.order(offers, pins: config.pin, recents: recents), diagnostics: diagnostics, faults: faults,
                      declined: declined, reasons: reasons, targets: targets)
    }

    /// The most helpers ``prestartHelpers(for:exclusions:)`` starts: one per processor, at
    /// most four. Started together, each costs actshare little (it does not wait for their
    /// exec: ``ProviderProcess``); each helper's exec and sandbox are work for the processors.
    static let prestartLimit = min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// Starts, before the items are typed, the helper of each isolated provider whose
    /// `can-perform` hook `items` may reach, with its sandbox, so that this overlaps typing
    /// and routing them. `items` are as located (``ItemReader/untypedItems(arguments:texts:)``):
    /// chosen by their number and kinds, and the exclusions, as their types are not known
    /// yet. A helper whose provider routing then leaves out has loaded no provider code
    /// (that waits for the first call) and ends with actshare. Not when tracing, so that
    /// `--explain` tells only of the providers the items reach.
    public func prestartHelpers(for items: [Item], exclusions: Exclusions) {
        guard trace == nil, !items.isEmpty else { return }
        let kinds = items.map(\.kind)
        var chosen: Set<String> = []
        var starts: [(runner: HookRunner, request: ActivityRequest)] = []
        for route in registry.routes where route.activity.hasCanPerform && !chosen.contains(route.providerID) {
            guard starts.count < Self.prestartLimit else { break }
            guard exclusions.reason(excluding: route.type, provider: route.providerID) == nil,
                  Router.mayAccept(route.accepts, kinds: kinds),
                  let (manifest, activity) = try? Offer(route: route, registry: registry).declaration(),
                  !runsInProcess(manifest), let runner = backend(for: manifest) as? HookRunner
            else { continue }
            chosen.insert(route.providerID)
            starts.append((runner, ActivityRequest(activityType: route.type, items: items, options: Self.defaultOptions(config: config, manifest, activity))))
        }
        // One helper starts fastest while actshare waits for its exec; of several, each
        // starts while actshare goes on to the next (docs/PACKAGING.md, "Taken").
        for start in starts { start.runner.prestart(start.request, concurrently: starts.count > 1) }
    }

    /// Starts, for `perform` of `type`, the helper its prepare and perform will run in
    /// (an isolated provider's, sandboxed for `items` and `options` over the defaults)
    /// while its can-perform hook runs in the helper made for that, so that the perform
    /// does not wait for it. Only for an activity with a can-perform hook (else one helper
    /// serves); not when tracing, so that `--explain` tells the helpers in their order.
    public func prestartPerform(of type: String, items: [Item], options: [(name: String, value: String)]) {
        guard trace == nil, !items.isEmpty, let (manifest, activity) = registry.activity(ofType: type),
              activity.hooks.canPerform != nil, !runsInProcess(manifest), let runner = backend(for: manifest) as? HookRunner
        else { return }
        var merged = Self.defaultOptions(config: config, manifest, activity).filter { option in !options.contains { $0.name == option.name } }
        merged += options
        runner.prestartActing(ActivityRequest(activityType: type, items: items, options: merged))
    }

    /// Performs `offer` on the request's items and reports the result.
    public func perform(_ offer: Offer, request: ActivityRequest, observer: (any SessionObserver)?) -> ActivityResult {
        let type = offer.type
        do {
            let (provider, activity) = try offer.declaration()
            let outcome = try backend(for: provider).perform(activity, request: request, observer: observer)
            let dropped = outcome.droppedItems
            switch outcome.status {
            case .done:
                return ActivityResult(activity: type, status: .completed, returnedItems: outcome.returnedItems, droppedItems: dropped)
            case .cancelled:
                return ActivityResult(activity: type, status: .cancelled, returnedItems: outcome.returnedItems, droppedItems: dropped)
            case .failed, .badInput:
                let message = outcome.errorMessage ?? "the activity failed without saying why"
                return ActivityResult(
                    activity: type, status: outcome.status == .badInput ? .badInput : .failed,
                    returnedItems: outcome.returnedItems, droppedItems: dropped, error: "\(type): \(message)")
            }
        } catch {
            // Thrown: the provider broke (crashed, hung, lacks a hook), not a failure it reported.
            var result = ActivityResult(
                activity: type, status: .failed, error: (error as? ActShareError)?.description ?? "\(type): \(error)")
            result.isFault = true
            return result
        }
    }

    /// Whether `manifest`'s provider runs in this process, unsandboxed: a built-in that
    /// asks for it (the decoder refuses it in other manifests), a provider the user named
    /// in config `in-process`, or any provider when ACTSHARE_ISOLATION=in-process asks
    /// (to run one under gdb or valgrind). ACTSHARE_ISOLATION=process runs every
    /// provider, built-ins too, in its sandboxed helper.
    public func runsInProcess(_ manifest: ProviderManifest) -> Bool {
        switch Environment.value("ACTSHARE_ISOLATION") {
        case "in-process": return true
        case "process": return false
        default: return manifest.isolation == .inProcess || config.inProcess.contains(manifest.id)
        }
    }

    /// The Landlock ABI this kernel offers to sandbox providers (0: none).
    public static var landlockABI: Int { Int(cactshare_landlock_abi()) }

    /// Loads `manifest`'s library and resolves every hook: throws if it does not load,
    /// and returns an error for each hook whose symbol it lacks.
    public func check(_ manifest: ProviderManifest) throws -> [ActShareError] {
        try backend(for: manifest).check()
    }

    /// Option values from the config and the declared defaults, for can-perform calls.
    static func defaultOptions(config: Config, _ provider: ProviderManifest, _ activity: ActivityDeclaration) -> [(name: String, value: String)] {
        let configured = config.providerOptions[provider.id] ?? [:]
        return activity.options.compactMap { option in
            guard let value = configured[option.name]?.value ?? option.defaultValue else { return nil }
            return (option.name, value)
        }
    }

    /// `error` as the fault of a provider's can-perform hook.
    private static func fault(_ error: any Error, provider: String) -> ActShareError {
        error as? ActShareError ?? ActShareError(.providerFailed, "provider \(provider): \(error)")
    }

    private func backend(forProviderOf offer: Offer) throws -> any ProviderBackend {
        try backend(for: offer.declaration().provider)
    }

    /// The back end of a provider, made once: in this process for `isolation: in-process`,
    /// in a helper process otherwise.
    private func backend(for manifest: ProviderManifest) -> any ProviderBackend {
        if let backend = backends[manifest.id] { return backend }
        let transport: any HookTransport
        let inProcess = runsInProcess(manifest)
        switch inProcess ? Isolation.inProcess : .process {
        case .inProcess:
            transport = InProcessTransport(manifest: manifest, libraries: libraries, cancelled: cancellationFlag)
        case .process:
            let timeout = config.providerTimeouts[manifest.id] ?? manifest.timeoutMilliseconds
            let idle = config.providerTimeouts[manifest.id] ?? manifest.idleTimeoutMilliseconds
            transport = HelperTransport(
                manifest: manifest, helper: providerHost, limits: HookLimits(timeoutMilliseconds: timeout, idleMilliseconds: idle),
                sandbox: SandboxSettings(required: config.sandboxRequired, limits: config.limits), cancelled: cancellationFlag,
                trace: trace)
        }
        trace?("provider \(manifest.id): \(manifest.file), library \(manifest.library), \(inProcess ? "in this process, not sandboxed" : "in \(providerHost), sandboxed: \(manifest.permissions.summary)")")
        let backend = HookRunner(manifest: manifest, transport: transport, cancelled: cancellationFlag, trace: trace)
        backends[manifest.id] = backend
        return backend
    }
}
