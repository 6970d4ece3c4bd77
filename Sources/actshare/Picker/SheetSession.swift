import ActShareCore
import ActShareHandoff
import ActShareHost
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The share sheet's window while one share goes on: it shows the choices, asks for
/// options, shows the progress with a Cancel button, and the result.
///
/// actshare and the window talk in JSON lines over one socket (the window's standard
/// input and output); `Sources/actshare-sheet/main.c` and docs/DESKTOP.md give the
/// messages. The window is a child of actshare that may outlive it: a result it shows
/// stays until the person closes it.
final class SheetSession: @unchecked Sendable {
    // Unchecked: `socket` is guarded by its mutex (the Cancel watcher's thread reads); `lines`
    // is read by one thread at a time (the cancel watcher only between `watch` and
    // `stopWatching`, which joins it).

    /// What was chosen in the window: an activity, and for a tile of its rows, one of its
    /// targets.
    struct Choice {
        var activity: String
        var target: String?
        /// What the desktop gave the window for starting the application the target is (a
        /// startup notification's id, an xdg-activation token): printable ASCII only.
        var activationToken: String?
    }

    private let pid: pid_t
    /// Our end of the conversation; -1 once it is closed.
    private let socket: Mutex<Int32>
    private let lines: LineReader
    /// Whether the window has ended (and been waited for).
    private var reaped = false
    private var watcher: BackgroundWork<Void>?
    /// Written to wake the Cancel watcher from poll(2) when the activity has ended.
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private var runningTitle = ""

    /// The longest line read from the window (an answer typed in it).
    static let lineLimit = 1 << 20

    /// Starts the window showing `request` (``SheetPicker/request(offers:items:parentWindow:performing:)``).
    init(executable: String, request: String) throws {
        guard let (ours, theirs) = ChildProcess.socketPair() else {
            throw CommandFailure(.failed, "cannot make a socket for the share sheet: \(String(cString: strerror(errno)))")
        }
        do {
            pid = try ChildProcess.start([executable], conversation: theirs)
        } catch let error as ActShareError {
            close(ours)
            close(theirs)
            throw CommandFailure(error)
        }
        close(theirs)
        socket = Mutex(ours)
        lines = LineReader(fd: ours, limit: Self.lineLimit)
        send(request)
    }

    deinit { end() }

    // MARK: Choosing

    /// What the person chose, or nil when they closed the window. Throws
    /// ``SheetPicker/Unavailable`` when the window could not be shown.
    func choice() throws -> Choice? {
        while let message = readMessage() {
            guard case .string(let type)? = message["activity"] else { continue }
            guard case .string(let target)? = message["target"] else { return Choice(activity: type) }
            var token: String?
            if case .string(let given)? = message["activation-token"], !given.isEmpty, given.utf8.count <= 512,
               given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
                token = given
            }
            return Choice(activity: type, target: target, activationToken: token)
        }
        switch waitForExit() {
        case 0, 1, 128 + SIGTERM, 128 + SIGINT:
            // Closed, or ended with actshare when the share was cancelled.
            return nil
        case let status:
            throw SheetPicker.Unavailable(status: status)
        }
    }

    /// Returns once the window is up (GTK started and the window shown); throws
    /// ``SheetPicker/Unavailable`` when it could not be.
    func waitUntilShown() throws {
        while let message = readMessage() {
            if message["shown"] == .bool(true) { return }
        }
        throw SheetPicker.Unavailable(status: waitForExit())
    }

    // MARK: Running

    /// Shows the progress page for `title` (after a moment: a quick activity closes the
    /// window without it) and watches for Cancel, which sets `cancellation`, as does
    /// closing the window.
    func watch(_ title: String, cancellation: UnsafeMutablePointer<Int32>) {
        runningTitle = title
        sendProgress(nil)
        guard watcher == nil, let pair = ChildProcess.socketPair() else { return }
        wake = pair
        let flag = UnsafeSendablePointer(cancellation)
        let wakeFD = pair.0
        watcher = BackgroundWork { [self] in
            while true {
                var fds = [pollfd(fd: lines.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
                guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
                if fds[1].revents != 0 { return }
                guard fds[0].revents != 0 else { continue }
                repeat {
                    guard let message = readMessage() else {
                        // The window is gone: nobody is there to see the share go on.
                        flag.pointer.pointee = 1
                        return
                    }
                    if message["cancel"] == .bool(true) { flag.pointer.pointee = 1 }
                } while lines.hasLine
            }
        }
    }

    /// Stops watching for Cancel once the activity has ended.
    func stopWatching() {
        guard let watcher else { return }
        _ = write(wake.write, "x", 1)
        watcher.wait()
        self.watcher = nil
        close(wake.read)
        close(wake.write)
    }

    private func sendProgress(_ fraction: Double?) {
        send("progress", [("title", .string(runningTitle)), ("fraction", fraction.map { .fraction($0) } ?? .string(nil))])
    }

    // MARK: Ending

    /// How a share ended, as the window shows it.
    struct Outcome {
        var completed = false
        /// The provider broke (crashed, hung): the window says it stopped working.
        var fault = false
        /// One sentence for a person.
        var message: String?
        /// The technical line, behind "Details".
        var details: String?
        /// A file made, to open or show in its folder.
        var file: String?
    }

    /// Shows how the share ended, or with nil closes the window; then ends the
    /// conversation. Once only: later calls do nothing.
    func end(_ outcome: Outcome? = nil) {
        stopWatching()
        if let outcome {
            send("result", [
                ("title", .string(runningTitle.isEmpty ? nil : runningTitle)), ("completed", .bool(outcome.completed)),
                ("fault", .bool(outcome.fault)), ("message", .string(outcome.message)), ("details", .string(outcome.details)),
                ("file", .string(outcome.file)),
            ])
        }
        socket.withLock { fd in
            guard fd >= 0 else { return }
            close(fd)
            fd = -1
        }
    }

    // MARK: Lines

    /// Sends `{"KEY": {MEMBERS}}`, the form of every message after the first.
    private func send(_ key: String, _ members: [(String, JSONWriter.Value)]) {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(key)
        writer.beginObject()
        for (name, value) in members { writer.member(name, value) }
        writer.endObject()
        writer.endObject()
        send(writer.text)
    }

    private func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        socket.withLock { fd in
            guard fd >= 0 else { return }
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                sent += count
            }
        }
    }

    /// The next message from the window, or nil at its end (or a line past the limit,
    /// which only a broken window sends). Lines that are not JSON objects are skipped.
    private func readMessage() -> [String: JSONValue]? {
        while let line = lines.next() {
            if case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(line)) { return members }
        }
        return nil
    }

    /// The window's exit status (128 + a signal), waiting for it: called once it closed
    /// its end of the conversation.
    private func waitForExit() -> Int32 {
        guard !reaped else { return 1 }
        reaped = true
        return ChildProcess.wait(pid)
    }
}

extension SheetSession: OptionPrompter {
    func ask(_ question: String, title: String, note: String?, type: OptionDeclaration.ValueType) throws -> String? {
        send("ask", [
            ("title", .string(title)), ("question", .string(question)), ("note", .string(note)),
            ("kind", .string(type == .folder ? "folder" : "text")),
        ])
        while let message = readMessage() {
            switch message["answer"] {
            case .string(let answer)?: return answer
            case .null?: return nil
            default: continue
            }
        }
        return nil
    }
}

extension SheetSession: SessionObserver {
    func progress(_ fraction: Double, activity: String) {
        sendProgress(fraction)
    }

    func log(_ level: LogLevel, _ message: String, provider: String) {
        DialogProgress.logWarnings(level, message, provider: provider)
    }
}
