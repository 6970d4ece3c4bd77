import ActShareCore

/// A request to the local daemon over its control socket: one JSON object per line.
public struct ControlRequest: Codable, Sendable {
    public enum Operation: String, Codable, Sendable {
        case becomeCurrent = "become-current", invalidate, list
        case pair, pairWait = "pair-wait", confirm, devices, unpair
        case handoffList = "handoff-list", fetch, continued, send
        case status
        /// Files and folders to paired devices (`paths`, `devices` or `all`), and what
        /// arrived here.
        case sendFiles = "send-files", received
        /// The sends waiting for their devices; `queue-cancel` drops one (`id`).
        case queue, queueCancel = "queue-cancel"
        /// The devices on the local network (`timeout`: seconds to wait for answers).
        case discover
        /// An app's own connection (ActShareKit): the activity needs saving before it is
        /// next fetched; and the app's answer to a `will-save` event.
        case needsSave = "needs-save", update
        /// From actshare only: this connection may from now on only hand off `paths` (and
        /// what is beneath them), URLs and text to paired devices; it is given so to a
        /// sandboxed provider that declares `handoff: true`.
        case restrict
        /// Universal Clipboard: offer this device's clipboard now (to `devices`, or every
        /// paired device) — or, with `text` or `paths`, that instead — and what is offered
        /// both ways.
        case clipboardPush = "clipboard-push", clipboardStatus = "clipboard-status"
        /// LocalSend devices asking to send files here; the user's answer to one (`id`;
        /// `always`: accept this device's transfers from now on without asking).
        case requests, accept, decline
        /// Quick Share: this device is advertised to phones nearby (visible to everyone)
        /// while this connection stays open; the answer comes at once, with the name.
        case visible
        /// Quick Share, the QR way: files (`paths`) or one text or link (`text`) to the
        /// phone that scans the code the first event gives (`{"event":"qr","url"}`), waited
        /// for up to 2 minutes; a `bluetooth` event says whether Quick Share's Bluetooth LE
        /// signal is sent too; then `found` (the phone), `pin` and `progress` events, as
        /// `send-files` answers. With `background`: answered at once with `url`, the wait and
        /// the share going on after the connection closes (a provider's, whose window shows
        /// the code).
        case sendQR = "send-qr"
    }

    public var op: Operation
    public var activity: UserActivity?
    public var id: String?
    public var host: String?
    public var port: Int?
    /// For `confirm`: whether the user accepted the pairing code.
    public var yes: Bool?
    public var device: String?
    /// With `become-current`: keep this connection as the app's, for `will-save` and
    /// `continued` events; closing it invalidates the activity.
    public var watch: Bool?
    /// With `pair` and `pair-wait`: pair only with the device of this id (`--expect-device`).
    public var expect: String?
    /// With `send-files`: absolute paths, the devices by name or id, or all of them; with
    /// `clipboard-push`: files to offer instead of the clipboard.
    public var paths: [String]?
    /// With `clipboard-push`: text to offer instead of the clipboard.
    public var text: String?
    public var devices: [String]?
    public var all: Bool?
    /// With `send-files`: copy what waits for an unreachable device (else it is sent from
    /// where it is, as it is then).
    public var copy: Bool?
    /// With `discover`: how long to wait for answers, in seconds (at most 10); with
    /// `devices`, 0: answer from what each device said when last asked, at once.
    public var timeout: Double?
    /// With `send-files` and `send`: the PIN a LocalSend device asks for.
    public var pin: String?
    /// With `accept`: accept this device's transfers from now on without asking.
    public var always: Bool?
    /// With `send-qr`: answer at once; the share goes on without this connection.
    public var background: Bool?

    public init(_ op: Operation, activity: UserActivity? = nil, id: String? = nil, host: String? = nil, port: Int? = nil,
                yes: Bool? = nil, device: String? = nil, watch: Bool? = nil, expect: String? = nil,
                paths: [String]? = nil, devices: [String]? = nil, all: Bool? = nil, copy: Bool? = nil, timeout: Double? = nil,
                text: String? = nil, pin: String? = nil, always: Bool? = nil) {
        self.always = always
        self.pin = pin
        self.timeout = timeout
        self.text = text
        self.copy = copy
        self.paths = paths
        self.devices = devices
        self.all = all
        self.expect = expect
        self.watch = watch
        self.op = op
        self.activity = activity
        self.id = id
        self.host = host
        self.port = port
        self.yes = yes
        self.device = device
    }
}

/// The daemon's answer. A pairing sends one with `code` first and waits for `confirm`.
public struct ControlResponse: Codable, Sendable {
    public var ok: Bool
    /// What failed, in English (for logs, `--json` and other programs).
    public var error: String?
    /// The same words as a phrase, for the CLI to say in its person's language.
    public var phrase: Phrase?
    /// The exit code the CLI ends with when `ok` is false (2 bad input, 3 nothing to
    /// continue or no handler, 1 otherwise).
    public var exitCode: Int32?
    public var id: String?
    public var activities: [UserActivity]?
    public var devices: [Device]?
    public var code: String?
    public var device: Device?
    public var activity: UserActivity?
    /// For `fetch`: how to continue it here.
    public var continuation: Continuation?
    /// On an app's connection: `will-save` (answer with `update`) or `continued` (`device`).
    public var event: String?
    /// For `send-files`: what each device got; with the event `progress`, the bytes sent
    /// so far of `total`.
    public var deliveries: [Delivery]?
    public var bytes: UInt64?
    public var total: UInt64?
    /// For `received`: the transfers that arrived here, oldest first.
    public var transfers: [ReceivedTransfer]?
    /// For `queue`: the sends waiting for their devices.
    public var queued: [QueuedTransfer]?
    /// With the event `progress`: each device's part.
    public var progress: [TransferProgress]?
    /// For `discover`: the devices seen nearby.
    public var nearby: [DiscoveredDevice]?
    /// `requests`: LocalSend devices waiting for an answer.
    public var requests: [LocalSendRequest]?
    /// For `clipboard-status` and `clipboard-push`: the Universal Clipboard here.
    public var clipboard: ClipboardStatus?
    /// With the event `qr` (`send-qr`): what the QR code to show holds.
    public var url: String?
    /// With the event `bluetooth` (`send-qr`) and for `discover`: whether Quick Share's
    /// Bluetooth LE signal is sent too.
    public var bluetooth: BluetoothSignal?

    public init(ok: Bool, error: String? = nil, exitCode: Int32? = nil) {
        self.ok = ok
        self.error = error
        self.exitCode = exitCode
    }

    enum CodingKeys: String, CodingKey {
        case ok, error, phrase, id, activities, devices, code, device, activity, continuation, event
        case deliveries, bytes, total, transfers, queued, progress, nearby, clipboard, requests, url, bluetooth
        case exitCode = "exit_code"
    }

    /// A successful answer (or an event on an app's connection) carrying these fields.
    public static func success(
        id: String? = nil, activities: [UserActivity]? = nil, devices: [Device]? = nil, code: String? = nil, device: Device? = nil,
        activity: UserActivity? = nil, continuation: Continuation? = nil, event: String? = nil,
        deliveries: [Delivery]? = nil, transfers: [ReceivedTransfer]? = nil, queued: [QueuedTransfer]? = nil
    ) -> ControlResponse {
        var response = ControlResponse(ok: true)
        response.id = id
        response.activities = activities
        response.devices = devices
        response.code = code
        response.device = device
        response.activity = activity
        response.continuation = continuation
        response.event = event
        response.deliveries = deliveries
        response.transfers = transfers
        response.queued = queued
        return response
    }

    public static func failure(_ message: Phrase, exitCode: HandoffFailureCode = .failed) -> ControlResponse {
        var response = ControlResponse(ok: false, error: message.description, exitCode: exitCode.rawValue)
        response.phrase = message
        return response
    }
}

/// A paired device, as `handoff devices` shows it.
public struct Device: Codable, Sendable, Equatable {
    /// The first 16 hex digits of the SHA-256 of its public key (SPKI).
    public var id: String
    public var name: String
    public var host: String
    public var port: Int
    public var reachable: Bool?

    public init(id: String, name: String, host: String, port: Int, reachable: Bool? = nil) {
        self.id = id
        self.name = name
        self.host = host
        self.port = port
        self.reachable = reachable
    }
}

/// How a fetched activity continues on this machine.
public struct Continuation: Codable, Sendable, Equatable {
    /// The handler's command, with `{activity-file}` still in it; nil for the browser.
    public var exec: [String]?
    public var handler: String?
    /// For the browser fallback.
    public var url: String?
    /// For text handed off: it goes onto the clipboard.
    public var text: String?

    public init(exec: [String]? = nil, handler: String? = nil, url: String? = nil, text: String? = nil) {
        self.exec = exec
        self.handler = handler
        self.url = url
        self.text = text
    }
}
