import ActShareCore
import ActShareHandoff
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

public typealias JSONValue = ActShareHandoff.JSONValue

/// What the user is doing in this app, offered to their other devices: NSUserActivity
/// for Linux, through the local actshare daemon.
///
///     let activity = UserActivity(activityType: "org.example.notes.editing")
///     activity.title = "Shopping list"
///     activity.userInfo = ["note": .number(42)]
///     activity.delegate = self
///     try activity.becomeCurrent()
///
/// The activity stays current while this object keeps its connection to the daemon:
/// `invalidate()`, or the app's end, withdraws it.
public final class UserActivity: Sendable {
    public let activityType: String
    private let state: Mutex<State>

    struct State {
        var title = ""
        var userInfo: [String: JSONValue] = [:]
        var webpageURL: String?
        var teamIdentifier: String?
        var version = 1
        var needsSave = false
        weak var delegate: (any UserActivityDelegate)?
        var identifier: String?
        var connection: ControlClient?
    }

    public init(activityType: String) {
        self.activityType = activityType
        state = Mutex(State())
    }

    public var title: String {
        get { state.withLock { $0.title } }
        set { state.withLock { $0.title = newValue } }
    }

    /// A JSON object of at most 64 KiB when it is sent.
    public var userInfo: [String: JSONValue] {
        get { state.withLock { $0.userInfo } }
        set { state.withLock { $0.userInfo = newValue } }
    }

    /// An http or https URL, opened in a browser where no app continues the type.
    public var webpageURL: String? {
        get { state.withLock { $0.webpageURL } }
        set { state.withLock { $0.webpageURL = newValue } }
    }

    public var teamIdentifier: String? {
        get { state.withLock { $0.teamIdentifier } }
        set { state.withLock { $0.teamIdentifier = newValue } }
    }

    public var version: Int {
        get { state.withLock { $0.version } }
        set { state.withLock { $0.version = newValue } }
    }

    public weak var delegate: (any UserActivityDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// The id the daemon gave it, once current.
    public var identifier: String? { state.withLock { $0.identifier } }

    /// Set when userInfo is out of date: the delegate's `userActivityWillSave` is called
    /// before another device next fetches the activity, and this goes back to false.
    public var needsSave: Bool {
        get { state.withLock { $0.needsSave } }
        set {
            let (id, connection) = state.withLock { state -> (String?, ControlClient?) in
                state.needsSave = newValue
                return (state.identifier, state.connection)
            }
            if let id, let connection { try? connection.send(ControlRequest(.needsSave, id: id, yes: newValue)) }
        }
    }

    public func addUserInfoEntries(from entries: [String: JSONValue]) {
        state.withLock { $0.userInfo.merge(entries) { $1 } }
    }

    /// Publishes the activity (or its new contents) to the daemon.
    public func becomeCurrent() throws {
        let snapshot = state.withLock { $0 }
        if snapshot.identifier != nil { invalidate() }
        let client = try ControlClient(path: HandoffPaths.fromEnvironment().controlSocket)
        let activity = ActShareHandoff.UserActivity(
            type: activityType, title: snapshot.title, userInfo: snapshot.userInfo, webpageURL: snapshot.webpageURL,
            team: snapshot.teamIdentifier, version: snapshot.version)
        let response = try client.call(ControlRequest(.becomeCurrent, activity: activity, watch: true))
        guard response.ok, let id = response.id else {
            throw ActShareError(.badInput, response.error.map { Phrase(verbatim: $0) } ?? "the daemon refused the activity")
        }
        state.withLock {
            $0.identifier = id
            $0.connection = client
        }
        if snapshot.needsSave { try client.send(ControlRequest(.needsSave, id: id, yes: true)) }
        // The daemon's events arrive on this connection, read on a thread of our own.
        let events = EventReader(activity: self, client: client)
        events.start()
    }

    /// Withdraws the activity.
    public func invalidate() {
        let (id, connection) = state.withLock { state -> (String?, ControlClient?) in
            defer {
                state.identifier = nil
                state.connection = nil
            }
            return (state.identifier, state.connection)
        }
        if let id, let connection {
            try? connection.send(ControlRequest(.invalidate, id: id))
            connection.shutdown()
        }
    }

    /// A `will-save` event: the delegate refreshes userInfo, which goes back to the daemon.
    func willSave(client: ControlClient) {
        delegate?.userActivityWillSave(self)
        state.withLock { $0.needsSave = false }
        let info = userInfo
        try? client.send(ControlRequest(.update, activity: ActShareHandoff.UserActivity(type: activityType, title: title, userInfo: info)))
    }

    func wasContinued(by device: String) {
        delegate?.userActivityWasContinued(self, by: device)
    }
}

/// Reads the daemon's events for one activity until the connection ends.
final class EventReader: Sendable {
    let activity: UserActivity
    let client: ControlClient

    init(activity: UserActivity, client: ControlClient) {
        self.activity = activity
        self.client = client
    }

    func start() {
        DetachedThread.start { self.run() }
    }

    private func run() {
        while let response = try? client.receive() {
            switch response.event {
            case "will-save": activity.willSave(client: client)
            case "continued": activity.wasContinued(by: response.device?.name ?? "another device")
            default: continue // answers to needs-save and invalidate
            }
        }
    }
}
