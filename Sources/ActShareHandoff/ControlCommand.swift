/// A control request as its operation and the fields that operation takes, checked:
/// what the daemon acts on. On the wire it stays one JSON object with `op`
/// (``ControlRequest``), which the C Hand Off provider writes with json-c.
public enum ControlCommand: Sendable {
    case becomeCurrent(UserActivity, watch: Bool)
    case invalidate(id: String)
    case list
    /// `host` is an address, a host name, or a device discovery found; `port` nil for the
    /// default (or the discovered device's).
    case pair(host: String, port: Int?, expect: String?)
    case pairWait(expect: String?)
    case confirm(yes: Bool)
    /// `timeout` 0: as last asked, at once (and asked again behind); else each is asked.
    case devices(timeout: Double?)
    case unpair(device: String)
    case handoffList
    case fetch(id: String?)
    case continued(id: String, device: String?)
    /// `pin`: what a LocalSend device asks for (a URL or text goes to one as a message).
    case send(UserActivity, device: String?, pin: String?)
    case status
    /// `devices` may name LocalSend devices too; `pin` is what they ask for.
    case sendFiles(paths: [String], devices: [String], all: Bool, copy: Bool, pin: String?)
    case received
    case queue
    case queueCancel(id: String)
    case discover(timeout: Double?)
    case needsSave(id: String, yes: Bool)
    case update(userInfo: [String: JSONValue]?)
    case restrict(paths: [String])
    /// `content` nil: what the clipboard holds.
    case clipboardPush(devices: [String], content: ClipboardContent?)
    case clipboardStatus
    case requests
    case answer(id: String, accept: Bool, always: Bool)
    /// Advertised to phones (Quick Share) while the connection is open.
    case visible
    /// Quick Share by QR code: files, or one text or link; `background`: answered at once.
    case sendQR(paths: [String], text: String?, background: Bool)

    /// The request's operation with its fields, or why they do not make one.
    public init(_ request: ControlRequest) throws(ControlRequestError) {
        func required<T>(_ value: T?, _ field: String) throws(ControlRequestError) -> T {
            guard let value else { throw ControlRequestError("\(request.op.rawValue) needs \(field)") }
            return value
        }
        switch request.op {
        case .becomeCurrent: self = .becomeCurrent(try required(request.activity, "an activity"), watch: request.watch == true)
        case .invalidate: self = .invalidate(id: try required(request.id, "an id"))
        case .list: self = .list
        case .pair:
            let host = try required(request.host, "a device name or a host")
            guard !host.isEmpty else { throw ControlRequestError("pair needs a device name or a host") }
            self = .pair(host: host, port: request.port, expect: request.expect)
        case .pairWait: self = .pairWait(expect: request.expect)
        case .confirm: self = .confirm(yes: request.yes == true)
        case .devices: self = .devices(timeout: request.timeout)
        case .unpair: self = .unpair(device: try required(request.device, "a device"))
        case .handoffList: self = .handoffList
        case .fetch: self = .fetch(id: request.id)
        case .continued: self = .continued(id: try required(request.id, "an id"), device: request.device)
        case .send: self = .send(try required(request.activity, "an activity"), device: request.device, pin: request.pin)
        case .status: self = .status
        case .sendFiles:
            self = .sendFiles(paths: try required(request.paths, "paths"), devices: request.devices ?? [], all: request.all == true, copy: request.copy == true,
                              pin: request.pin)
        case .received: self = .received
        case .queue: self = .queue
        case .queueCancel: self = .queueCancel(id: try required(request.id, "an id"))
        case .discover: self = .discover(timeout: request.timeout)
        case .needsSave: self = .needsSave(id: try required(request.id, "an id"), yes: request.yes ?? true)
        case .update: self = .update(userInfo: request.activity?.userInfo)
        case .restrict: self = .restrict(paths: try required(request.paths, "paths"))
        case .clipboardPush:
            if request.text != nil && request.paths != nil { throw ControlRequestError("clipboard-push takes text or paths, not both") }
            self = .clipboardPush(devices: request.devices ?? [], content: request.text.map(ClipboardContent.text) ?? request.paths.map(ClipboardContent.files))
        case .clipboardStatus: self = .clipboardStatus
        case .requests: self = .requests
        case .accept: self = .answer(id: try required(request.id, "an id"), accept: true, always: request.always == true)
        case .decline: self = .answer(id: try required(request.id, "an id"), accept: false, always: false)
        case .visible: self = .visible
        case .sendQR:
            guard (request.paths ?? []).isEmpty != (request.text == nil) else {
                throw ControlRequestError("send-qr takes paths or a text, one of them")
            }
            self = .sendQR(paths: request.paths ?? [], text: request.text, background: request.background == true)
        }
    }

    /// Whether a connection restricted to `paths` may make this request: hand off those
    /// files (or what is beneath them), a URL or text, or put them on a device's clipboard,
    /// and see the devices to hand off to. Never read this device's clipboard.
    public func isAllowed(within paths: [String]) -> Bool {
        func granted(_ files: [String]) -> Bool {
            files.allSatisfy { file in
                file.hasPrefix("/") && !file.split(separator: "/").contains("..")
                    && paths.contains { file == $0 || file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
            }
        }
        switch self {
        case .send(let activity, _, _):
            return activity.needsSaveCommand == nil && activity.onContinued == nil
        case .sendFiles(let files, _, _, let copy, _):
            return !copy && granted(files)
        case .sendQR(let files, _, _):
            // The phone is the one the user scans the code with: never one on the provider's word.
            return granted(files)
        case .clipboardPush(_, .text?):
            return true
        case .clipboardPush(_, .files(let files)?):
            return granted(files)
        case .devices, .status:
            return true
        default:
            return false
        }
    }
}

/// A control request whose fields do not fit its operation.
public struct ControlRequestError: Error, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}
