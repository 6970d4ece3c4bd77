import ActShareCore
import ActShareHandoff
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The desktop notification for files that arrived ("3 files from laptop"), with an
/// action that opens the folder they are in, through `org.freedesktop.Notifications`
/// (libnotify's `notify-send`) when this user has a session bus.
///
/// Showing it waits for the user (`notify-send --wait`), so the daemon does not: a thread
/// of its own runs `actshare-daemon --notify FOLDER`, which reads the summary and body on
/// its standard input (never a command line of ours: file names are the peer's), shows
/// them and opens the folder with `xdg-open` if asked. **At most one notice runs at a
/// time**: what arrives while one is shown waits, and is said at once in the next
/// ("12 files from desk, 3 from laptop"), so a flood of small transfers makes one notice,
/// not one process each. Nothing received is ever opened: only the folder, and only when
/// the user asks.
public enum ReceivedNotice {
    /// Arrivals not yet shown, by device name, in the order they came (files and names),
    /// and whether the notice thread runs.
    private struct Arrivals {
        var pending: [(from: String, files: Int, names: [String])] = []
        var showing = false
    }
    private static let arrivals = Mutex(Arrivals())

    /// The most names a notice lists; the rest are counted.
    static let namesShown = 5

    /// Counts `transfer` into the next notice, and starts the notice thread if none runs;
    /// says nothing when there is no session bus or no notify-send (the daemon's log has
    /// the line anyway).
    static func show(_ transfer: ReceivedTransfer, in folder: String) {
        let bus = Environment.value("DBUS_SESSION_BUS_ADDRESS") ?? ""
        let runtime = Environment.value("XDG_RUNTIME_DIR") ?? ""
        guard !bus.isEmpty || (!runtime.isEmpty && FileSystem.exists(FileSystem.join(runtime, "bus"))),
              let executable = FileSystem.executablePath else { return }
        let names = transfer.paths.map(FileSystem.baseName)
        let start = arrivals.withLock { arrivals in
            if let index = arrivals.pending.firstIndex(where: { $0.from == transfer.from }) {
                arrivals.pending[index].files += transfer.files.count
                arrivals.pending[index].names += names
            } else {
                arrivals.pending.append((transfer.from, transfer.files.count, names))
            }
            defer { arrivals.showing = true }
            return !arrivals.showing
        }
        guard start else { return }
        if !DetachedThread.start({ showWhilePending(executable: executable, folder: folder) }) {
            arrivals.withLock { $0.showing = false }
        }
    }

    /// The words of a notice for `arrivals`: "3 files from laptop" or "12 files from desk,
    /// 3 from laptop"; the first names, then how many more.
    static func words(_ arrivals: [(from: String, files: Int, names: [String])]) -> (summary: String, body: String) {
        let sources = arrivals.enumerated().map { index, arrival in
            index == 0
                ? Localized.plural("%d file from %s", "%d files from %s", count: arrival.files, arrival.files, TerminalText.oneLine(arrival.from))
                : Localized.text("%d from %s", arrival.files, TerminalText.oneLine(arrival.from))
        }
        let names = arrivals.flatMap(\.names).map(TerminalText.oneLine)
        let separator = Localized.text(", ")
        var body = names.prefix(namesShown).joined(separator: separator)
        if names.count > namesShown {
            body = Localized.plural("%s and %d more", "%s and %d more", count: names.count - namesShown, body, names.count - namesShown)
        }
        return (sources.joined(separator: separator), body)
    }

    /// The notice thread: shows notices one after another while arrivals wait.
    private static func showWhilePending(executable: String, folder: String) {
        while true {
            let batch: [(from: String, files: Int, names: [String])] = arrivals.withLock { arrivals in
                defer { arrivals.pending = [] }
                if arrivals.pending.isEmpty { arrivals.showing = false }
                return arrivals.pending
            }
            if batch.isEmpty { return }
            let (summary, body) = words(batch)
            // As `actshare-daemon` by name: in a release install the executable is actshare's.
            _ = try? ChildProcess.run(
                executable, ["--notify", folder], name: SearchPaths.daemonName, input: Array("\(summary)\u{0}\(body)".utf8),
                timeLimit: .seconds(660))
        }
    }

    /// The `--notify` helper: reads the summary and body (NUL between them) on its standard
    /// input, shows the notice, and opens `folder` when its action is chosen. Names are
    /// escaped for a server that reads markup in the body (`body-markup`).
    public static func run(folder: String) -> Int32 {
        // The daemon's own words, a few names long: anything longer is not shown.
        let input = (try? FileSystem.readToEnd(0, limit: 64 << 10)) ?? []
        let parts = input.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let summary = PathName.decode(parts.first ?? [])
        var body = PathName.decode(parts.count > 1 ? parts[1] : [])
        guard let notifySend = FileSystem.programOnPath("notify-send") else { return 1 }
        if serverReadsMarkup() { body = MarkupText.escaped(body) }
        // At most 10 minutes of waiting for the user: then the notice is left to the server.
        let outcome = try? ChildProcess.run(
            notifySend, ["--app-name=actshare", "--icon=folder-download", "--action=default=Open folder", "--", summary, body],
            timeLimit: .seconds(600))
        guard let outcome, String(decoding: outcome.output, as: UTF8.self).hasPrefix("default"),
              let opener = FileSystem.programOnPath("xdg-open") else { return 0 }
        _ = try? ChildProcess.run(opener, [folder], timeLimit: .seconds(60))
        return 0
    }

    /// Whether the notification server says it reads markup in bodies (GetCapabilities).
    static func serverReadsMarkup() -> Bool {
        guard let gdbus = FileSystem.programOnPath("gdbus") else { return true }  // unknown: escape, to be safe
        let outcome = try? ChildProcess.run(
            gdbus, ["call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                    "--method", "org.freedesktop.Notifications.GetCapabilities"], timeLimit: .seconds(5))
        guard let outcome, outcome.status == 0 else { return true }
        return String(decoding: outcome.output, as: UTF8.self).contains("'body-markup'")
    }
}
