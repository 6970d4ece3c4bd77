import NIOCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ``ClipboardService`` keeps: this device's offer and its bytes, the offer this
/// device's clipboard carries from another, when this device last copied, and the agent.
actor ClipboardBoard {
    /// This device's clipboard, offered: the bytes stay here until fetched or expired.
    struct Outgoing: Sendable {
        var offer: ClipboardOffer
        var bytes: [String: ByteBuffer]
        /// The pins of the devices that took the offer: only they may fetch it.
        var takenBy: [String: String] = [:]
        /// The files copied, for an offer of files.
        var files: [String]? = nil
        /// For files a provider copied (its restricted connection): its items, from which
        /// they are found again when fetched.
        var grants: ItemGrants? = nil
    }

    /// Another device's offer, which this device's clipboard carries.
    struct Incoming: Sendable {
        var offer: ClipboardOffer
        var entry: PairedDevices.Entry
        /// For an offer of files: their arrival here (started by the first paste).
        var files: Task<[String]?, Never>? = nil
    }

    private(set) var outgoing: Outgoing?
    private(set) var incoming: Incoming?
    /// When this device's own clipboard last changed (seconds since 1970): an offer made
    /// before it is older news and is not taken.
    private(set) var lastLocalChange: Double = 0
    private(set) var notice: String?
    private(set) var agent: ClipboardAgent?
    private(set) var display: String?
    private(set) var problem: String?
    private var pushWaiting = false
    private var pushed: AgentFrame?

    static func now() -> Double { Date().timeIntervalSince1970 }

    func attach(_ agent: ClipboardAgent?, display: String?, problem: String?) {
        self.agent = agent
        self.display = display
        self.problem = problem
    }

    /// The agent is ready and watches `display` ("Wayland display wayland-1", "X11 display :0").
    func watching(_ display: String?) {
        self.display = display
    }

    /// This device's clipboard changed: its offer (if any) is replaced; the old one is
    /// returned, to be withdrawn.
    func localChange(_ next: Outgoing?) -> Outgoing? {
        lastLocalChange = Self.now()
        notice = nil
        defer { outgoing = next }
        return outgoing
    }

    func taken(_ id: String, by entry: PairedDevices.Entry) {
        guard outgoing?.offer.id == id else { return }
        outgoing?.takenBy[entry.pin] = entry.name
    }

    /// The bytes of target `sha256` of this device's offer `id`, for the device `pin`.
    func bytes(offer id: String, sha256: String, for pin: String) -> ByteBuffer? {
        guard let outgoing, outgoing.offer.id == id, outgoing.offer.expires > Self.now(), outgoing.takenBy[pin] != nil else { return nil }
        return outgoing.bytes[sha256]
    }

    /// Takes another device's offer; the replaced offers are returned (this device's own,
    /// to be withdrawn: its clipboard no longer holds it).
    func adopt(_ incoming: Incoming) -> Outgoing? {
        self.incoming = incoming
        notice = nil
        defer { outgoing = nil }
        return outgoing
    }

    /// Drops the incoming offer `id` (withdrawn, expired, or the clipboard taken here);
    /// true if it was the one carried.
    func dropIncoming(_ id: String, from pin: String? = nil) -> Bool {
        guard let incoming, incoming.offer.id == id, pin == nil || incoming.entry.pin == pin else { return false }
        self.incoming = nil
        return true
    }

    func note(_ notice: String) { self.notice = notice }

    /// The files of this device's offer `id`, for the device `pin` that took it.
    func files(offer id: String, for pin: String) -> (paths: [String], grants: ItemGrants?)? {
        guard let outgoing, outgoing.offer.id == id, outgoing.offer.expires > Self.now(), outgoing.takenBy[pin] != nil,
              let files = outgoing.files else { return nil }
        return (files, outgoing.grants)
    }

    /// The arrival of the incoming offer `id`'s files: the one under way, or `start`ed now.
    func filesArrival(offer id: String, start: @Sendable () -> Task<[String]?, Never>) -> Task<[String]?, Never>? {
        guard incoming?.offer.id == id else { return nil }
        if let arriving = incoming?.files { return arriving }
        let arriving = start()
        incoming?.files = arriving
        return arriving
    }

    /// Offers past their time: this device's is forgotten; the id of another's is
    /// returned, for the agent to give the clipboard up.
    func expire() -> String? {
        let now = Self.now()
        if let outgoing, outgoing.offer.expires <= now { self.outgoing = nil }
        guard let incoming, incoming.offer.expires <= now else { return nil }
        self.incoming = nil
        return incoming.offer.id
    }

    /// A push is about to ask the agent for a reading: the next one is kept for it.
    func expectPush() {
        pushWaiting = true
        pushed = nil
    }

    func pushRead(_ frame: AgentFrame) {
        guard pushWaiting else { return }
        pushed = frame
        pushWaiting = false
    }

    /// The reading a push asked for, once it came (nil meanwhile).
    func takePushed() -> AgentFrame? {
        defer { pushed = nil }
        return pushed
    }
}
