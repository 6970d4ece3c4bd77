import ActShareCore
import ActShareHost
#if canImport(Glibc)
import Glibc
#endif

/// Asks with a dialog, for launches without a terminal (a file manager's menu): zenity
/// (GNOME and GTK desktops) or kdialog (KDE).
///
/// The activities are listed by title, pinned and recent first (the offer order), with
/// their icons in zenity (which takes image files: see `IconTheme`); kdialog's menu takes
/// no icons. Option prompts are entry dialogs.
struct DialogPicker {
    enum Tool: String {
        case zenity, kdialog
    }

    let tool: Tool
    let executable: String

    /// The dialog tool to use: `requested`, or with nil the first of zenity and kdialog
    /// installed. Nil when there is no display (X11 or Wayland) or no such program.
    static func find(_ requested: Tool?) -> DialogPicker? {
        guard hasDisplay else { return nil }
        for tool in requested.map({ [$0] }) ?? [.zenity, .kdialog] {
            if let executable = FileSystem.programOnPath(tool.rawValue) { return DialogPicker(tool: tool, executable: executable) }
        }
        return nil
    }

    /// Whether there is a display (X11 or Wayland) to show a window on.
    static var hasDisplay: Bool {
        [Environment.value("DISPLAY"), Environment.value("WAYLAND_DISPLAY")].contains { !($0 ?? "").isEmpty }
    }

    /// The activity chosen, or nil when the dialog was cancelled.
    func pick(from offers: [Offer], items: [Item]) throws -> Offer? {
        let question = "Share \(describe(items)) with:"
        var arguments: [String]
        switch tool {
        case .zenity:
            // zenity 3.44 cannot open a list with a row selected, and its OK then prints
            // nothing: that answer takes the first row, as the text says.
            let text = ZenityText.markup(question) + "\n<small>OK without a choice: \(ZenityText.markup(offers.first?.title ?? ""))</small>"
            arguments = ["--list", "--title=Share", "--text=\(text)", "--width=420", "--height=380"]
            if let icons = Self.iconFiles(for: offers) {
                arguments += ["--imagelist", "--column=", "--column=Activity", "--column=Type", "--hide-column=3", "--print-column=3"]
                for (offer, icon) in zip(offers, icons) { arguments += [icon, offer.title, offer.type] }
            } else {
                arguments += ["--column=Activity", "--column=Type", "--hide-column=2", "--print-column=2"]
                for offer in offers { arguments += [offer.title, offer.type] }
            }
        case .kdialog:
            arguments = ["--title", "Share", "--menu", question]
            for offer in offers { arguments += [offer.type, offer.title] }
        }
        guard let answer = try run(arguments) else { return nil }
        if answer.isEmpty { return tool == .zenity ? offers.first : nil }
        return offers.first { $0.type == answer }
    }

    /// An icon file for each offer (a generic one where its own is not found), or nil when
    /// no icon theme is installed: zenity shows the row above's icon for a missing one.
    static func iconFiles(for offers: [Offer]) -> [String]? {
        let theme = IconTheme()
        guard let generic = theme.file(for: "system-run") ?? theme.file(for: "application-x-executable") else { return nil }
        return offers.map { theme.file(for: $0.image) ?? generic }
    }

    /// What the user typed for `question`, or nil when the dialog was cancelled.
    func ask(_ question: String, title: String) throws -> String? {
        switch tool {
        case .zenity: return try run(["--entry", "--title=\(title)", "--text=\(ZenityText.mnemonic(question))"])
        case .kdialog: return try run(["--title", title, "--inputbox", question])
        }
    }

    /// A progress dialog for a running activity (zenity only; kdialog's needs D-Bus).
    func progress(title: String, cancellation: UnsafeMutablePointer<Int32>) -> DialogProgress? {
        guard tool == .zenity else { return nil }
        return DialogProgress(executable: executable, title: title, cancellation: cancellation)
    }

    /// Shows why the share failed (a launch from a file manager has nowhere else to say it).
    func showError(_ message: String) {
        let text = TerminalText.visible(message)
        switch tool {
        case .zenity: _ = try? run(["--error", "--title=Share", "--no-markup", "--text=\(text)"])
        case .kdialog: _ = try? run(["--title", "Share", "--error", text])
        }
    }

    /// Says where a result went, with a button that opens it (`xdg-open`, never a shell).
    func showSaved(_ line: String, file: String) {
        let text = TerminalText.visible(line)
        let open: String??
        switch tool {
        case .zenity:
            open = try? run(["--question", "--title=Share", "--no-markup", "--text=\(text)", "--ok-label=Open", "--cancel-label=Close"])
        case .kdialog:
            open = try? run(["--title", "Share", "--yes-label", "Open", "--no-label", "Close", "--yesno", text])
        }
        guard case .some(.some) = open, let opener = FileSystem.programOnPath("xdg-open") else { return }
        _ = try? ChildProcess.run(opener, [file])
    }

    /// The dialog's answer (its standard output, one line, perhaps empty), or nil when it
    /// was cancelled.
    private func run(_ arguments: [String]) throws -> String? {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(executable, arguments)
        } catch let error as ActShareError {
            throw CommandFailure(error)
        }
        guard outcome.status == 0 else { return nil }
        var answer = String(decoding: outcome.output, as: UTF8.self)
        while answer.hasSuffix("\n") { answer.removeLast() }
        // zenity --list answers "TYPE|TYPE" on a double click in some versions: the first.
        if let bar = answer.firstIndex(of: "|") { answer = String(answer[..<bar]) }
        return answer
    }

    private func describe(_ items: [Item]) -> String {
        if items.count == 1, let path = items[0].path { return FileSystem.baseName(path) }
        return items.count == 1 ? "1 item" : "\(items.count) items"
    }
}
