import Foundation
import Testing

/// The share sheet's window as a screen-reader user and a keyboard user meet it: every
/// part named as Orca reads it (AT-SPI), arrows from the first tile, Esc that clears a
/// search first, a refused answer kept, a failure in one sentence with its details, the
/// window modal over its parent and fitted to its content (openbox places it).
@Suite(.serialized) struct ShareSheetAccessibilityTests {
    static let artefacts = "\(Sandbox.repository)/.build/test-artefacts"

    /// A node's name in a `ROLE|NAME|STATES` line.
    static func name(_ node: String) -> String {
        String(node.split(separator: "|", omittingEmptySubsequences: false).dropFirst().first ?? "")
    }

    /// The nodes a person acts on: each must have a name that is not a widget class's.
    static func unnamed(_ tree: [String]) -> [String] {
        let acted = ["push button|", "entry|", "text|", "table cell|", "toggle button|", "check box|"]
        return tree.filter { node in
            acted.contains { node.hasPrefix($0) } && (name(node).isEmpty || name(node).hasPrefix("Gtk"))
        }
    }

    /// Mail asked inside the window: the tiles, the search, the question's field and the
    /// buttons are named; a refused address stays in the field with the reason beside it,
    /// to be mended, not typed again.
    @Test func aScreenReaderReadsEveryPartAndARefusedAnswerStays() throws {
        let sandbox = try MailTests.sandbox()
        let desktop = try AccessibleDesktop.showing(sandbox)
        let note = try sandbox.file("note.txt", "see you at ten\n")
        let session = try DesktopSession(["share", "-o", "spool=maildir:\(sandbox.root)/Mail", "--", note],
                                         environment: sandbox.environment, display: desktop.display)
        let sheet = try session.window("Share")
        let choosing = try desktop.tree()
        #expect(choosing.contains { $0.hasPrefix("entry|Search activities|") }, "\(choosing)")
        #expect(choosing.contains { $0.hasPrefix("table|Activities|") }, "\(choosing)")
        #expect(choosing.contains { $0.hasPrefix("table cell|Mail|") }, "\(choosing)")
        #expect(Self.unnamed(choosing).isEmpty, "\(Self.unnamed(choosing))")

        try session.answer(sheet, typing: "mail", keys: ["Return"])
        _ = try session.window("Mail")
        try session.answer(sheet, typing: "not an address", keys: ["Return"])
        let asking = try desktop.tree(once: { $0.contains { $0.contains("|The value ") } })
        #expect(asking.contains { $0.hasPrefix("text|To|") }, "the field is named by its question: \(asking)")
        #expect(asking.contains { $0.hasPrefix("push button|Cancel|") } && asking.contains { $0.hasPrefix("push button|Continue|") }, "\(asking)")
        #expect(asking.contains { $0.contains("|The value ") }, "the reason is shown: \(asking)")
        #expect(Self.unnamed(asking).isEmpty, "\(Self.unnamed(asking))")
        let kept = try desktop.atspi(["text", "To"])
        #expect(kept.stdout == "not an address\n", "a refused answer stays: \(kept.stdout)\(kept.stderr)")
        try session.screenshot(to: "\(Self.artefacts)/sheet-asks.png")
        try session.answer(sheet, keys: ["ctrl+a", "BackSpace"])
        try session.answer(sheet, typing: "ann@example.org", keys: ["Return"])
        _ = try session.window("Shared")
        #expect(try desktop.atspi(["press", "Close"]).status == 0)
        #expect(session.finish().status == 0)
    }

    /// Arrows move from the first tile at once, and the tile Enter will choose is the
    /// selected one; Shift+Tab reaches the search field and Tab the first tile again; a
    /// search with no match says so; Esc clears the search (the share goes
    /// on), and Enter then performs what the arrows chose.
    @Test func theKeyboardWorksFromTheFirstTile() throws {
        let sandbox = try Sandbox()
        let desktop = try AccessibleDesktop.showing(sandbox)
        let listed = try sandbox.run("list", "--json", "--text", "hello world")
        let offered = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let activities = try #require(offered["activities"] as? [[String: Any]])
        let titles = activities.compactMap { $0["title"] as? String }, types = activities.compactMap { $0["type"] as? String }
        try #require(titles.count >= 3)
        let session = try DesktopSession(["share", "--json", "--text", "hello world"], environment: sandbox.environment, display: desktop.display)
        let sheet = try session.window("Share")
        #expect(try desktop.focused() == "table cell|\(titles[0])|focused,selected,sensitive")
        try session.answer(sheet, keys: ["Right"])
        #expect(try desktop.focused() == "table cell|\(titles[1])|focused,selected,sensitive")
        // Shift+Tab leaves the grid for the search field, and Tab comes back to the first tile.
        try session.answer(sheet, keys: ["shift+Tab"])
        let search = try desktop.focused()
        #expect(search.contains("|Search activities|") && search.contains("focused"), "\(search)")
        try session.answer(sheet, keys: ["Tab"])
        #expect(try desktop.focused() == "table cell|\(titles[0])|focused,selected,sensitive")
        try session.answer(sheet, typing: "zzz", keys: [])
        let searched = try desktop.tree(once: { $0.contains { $0.hasPrefix("label|No activity matches") } })
        #expect(searched.contains { $0.hasPrefix("label|No activity matches “zzz”|") }, "\(searched)")
        #expect(!searched.contains { $0.hasPrefix("table cell|") }, "\(searched)")
        try session.screenshot(to: "\(Self.artefacts)/sheet-no-match.png")
        try session.answer(sheet, keys: ["Escape"])
        #expect(try session.shows("Share"), "Esc with a search clears it, and the share goes on")
        #expect(try desktop.atspi(["text", "Search activities"]).stdout == "\n")
        try session.answer(sheet, keys: ["Right", "Right", "Return"])
        let (status, output) = session.finish()
        let result = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        #expect(result["activity"] as? String == types[2], "\(result) \(status)")
    }

    /// A provider that crashes: the window says in one sentence that it stopped working;
    /// the technical line is behind Details, for its developer.
    @Test func aCrashShowsOneSentenceAndItsDetails() throws {
        let (sandbox, _) = try IsolationTests.sandbox("crash", IsolationTests.hostile("crash", perform: "hostile_segv"))
        let desktop = try AccessibleDesktop.showing(sandbox)
        let note = try sandbox.file("note.txt", "words\n")
        let session = try DesktopSession(["share", note], environment: sandbox.environment, display: desktop.display)
        try session.answer(try session.window("Share"), typing: "hostile crash", keys: ["Return"])
        _ = try session.window("Share failed")
        let failed = try desktop.tree()
        #expect(failed.contains { $0.hasPrefix("label|Hostile crash stopped working|") }, "\(failed)")
        #expect(!failed.contains { $0.contains("SIGSEGV") }, "the developer's line is not read out first: \(failed)")
        #expect(try desktop.atspi(["press", "Details"]).status == 0)
        let details = try desktop.tree(once: { $0.contains { $0.contains("crash.yaml:") } })
        #expect(details.contains { $0.contains("crash.yaml:") && $0.contains("perform hook crashed") && $0.contains("SIGSEGV") }, "\(details)")
        try session.screenshot(to: "\(Self.artefacts)/sheet-failed.png")
        #expect(try desktop.atspi(["press", "Close"]).status == 0)
        #expect(session.finish().status == 1)
    }

    /// Given the calling application's window, the sheet is its modal dialog, and the
    /// window manager places it over that window; it is as tall as its content.
    @Test func theWindowIsAModalDialogOverItsParent() throws {
        let sandbox = try Sandbox()
        let desktop = try AccessibleDesktop.showing(sandbox)
        let parentScript = try sandbox.file("parent.py", """
            import gi
            gi.require_version('Gtk', '4.0')
            from gi.repository import Gtk, GLib
            window = Gtk.Window(title='Parent')
            window.set_default_size(400, 300)
            window.present()
            GLib.timeout_add_seconds(60, lambda: exit(0))
            while True:
                GLib.MainContext.default().iteration(True)
            """)
        let parent = try ClipboardTests.Server(["/usr/bin/python3", parentScript],
                                              environment: desktop.environment.map { "\($0)=\($1)" } + ["PATH=/usr/bin:/bin"])
        defer { parent.terminate() }
        let parentID = try desktop.window("Parent")
        let session = try DesktopSession(
            ["share", "--parent-window", "x11:" + String(Int(parentID)!, radix: 16), "--text", "hi"],
            environment: sandbox.environment, display: desktop.display)
        let sheet = try session.window("Share")
        let xprop = { (id: String, property: String) throws -> String in
            try Sandbox.execute("/usr/bin/xprop", ["-id", id, property], environment: ["DISPLAY": desktop.display.name], stdin: nil).stdout
        }
        // Managed: the window manager has set its state.
        #expect(eventually { (try? xprop(sheet, "_NET_WM_STATE"))?.contains("_NET_WM_STATE_MODAL") == true })
        #expect(try xprop(sheet, "_NET_WM_WINDOW_TYPE").contains("_NET_WM_WINDOW_TYPE_DIALOG"))
        let (p, s) = (try desktop.geometry(of: parentID), try desktop.geometry(of: sheet))
        let centre = (x: s.x + s.width / 2, y: s.y + s.height / 2)
        #expect(centre.x >= p.x && centre.x <= p.x + p.width && centre.y >= p.y && centre.y <= p.y + p.height,
                "the sheet \(s) is placed over its parent \(p)")
        // Sized to its content (the examples' activities), not a fixed 440 pixels.
        #expect(s.height < 440, "\(s)")
        try session.answer(sheet, keys: ["Escape"])
        #expect(session.finish().status == 4)
    }

    /// Thirty files: the header says how many, names the first ones and the total size.
    @Test func thirtyFilesAreCountedNamedAndSized() throws {
        let sandbox = try Sandbox()
        let desktop = try AccessibleDesktop.showing(sandbox)
        let files = try (0..<30).map { try sandbox.file(String(format: "f%02d.txt", $0), "ten bytes\n") }
        let session = try DesktopSession(["share"] + files, environment: sandbox.environment, display: desktop.display)
        let sheet = try session.window("Share")
        let header = try desktop.tree()
        for label in ["label|30 items|", "label|300 bytes in all|", "label|f00.txt, f01.txt, f02.txt and 27 more|"] {
            #expect(header.contains { $0.hasPrefix(label) }, "\(label) in \(header)")
        }
        try session.screenshot(to: "\(Self.artefacts)/sheet-many-items.png")
        try session.answer(sheet, keys: ["Escape"])
        #expect(session.finish().status == 4)
    }

    /// In a dark theme (GTK_THEME=Adwaita:dark, as the desktop's style sets it), the window
    /// is dark: its background where no widget is, sampled from the screen.
    @Test func aDarkThemeIsHonoured() throws {
        let sandbox = try Sandbox()
        let desktop = try AccessibleDesktop.showing(sandbox)
        sandbox.extraEnvironment["GTK_THEME"] = "Adwaita:dark"
        let notes = try sandbox.file("notes.txt", "some words\n")
        let session = try DesktopSession(["share", notes], environment: sandbox.environment, display: desktop.display)
        let sheet = try session.window("Share")
        let picture = "\(Self.artefacts)/sheet-dark.png"
        try session.screenshot(to: picture)
        let place = try desktop.geometry(of: sheet)
        // Just inside the window's bottom edge: its background.
        let x = place.x + 4, y = place.y + place.height - 4
        let sample = try Sandbox.execute("/usr/bin/python3", ["-c", "import sys; from PIL import Image; print(sum(Image.open(sys.argv[1]).convert('RGB').getpixel((int(sys.argv[2]), int(sys.argv[3])))) // 3)", picture, String(x), String(y)],
                                         environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        #expect((Int(sample.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 255) < 80, "background brightness \(sample.stdout)")
        try session.answer(sheet, keys: ["Escape"])
        #expect(session.finish().status == 4)
    }

    /// A long title is cut in the middle on its tile, at most two lines, and keeps the
    /// window its width; a screen reader hears it whole.
    @Test func aLongTitleIsCutNotTheWindowWidened() throws {
        let title = "Upload to the Shared Team Folder on the Departmental Server in Building Seven (Archive Copy)"
        let (sandbox, _) = try IsolationTests.sandbox("long", Self.helloProvider(name: "Long", activity: "go", title: title))
        let desktop = try AccessibleDesktop.showing(sandbox)
        let session = try DesktopSession(["share", "--text", "hi"], environment: sandbox.environment, display: desktop.display)
        let sheet = try session.window("Share")
        #expect(try desktop.tree().contains { $0.hasPrefix("table cell|\(title)|") })
        let width = try desktop.geometry(of: sheet).width
        #expect(width > 0 && width <= 560, "width \(width)")
        try session.screenshot(to: "\(Self.artefacts)/sheet-long-title.png")
        try session.answer(sheet, keys: ["Escape"])
        #expect(session.finish().status == 4)
    }

    /// A folder option is asked with the desktop's folder chooser beside its field.
    @Test func aFolderOptionOffersTheFolderChooser() throws {
        let manifest = Self.helloProvider(name: "Keeper", activity: "keep", title: "Keep Somewhere",
                                          options: "[{name: into, type: folder, required: true, prompt: Keep in which folder?}]")
        let (sandbox, _) = try IsolationTests.sandbox("keeper", manifest)
        let desktop = try AccessibleDesktop.showing(sandbox)
        let session = try DesktopSession(["share", "--text", "hi"], environment: sandbox.environment, display: desktop.display)
        try session.answer(try session.window("Share"), typing: "keep some", keys: ["Return"])
        let asking = try session.window("Keep Somewhere")
        let tree = try desktop.tree()
        #expect(tree.contains { $0.hasPrefix("text|Keep in which folder?|") } && tree.contains { $0.hasPrefix("push button|Choose a folder|") }, "\(tree)")
        try session.answer(asking, keys: ["Escape"])
        #expect(session.finish().status == 4)
    }

    /// A provider `org.test.NAME` (lower case) of one activity, `TITLE`, that Hello performs,
    /// with `options` (YAML flow) if given.
    static func helloProvider(name: String, activity: String, title: String, options: String? = nil) -> String {
        let id = "org.test.\(name.lowercased())"
        return """
            schema: actshare/provider@1
            id: \(id)
            name: \(name)
            version: 1.0.0
            library: \(Sandbox.cProviders)/libhello.so
            activities:
              - type: \(id).\(activity)
                title: \(title)
                accepts: {kinds: [file, text]}
            \(options.map { "    options: \($0)\n" } ?? "")    hooks:
                  perform: hello_greet
            """
    }
}
