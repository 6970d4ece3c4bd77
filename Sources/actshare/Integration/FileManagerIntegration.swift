import ActShareCore
#if canImport(Glibc)
import Glibc
#endif

/// Installs and removes the "Share" entry of one file manager, for the current user.
///
/// Each entry runs this actshare (by its absolute path, so it works without `PATH`) on
/// the selected files. Everything written carries `marker`, and `--uninstall` removes
/// only what carries it: a user's own scripts, actions and `uca.xml` entries stay.
struct FileManagerIntegration {
    /// In every file actshare writes, so that uninstalling touches nothing else.
    static let marker = "Installed by actshare integrate"

    let kind: FileManagerKind
    let actshare: String
    let dataHome: String
    let configHome: String
    /// The system's config folders (`XDG_CONFIG_DIRS`), where Thunar's own actions are.
    var configDirs: [String] = []
    /// Activities that take files, for Dolphin's submenu: (type, title, icon, MIME types).
    let activities: [(type: String, title: String, image: String, mimeTypes: [String])]

    /// The files written, for the user to see.
    func install() throws -> [String] {
        switch kind {
        case .nautilus: return [try writeScript(in: FileSystem.join(dataHome, "nautilus/scripts"), variable: "NAUTILUS_SCRIPT_SELECTED_FILE_PATHS")]
        case .caja: return [try writeScript(in: FileSystem.join(configHome, "caja/scripts"), variable: "CAJA_SCRIPT_SELECTED_FILE_PATHS")]
        case .nemo: return [try writeNemoAction()]
        case .dolphin: return try writeServiceMenus()
        case .thunar: return [try updateThunarActions(adding: true)]
        }
    }

    /// The files removed or changed.
    func uninstall() throws -> [String] {
        switch kind {
        case .nautilus: return removeIfOurs([FileSystem.join(dataHome, "nautilus/scripts/Share")], folders: 2)
        case .caja: return removeIfOurs([FileSystem.join(configHome, "caja/scripts/Share")], folders: 2)
        case .nemo: return removeIfOurs([nemoActionFile], folders: 2)
        case .dolphin: return removeIfOurs(serviceMenuFiles(), folders: 2)
        case .thunar:
            guard FileSystem.exists(thunarFile) else { return [] }
            return [try updateThunarActions(adding: false)]
        }
    }

    // MARK: Nautilus and Caja: a script in the Scripts menu

    private func writeScript(in directory: String, variable: String) throws -> String {
        let script = """
            #!/bin/sh
            # \(Self.marker) \(kind.rawValue): shares the selected files.
            # The file manager passes them in \(variable), one per line.
            IFS='
            '
            set -f
            exec \(ShellWord.quoted(actshare)) share --picker auto -- $\(variable)

            """
        return try write(script, to: FileSystem.join(directory, "Share"), mode: 0o755)
    }

    // MARK: Nemo: an action

    private var nemoActionFile: String { FileSystem.join(dataHome, "nemo/actions/actshare-share.nemo_action") }

    /// Nemo puts %F's paths into the command line with only their quotes escaped, so a
    /// name holding a backslash or a newline would come out changed; %U's `file://` URIs
    /// are percent-encoded (no `"`, `\\`, space or newline is left in them) and actshare
    /// takes them as the files they name. `Quote=double` keeps the `'`, `$` and `&` that
    /// URIs may hold literal when Nemo splits the line (g_shell_parse_argv).
    private func writeNemoAction() throws -> String {
        let action = """
            # \(Self.marker) nemo.
            [Nemo Action]
            Name=Share…
            \(Self.translated("Name", "Share…"))Comment=Share the selected files with an activity
            \(Self.translated("Comment", "Share the selected files with an activity"))Exec=\(Self.desktopQuoted(actshare)) share --picker auto -- %U
            Icon-Name=document-send
            Selection=notnone
            Extensions=any;
            Quote=double

            """
        return try write(action, to: nemoActionFile, mode: 0o644)
    }

    // MARK: Dolphin: a service menu per activity, together in a "Share" submenu

    private var serviceMenuDirectory: String { FileSystem.join(dataHome, "kio/servicemenus") }

    private func serviceMenuFiles() -> [String] {
        let names = FileSystem.contents(ofDirectory: serviceMenuDirectory) ?? []
        return names.filter { $0.hasPrefix("actshare-") && $0.hasSuffix(".desktop") }.sorted().map { FileSystem.join(serviceMenuDirectory, $0) }
    }

    private func writeServiceMenus() throws -> [String] {
        // Menus of activities no longer installed go first.
        let stale = Set(serviceMenuFiles())
        var written: [String] = []
        for activity in activities {
            let id = activity.type.map { $0.isLetter || $0.isNumber ? $0 : "-" }
            // Type=Application where KDE's documentation shows Type=Service: KIO reads
            // neither (only Actions, MimeType or ServiceTypes, X-KDE-*), and
            // desktop-file-validate accepts MimeType and Actions only with Application.
            // share, not perform: a person is there to be asked for options (the Mail
            // recipient) and to see the progress.
            let exec = "\(Self.desktopQuoted(actshare)) share --activity \(activity.type) --picker auto -- %F"
            let menu = """
                # \(Self.marker) dolphin.
                [Desktop Entry]
                Type=Application
                Name=Share: \(activity.title)
                \(Self.translated("Name", "Share: %s", activity.title))Exec=\(exec)
                X-KDE-ServiceTypes=KonqPopupMenu/Plugin
                MimeType=\(activity.mimeTypes.map { $0 + ";" }.joined())
                Actions=\(String(id));
                X-KDE-Submenu=Share
                \(Self.translated("X-KDE-Submenu", "Share"))X-KDE-Priority=TopLevel

                [Desktop Action \(String(id))]
                Name=\(activity.title)
                Icon=\(activity.image)
                Exec=\(exec)

                """
            written.append(try write(menu, to: FileSystem.join(serviceMenuDirectory, "actshare-\(activity.type).desktop"), mode: 0o755))
        }
        _ = removeIfOurs(stale.subtracting(written).sorted(), folders: 0)
        return written
    }

    // MARK: Thunar: an entry in uca.xml, among the user's own

    private var thunarFile: String { FileSystem.join(configHome, "Thunar/uca.xml") }
    private static let thunarID = "actshare-share"

    /// Thunar reads only the user's uca.xml when there is one: a new one starts as a copy
    /// of the system's (`$XDG_CONFIG_DIRS/Thunar/uca.xml`: "Open Terminal Here"…), so that
    /// its actions stay, and says so in a comment, so that `--uninstall` can remove
    /// the file again when what is left is that copy, unchanged.
    private var systemThunarText: String {
        for directory in configDirs {
            if let text = try? FileSystem.readText(FileSystem.join(directory, "Thunar/uca.xml")) { return text }
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<actions>\n</actions>\n"
    }

    private static let thunarCopyNote = "<!-- \(marker) thunar: a copy of the system's actions, with actshare's -->\n"

    /// `text` with the note after its XML declaration (nothing may come before that).
    private static func withCopyNote(_ text: String) -> String {
        guard text.hasPrefix("<?xml"), let lineEnd = text.firstIndex(of: "\n") else { return thunarCopyNote + text }
        var text = text
        text.insert(contentsOf: thunarCopyNote, at: text.index(after: lineEnd))
        return text
    }

    private func updateThunarActions(adding: Bool) throws -> String {
        let existing = try? FileSystem.readText(thunarFile)
        var text = existing ?? Self.withCopyNote(systemThunarText)
        text = Self.removingThunarAction(from: text)
        if !adding, let note = text.firstRange(of: Self.thunarCopyNote) {
            var rest = text
            rest.removeSubrange(note)
            if rest == systemThunarText {
                unlink(thunarFile)
                removeEmptyFolders(above: thunarFile, count: 1)
                return thunarFile
            }
            text = rest // changed since: the user's own now
        }
        if adding {
            let action = """
                <action>
                \t<icon>document-send</icon>
                \t<name>Share…</name>
                \t<submenu></submenu>
                \t<unique-id>\(Self.thunarID)</unique-id>
                \t<command>\(Self.xmlEscaped(ShellWord.quoted(actshare))) share --picker auto -- %F</command>
                \t<description>Share the selected files with an activity (\(Self.marker) thunar)</description>
                \t<range></range>
                \t<patterns>*</patterns>
                \t<directories/>
                \t<audio-files/>
                \t<image-files/>
                \t<other-files/>
                \t<text-files/>
                \t<video-files/>
                </action>

                """
            guard let end = text.ranges(of: "</actions>").last else {
                throw CommandFailure(.badInput, "\(thunarFile): no </actions> to add to; is it Thunar's uca.xml?")
            }
            text.insert(contentsOf: action, at: end.lowerBound)
        }
        return try write(text, to: thunarFile, mode: 0o644)
    }

    /// `text` without actshare's `<action>` (found by its unique id), and nothing else changed.
    static func removingThunarAction(from text: String) -> String {
        var text = text
        while let id = text.firstRange(of: "<unique-id>\(thunarID)</unique-id>"),
              let start = text[..<id.lowerBound].ranges(of: "<action>").last,
              let end = text[id.upperBound...].firstRange(of: "</action>") {
            var upper = end.upperBound
            if upper < text.endIndex, text[upper] == "\n" { upper = text.index(after: upper) }
            if upper < text.endIndex, text[upper] == "\n" { upper = text.index(after: upper) }
            text.removeSubrange(start.lowerBound..<upper)
        }
        return text
    }

    // MARK: Files

    private func write(_ text: String, to file: String, mode: mode_t) throws -> String {
        do {
            try FileSystem.createDirectories(FileSystem.directoryName(file))
            try FileSystem.writeAtomically(Array(text.utf8), to: file)
        } catch let error as ActShareError {
            throw CommandFailure(error)
        }
        chmod(file, mode)
        return file
    }

    /// Removes the files that carry the marker, then the `folders` folders above them
    /// (the file manager's own, e.g. `nemo/actions` and `nemo`) that are left empty.
    private func removeIfOurs(_ files: [String], folders: Int) -> [String] {
        let removed = files.filter { file in
            guard let text = try? FileSystem.readText(file), text.contains(Self.marker) else { return false }
            return unlink(file) == 0
        }
        if let file = removed.first { removeEmptyFolders(above: file, count: folders) }
        return removed
    }

    /// `rmdir`s up to `count` folders above `file`, stopping at the first that is not empty.
    private func removeEmptyFolders(above file: String, count: Int) {
        var folder = FileSystem.directoryName(file)
        for _ in 0..<count {
            guard rmdir(folder) == 0 else { return }
            folder = FileSystem.directoryName(folder)
        }
    }

    /// A path for a desktop file's Exec key: quoted, with its reserved characters escaped.
    /// `KEY[LANGUAGE]=…` lines, each ending its line, for every language with a catalog
    /// that translates `message` (filled with `values`).
    static func translated(_ key: String, _ message: String, _ values: CustomStringConvertible...) -> String {
        Localized.translations(of: message, values).map { language, text in
            "\(key)[\(language)]=\(String(text.map { $0.isNewline ? " " : $0 }))\n"
        }.joined()
    }

    static func desktopQuoted(_ word: String) -> String {
        var quoted = "\""
        for character in word {
            if "\"`$\\".contains(character) { quoted += "\\\\" }
            quoted.append(character)
        }
        return quoted + "\""
    }

    static func xmlEscaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
