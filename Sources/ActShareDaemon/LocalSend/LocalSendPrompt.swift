import ActShareCore
import ActShareHandoff
#if canImport(Glibc)
import Glibc
#endif

/// The notification that asks the user about a LocalSend or Quick Share transfer, with
/// Accept, Always and Decline (`org.freedesktop.Notifications` through `notify-send --wait`), when this
/// user has a session bus; `actshare handoff requests` answers the same question on a
/// terminal.
///
/// As the notice of files received: a thread of its own runs `actshare-daemon --ask`,
/// which reads the words on its standard input (the sender's name and file names are the
/// peer's: never on a command line of ours) and prints the action chosen.
public enum LocalSendPrompt {
    /// The actions, as `--ask` prints them.
    enum Action: String {
        case accept, always, decline
    }

    static func show(_ request: LocalSendRequest, requests: LocalSendRequests) {
        let bus = Environment.value("DBUS_SESSION_BUS_ADDRESS") ?? ""
        let runtime = Environment.value("XDG_RUNTIME_DIR") ?? ""
        guard !bus.isEmpty || (!runtime.isEmpty && FileSystem.exists(FileSystem.join(runtime, "bus"))),
              let executable = FileSystem.executablePath else { return }
        let (summary, body) = words(request)
        DetachedThread.start {
            let outcome = try? ChildProcess.run(executable, ["--ask"], name: SearchPaths.daemonName, input: Array("\(summary)\u{0}\(body)".utf8),
                                                timeLimit: .seconds(Int64(LocalSendRequests.answerSeconds) + 5))
            let chosen = outcome.flatMap { String(decoding: $0.output, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.flatMap { Action(rawValue: String($0)) } }
            guard let chosen else { return }
            Task { await requests.answer(request.id, chosen == .decline ? .declined : .accepted(always: chosen == .always)) }
        }
    }

    /// "Pixel wants to send 3 files (2.1 MB)"; the first names, and who it is.
    static func words(_ request: LocalSendRequest) -> (summary: String, body: String) {
        let who: String
        if let pin = request.pin {
            who = Localized.text("Quick Share, from %s. PIN %s: accept only if the phone shows the same.", request.address, pin)
        } else if request.pinned {
            who = Localized.text("LocalSend, from %s; its certificate is the one pinned.", request.address)
        } else {
            who = Localized.text("LocalSend, from %s; not a device met before (certificate %s…).", request.address, String(request.fingerprint.prefix(16)))
        }
        if let message = request.message {
            // Shortened (to LocalSendRequest.messageShown, or by the sender): so marked.
            let text = TerminalText.visible(message) + (UInt64(message.utf8.count) < request.bytes ? "…" : "")
            // A phone's link alone is opened once accepted, not kept as a file.
            let summary = request.via == "quickshare" && request.files.count == 1 && ActivityChecks.isWebURL(message)
                ? Localized.text("%s sends a link", TerminalText.oneLine(request.device))
                : Localized.text("%s sends a message", TerminalText.oneLine(request.device))
            return (summary, text + "\n\n" + who)
        }
        let summary = Localized.plural("%s wants to send %d file (%s)", "%s wants to send %d files (%s)", count: request.files.count,
                                       TerminalText.oneLine(request.device), request.files.count, ByteCount.describe(request.bytes))
        var names = request.files.prefix(ReceivedNotice.namesShown).map { TerminalText.oneLine($0.name) }.joined(separator: Localized.text(", "))
        if request.files.count > ReceivedNotice.namesShown {
            names = Localized.plural("%s and %d more", "%s and %d more", count: request.files.count - ReceivedNotice.namesShown,
                                     names, request.files.count - ReceivedNotice.namesShown)
        }
        return (summary, names + "\n" + who)
    }

    /// The `--ask` helper: shows the question until it is answered or a minute passes, and
    /// prints the action chosen.
    public static func run() -> Int32 {
        askOnTheDesktop(icon: "document-send", urgent: true, actions: [
            (Action.accept.rawValue, Localized.text("Accept")), (Action.always.rawValue, Localized.text("Always Accept")),
            (Action.decline.rawValue, Localized.text("Decline")),
        ])
    }

    /// A helper's notification with `actions` (name and label): its summary and body read
    /// from standard input (NUL between them: the peer's words, never on a command line of
    /// ours), shown for as long as a question is answered (``LocalSendRequests/answerSeconds``);
    /// the action chosen printed. 1 when it cannot be shown.
    static func askOnTheDesktop(icon: String, urgent: Bool, actions: [(name: String, label: String)]) -> Int32 {
        let input = (try? FileSystem.readToEnd(0, limit: 64 << 10)) ?? []
        let parts = input.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let summary = PathName.decode(parts.first ?? [])
        var body = PathName.decode(parts.count > 1 ? parts[1] : [])
        guard let notifySend = FileSystem.programOnPath("notify-send") else { return 1 }
        if ReceivedNotice.serverReadsMarkup() { body = MarkupText.escaped(body) }
        let outcome = try? ChildProcess.run(
            notifySend, ["--app-name=actshare", "--icon=\(icon)"] + (urgent ? ["--urgency=critical"] : [])
                + ["--expire-time=\(Int(LocalSendRequests.answerSeconds * 1000))"] + actions.map { "--action=\($0.name)=\($0.label)" }
                + ["--", summary, body],
            timeLimit: .seconds(Int64(LocalSendRequests.answerSeconds)))
        guard let outcome else { return 1 }
        _ = FileSystem.writeAll(outcome.output, to: 1)
        return 0
    }
}
