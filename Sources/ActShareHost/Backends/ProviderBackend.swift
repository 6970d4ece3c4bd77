import ActShareCore

/// The code behind one provider, as the host calls it.
///
/// This is the contract every back end keeps, whether it runs the library in the host
/// process or in a helper process:
///
/// - It loads nothing when created. The library is opened on the first call that needs
///   it, and at most once; so a provider whose activities the static rules or the
///   exclusions removed never has its code loaded. When it loads, every hook symbol of
///   every activity is resolved: an activity with a missing hook is never offered.
/// - Each hook is called through libffi (`cas_invoke` of CActShareCall) with the
///   signature its declaration gives (``HookDeclaration``): the standard signatures of
///   `provider.h`, or a plain C function bound declaratively. A hook with `item.*`
///   arguments is called once per item, in item order.
/// - ``canPerform(_:request:)`` answers true for an activity without a `can-perform`
///   hook. Per-item answers combine by the activity's `match` (all or any).
/// - ``perform(_:request:observer:)`` calls `prepare` (if declared) and then `perform`,
///   stopping at the first call that does not succeed, and reports the outcome with
///   the items the provider returned, those refused (with the reason: the provider's
///   `return_item` returned -1 for them) and the message it set with `set_error`. A
///   status a hook may not return is a failure that says so (`returned 42, which is
///   not a status`).
/// - Faults (a library that does not load, a missing symbol; for an isolated provider
///   also a crash, an exit, a hang past its time limit, a corrupt pipe) are thrown as
///   ``ActShareError`` with code `providerFailed`, naming the provider, the hook and
///   the manifest position at fault. A failure the provider reports is not a fault:
///   it is an outcome with status `failed`; a cancellation is status `cancelled`.
/// - It may be used from one thread at a time, not necessarily the same one.
public protocol ProviderBackend: AnyObject {
    /// The provider this back end runs.
    var manifest: ProviderManifest { get }

    /// Asks the activity's `can-perform` hook whether it can perform on the request's
    /// items, and why not if it says so.
    func canPerform(_ activity: ActivityDeclaration, request: ActivityRequest) throws -> CanPerformAnswer

    /// Asks as ``canPerform(_:request:)`` does, without waiting for the answer: the
    /// returned closure gives it once ``settle()`` has run. A provider in a helper answers
    /// while actshare asks others (in process, the hook runs at once).
    func postCanPerform(_ activity: ActivityDeclaration, request: ActivityRequest) throws -> () throws -> CanPerformAnswer

    /// Reads the answers of the calls ``postCanPerform(_:request:)`` sent.
    func settle()

    /// Runs the activity's `prepare` and `perform` hooks.
    func perform(_ activity: ActivityDeclaration, request: ActivityRequest, observer: (any SessionObserver)?) throws -> PerformOutcome

    /// Loads the library and resolves every declared hook, for `providers check`: throws
    /// if the library does not load, and returns one error per hook whose symbol it lacks.
    func check() throws -> [ActShareError]

    /// The fault of an activity one of whose hooks the library lacks, if the library is
    /// loaded already (it is not loaded for this).
    func missingHook(_ activity: ActivityDeclaration) -> ActShareError?
}

/// How a perform ended, as the provider reported it.
public struct PerformOutcome: Sendable {
    public enum Status: Sendable, Equatable {
        case done
        case failed
        case cancelled
        /// The items or options cannot be used as given; nothing was done.
        case badInput
    }

    public var status: Status
    public var returnedItems: [Item]
    /// Items the provider returned that were refused, with the reason.
    public var droppedItems: [DroppedItem] = []
    /// The provider's `set_error` message, if it set one.
    public var errorMessage: String?
    /// What the sandbox refused the provider, in words.
    public var refusals: [String] = []

    public init(status: Status, returnedItems: [Item] = [], errorMessage: String? = nil) {
        self.status = status
        self.returnedItems = returnedItems
        self.errorMessage = errorMessage
    }
}
