import ActShareCore
import CActShareProtocol

/// How a hook call reaches a provider's code: the one thing the two isolation modes do
/// differently.
///
/// ``HookRunner`` runs the hook sequence (per-item calls, combining answers, prepare →
/// perform, returned items, statuses) once, over either transport:
/// ``InProcessTransport`` calls through libffi in this process, ``HelperTransport``
/// sends frames to `actshare-provider-host`, which makes the same libffi call there.
///
/// A transport passes what the provider hands it as raw bytes (``SessionEvent``) and
/// decides nothing about them: what is kept, dropped or repaired is the runner's
/// decision, so it is the same in both modes.
protocol HookTransport: AnyObject {
    /// Loads the provider's library, once, and returns those of `symbols` it lacks.
    /// `request` is the first the provider will see and `phase` the hooks it is loaded
    /// for: they decide what an isolated provider's sandbox allows. A library that cannot
    /// be loaded throws (``ActShareError``, `providerFailed`). With `answerLater`, a
    /// transport may send the load and return nil at once: its answer is then read before
    /// the next call's (a round trip to a helper saved), and a failure to load is that
    /// call's; ``missingSymbols`` has it from then on.
    func load(symbols: [String], request: ActivityRequest, phase: HookPhase, answerLater: Bool) throws -> Set<String>?

    /// What ``load(symbols:request:phase:answerLater:)`` found missing, once its answer has
    /// been read (nil before).
    var missingSymbols: Set<String>? { get }

    /// Starts ahead what the first `can-perform` call will need (a helper process and its
    /// sandbox), for `request` as it is known before the items are typed: a hint that
    /// calls will follow. `concurrently`: one of several started together. Failures are
    /// left to ``load(symbols:request:phase:)``.
    func prestart(_ request: ActivityRequest, concurrently: Bool)

    /// Starts ahead, while a `can-perform` call runs, what prepare and perform will need
    /// for `request` (their own helper and sandbox). A hint; failures are left to them.
    func prestartActing(_ request: ActivityRequest)

    /// Makes `request` the one the following calls, hooks of `phase`, see.
    func begin(_ request: ActivityRequest, phase: HookPhase) throws

    /// Calls `hook` once, for item `item` (-1: not per item), passing each session
    /// callback to `event` as it happens; `event` answers an ``SessionEvent/item`` with
    /// whether the item was accepted. Throws a fault, or ``HookCancelled`` when the user
    /// cancelled and the provider had to be stopped.
    func call(_ hook: HookDeclaration, item: Int, event: (SessionEvent) -> Bool) throws -> HookReturnValue

    /// Calls `hook` as ``call(_:item:event:)`` does, without waiting for its answer: `done`
    /// is given it (or the call's failure) when ``settle()`` reads it; in process, at once.
    /// Throws what keeps the call from being sent.
    func post(_ hook: HookDeclaration, item: Int, event: @escaping (SessionEvent) -> Bool,
              done: @escaping (Result<HookReturnValue, any Error>) -> Void) throws

    /// Reads the answers of the calls posted, in order. Throws a fault that ended the
    /// provider's helper, after which the calls not answered are not.
    func settle() throws

    /// The provider's private `$TMPDIR`, removed when its helper ends (nil in process,
    /// where the provider's files are where it put them).
    var temporaryDirectory: TemporaryDirectoryView? { get }
}

extension HookTransport {
    /// Nothing to start ahead: in this process, a library is opened when first called.
    func prestart(_ request: ActivityRequest, concurrently: Bool) {}
    func prestartActing(_ request: ActivityRequest) {}
}

/// A session callback, as the provider made it.
enum SessionEvent {
    /// `progress`: the fraction as given (not yet clamped).
    case progress(Double)
    /// `log`: the raw level and the message's bytes.
    case log(level: Int32, message: [UInt8])
    /// `return_item`: the raw kind, the value's bytes and the content type's.
    case item(kind: Int32, value: [UInt8], contentType: [UInt8]?)
    /// `set_error`: the message's bytes.
    case setError([UInt8])
    /// `actshare_decline`: why a can-perform hook answers no, its bytes.
    case declined([UInt8])
    /// `actshare_add_target`: a target a can-perform hook offers, its fields' bytes.
    case target(kind: Int32, id: [UInt8], title: [UInt8], subtitle: [UInt8]?, image: [UInt8]?)
    /// The sandbox refused the provider something (`ASP_REFUSED_*`), and its subject.
    case refused(what: Int32, subject: [UInt8])
}

/// What a hook call returned: the raw result (integers widened to 64 bits, a pointer's
/// address) and, for a `string` hook, the string's bytes, copied when it returned.
struct HookReturnValue {
    var raw: UInt64
    var string: [UInt8]?

    /// The longest string a `string` hook may return (`ASP_MAX_STRING`), in bytes.
    static let maximumString = Int(ASP_MAX_STRING)
    /// The longest log or error message kept (`ASP_MAX_MESSAGE`), in bytes.
    static let maximumMessage = Int(ASP_MAX_MESSAGE)

    /// What is said of a string over ``maximumString``: `length` in decimal.
    static func tooLarge(_ length: String) -> String {
        "returned \(length) bytes of text, more than the \(Int(ASP_MAX_FRAME) >> 20) MiB a reply may hold"
    }
}

/// Thrown when the user cancelled and the provider did not stop in time.
struct HookCancelled: Error {}
