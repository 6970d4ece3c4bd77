import ActShareCore
import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// The desktop notification for files that arrived ("3 files from laptop"), with an
/// action that opens the folder they are in, through `org.freedesktop.Notifications`
/// (libnotify's `notify-send`) when this user has a session bus.
///
/// Showing it waits for the user (`notify-send --wait`), so the daemon does not: it starts
/// itself again as `actshare-daemon --notify FOLDER SUMMARY BODY`, detached, which shows
/// it and opens the folder with `xdg-open` if asked. Nothing received is ever opened: only
/// the folder, and only when the user asks.
public enum ReceivedNotice {
    /// Starts the notice for `transfer`; says nothing when there is no session bus or no
    /// notify-send (the daemon's log has the line anyway).
    static func show(_ transfer: ReceivedTransfer, in folder: String) {
        let bus = Environment.value("DBUS_SESSION_BUS_ADDRESS") ?? ""
        let runtime = Environment.value("XDG_RUNTIME_DIR") ?? ""
        guard !bus.isEmpty || (!runtime.isEmpty && FileSystem.exists(FileSystem.join(runtime, "bus"))),
              let executable = FileSystem.executablePath else { return }
        let count = transfer.files.count
        let summary = "\(count) file\(count == 1 ? "" : "s") from \(transfer.from)"
        let body = transfer.paths.map { FileSystem.baseName($0) }.joined(separator: ", ")
        // As `actshare-daemon` by name: in a release install the executable is actshare's.
        _ = try? ChildProcess.start([executable, "--notify", folder, summary, body], name: SearchPaths.daemonName, quiet: true, detached: true)
    }

    /// The `--notify` helper: shows the notice and opens `folder` when its action is chosen.
    public static func run(folder: String, summary: String, body: String) -> Int32 {
        guard let notifySend = FileSystem.programOnPath("notify-send") else { return 1 }
        // At most 10 minutes of waiting for the user: then the notice is left to the server.
        let outcome = try? ChildProcess.run(
            notifySend, ["--app-name=actshare", "--icon=folder-download", "--action=default=Open folder", "--", summary, body],
            timeLimit: .seconds(600))
        guard let outcome, String(decoding: outcome.output, as: UTF8.self).hasPrefix("default"),
              let opener = FileSystem.programOnPath("xdg-open") else { return 0 }
        _ = try? ChildProcess.run(opener, [folder], timeLimit: .seconds(60))
        return 0
    }
}
