import ActShareCore
import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// The notification for a link a phone sent (Quick Share), with Open: kept as a
/// handed-off activity, it opens as `actshare handoff continue ID` opens it (the user's
/// browser, http and https only). The link is the phone's text: it goes to the notice on
/// standard input, as every notice's words do, and the action runs our own command with
/// our own id — never the link on a command line of ours.
public enum QuickShareLinkNotice {
    static func show(id: String, url: String, from sender: String) {
        let bus = Environment.value("DBUS_SESSION_BUS_ADDRESS") ?? ""
        let runtime = Environment.value("XDG_RUNTIME_DIR") ?? ""
        guard !bus.isEmpty || (!runtime.isEmpty && FileSystem.exists(FileSystem.join(runtime, "bus"))),
              let executable = FileSystem.executablePath else { return }
        let summary = Localized.text("%s sent a link", TerminalText.oneLine(sender))
        let body = TerminalText.visible(url) + "\n\n" + Localized.text("Quick Share; also `actshare handoff continue %s`.", id)
        DetachedThread.start {
            let outcome = try? ChildProcess.run(executable, ["--ask-open"], name: SearchPaths.daemonName, input: Array("\(summary)\u{0}\(body)".utf8),
                                                timeLimit: .seconds(Int64(LocalSendRequests.answerSeconds) + 5))
            guard let outcome, String(decoding: outcome.output, as: UTF8.self).hasPrefix("open"), let actshare = command(beside: executable) else { return }
            _ = try? ChildProcess.run(actshare, ["handoff", "continue", id], timeLimit: .seconds(60))
        }
    }

    /// The `actshare` command: beside the daemon (the build tree, or the daemon run as
    /// actshare itself), or PREFIX/bin's for PREFIX/libexec/actshare/actshare-daemon.
    static func command(beside daemon: String) -> String? {
        let folder = FileSystem.directoryName(daemon)
        return [FileSystem.join(folder, "actshare"), FileSystem.join(folder, "../../bin/actshare")].first { access($0, X_OK) == 0 }
    }

    /// The `--ask-open` helper: the notice with Open; prints `open` when chosen.
    public static func run() -> Int32 {
        LocalSendPrompt.askOnTheDesktop(icon: "web-browser", urgent: false, actions: [("open", Localized.text("Open"))])
    }
}
