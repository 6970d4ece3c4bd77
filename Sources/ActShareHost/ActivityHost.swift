import ActShareCore

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
    /// Set to non-zero to tell running providers that the user cancelled.
    public let cancellationFlag: UnsafeMutablePointer<Int32>

    public init(registry: ProviderRegistry, config: Config) {
        self.registry = registry
        self.config = config
        cancellationFlag = .allocate(capacity: 1)
        cancellationFlag.pointee = 0
    }

    deinit {
        cancellationFlag.deallocate()
    }

    /// The activities that can perform on `items`, in offer order, and a diagnostic for
    /// each provider whose `can-perform` hook could not be called (its activity is left out).
    public func offers(for items: [Item], exclusions: Exclusions, recents: [String]) -> (offers: [Offer], diagnostics: [Diagnostic]) {
        let router = Router(registry: registry, exclusions: exclusions)
        var offers: [Offer] = []
        var diagnostics: [Diagnostic] = []
        for offer in router.candidates(for: items) {
            guard offer.hasCanPerform else {
                offers.append(offer)
                continue
            }
            do {
                let (provider, activity) = try offer.declaration()
                let request = ActivityRequest(activityType: offer.type, items: items, options: defaultOptions(for: provider, activity))
                if try backend(for: provider).canPerform(activity, request: request) {
                    offers.append(offer)
                }
            } catch let error as ActShareError {
                diagnostics.append(Diagnostic(error))
            } catch {
                diagnostics.append(Diagnostic(.error, "provider \(offer.providerID): \(error)"))
            }
        }
        return (Router.order(offers, pins: config.pin, recents: recents), diagnostics)
    }

    /// Performs `offer` on the request's items and reports the result.
    public func perform(_ offer: Offer, request: ActivityRequest, observer: (any SessionObserver)?) -> ActivityResult {
        let type = offer.type
        do {
            let (provider, activity) = try offer.declaration()
            let outcome = try backend(for: provider).perform(activity, request: request, observer: observer)
            switch outcome.status {
            case .done:
                return ActivityResult(activity: type, status: .completed, returnedItems: outcome.returnedItems)
            case .cancelled:
                return ActivityResult(activity: type, status: .cancelled, returnedItems: outcome.returnedItems)
            case .failed:
                let message = outcome.errorMessage ?? "the activity failed without saying why"
                return ActivityResult(activity: type, status: .failed, returnedItems: outcome.returnedItems, error: "\(type): \(message)")
            }
        } catch let error as ActShareError {
            return ActivityResult(activity: type, status: .failed, error: error.description)
        } catch {
            return ActivityResult(activity: type, status: .failed, error: "\(type): \(error)")
        }
    }

    /// Loads `manifest`'s library and resolves every hook; throws what is wrong.
    public func check(_ manifest: ProviderManifest) throws {
        try backend(for: manifest).check()
    }

    /// Option values from the config and the declared defaults, for can-perform calls.
    public func defaultOptions(for provider: ProviderManifest, _ activity: ActivityDeclaration) -> [(name: String, value: String)] {
        let configured = config.providerOptions[provider.id] ?? [:]
        return activity.options.compactMap { option in
            guard let value = configured[option.name]?.value ?? option.defaultValue else { return nil }
            return (option.name, value)
        }
    }

    private func backend(for manifest: ProviderManifest) -> any ProviderBackend {
        if let backend = backends[manifest.id] { return backend }
        // Until helper processes exist, `isolation: process` also runs in-process.
        let backend = InProcessBackend(manifest: manifest, libraries: libraries, cancelled: cancellationFlag)
        backends[manifest.id] = backend
        return backend
    }
}
