import Foundation
import Testing

/// The share sheet's window (`actshare-sheet`, GTK 4) after the choice, under a real X
/// server: options asked inside it, its progress and Cancel, the result it shows (Open),
/// a failure in words, and the row of paired devices (a second daemon receives).
@Suite(.serialized) struct ShareSheetTests {
    static let artefacts = "\(Sandbox.repository)/.build/test-artefacts"

    /// An X server of the test's own, which `sandbox`'s programs are shown on.
    static func display(for sandbox: Sandbox) throws -> ClipboardTests.Display {
        let display = try ClipboardTests.Display()
        sandbox.extraEnvironment["DISPLAY"] = display.name
        return display
    }

    /// Mail's sandbox on a display, a note to send, and the Maildir it is delivered to.
    static func mailSetUp() throws -> (sandbox: Sandbox, display: ClipboardTests.Display, note: String, maildir: String) {
        let sandbox = try MailTests.sandbox()
        return (sandbox, try display(for: sandbox), try sandbox.file("note.txt", "see you at ten\n"), "\(sandbox.root)/Mail")
    }

    /// Mail's recipient is asked in the window itself; a refused answer is said there,
    /// and the mail written is offered to open.
    @Test func theMailRecipientIsAskedInsideTheWindow() throws {
        let (sandbox, display, note, maildir) = try Self.mailSetUp()
        let session = try DesktopSession(["share", "-o", "spool=maildir:\(maildir)", "--", note], environment: sandbox.environment, display: display)
        let sheet = try session.window("Share")
        #expect(try session.commandLine(of: sheet).first?.hasSuffix("/actshare-sheet") == true)
        try session.answer(sheet, typing: "mail", keys: ["Return"])
        // The same window asks, titled by the activity.
        let asking = try session.window("Mail")
        #expect(asking == sheet)
        try session.answer(asking, typing: "not an address", keys: ["Return"])
        try session.screenshot(to: "\(Self.artefacts)/sheet-asks.png")
        try session.answer(asking, keys: ["ctrl+a", "BackSpace"])
        try session.answer(asking, typing: "ann@example.org", keys: ["Return"])
        // The result stays until closed; actshare has ended.
        let shown = try session.window("Shared")
        let (status, _) = session.finish()
        #expect(status == 0)
        #expect(try MailTests.read("maildir", maildir).first?["to"] as? [[String]] == [["", "ann@example.org"]])
        try session.answer(shown, keys: ["Escape"])
        #expect(try !session.shows("Shared"))
    }

    /// A failure is said in words in the window, which stays after actshare ended.
    @Test func aFailureIsShownInTheWindow() throws {
        let sandbox = try PrintToPDFTests.sandbox()
        let display = try Self.display(for: sandbox)
        let notes = try sandbox.file("notes.txt", "some words here\n")
        let session = try DesktopSession(
            ["share", "-o", "output-dir=\(sandbox.root)/no such folder", "--", notes], environment: sandbox.environment, display: display)
        try session.answer(try session.window("Share"), typing: "pdf", keys: ["Return"])
        let failed = try session.window("Share failed")
        let (status, _) = session.finish()
        #expect(status == 2)
        try session.screenshot(to: "\(Self.artefacts)/sheet-failed.png")
        try session.answer(failed, keys: ["Escape"])
        #expect(try !session.shows("Share failed"))
    }

    /// A PDF made is offered to open: Enter opens it with the desktop's application for
    /// PDFs (here one that copies what it is given).
    @Test func theMadePDFOpensFromTheWindow() throws {
        let sandbox = try PrintToPDFTests.sandbox()
        let display = try Self.display(for: sandbox)
        let opened = "\(sandbox.root)/opened.pdf"
        try Sandbox.write("""
            [Desktop Entry]
            Type=Application
            Name=Test Viewer
            Exec=/bin/cp %f \(opened)
            MimeType=application/pdf;

            """, to: "\(sandbox.root)/data/applications/test-viewer.desktop")
        try Sandbox.write("[Default Applications]\napplication/pdf=test-viewer.desktop\n", to: "\(sandbox.root)/config/mimeapps.list")
        let notes = try sandbox.file("notes.txt", "some words here\n")
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let session = try DesktopSession(["share", "-o", "output-dir=\(output)", "--", notes], environment: sandbox.environment, display: display)
        try session.answer(try session.window("Share"), typing: "pdf", keys: ["Return"])
        let shown = try session.window("Shared")
        #expect(session.finish().status == 0)
        try session.screenshot(to: "\(Self.artefacts)/sheet-saved.png")
        try session.answer(shown, keys: ["Return"])
        eventually { FileManager.default.fileExists(atPath: opened) }
        #expect(FileManager.default.contents(atPath: opened) == FileManager.default.contents(atPath: "\(output)/notes.pdf"))
        #expect(try !session.shows("Shared"))
    }

    /// A long activity shows its progress in the window; Esc there (as its Cancel button)
    /// cancels it: the provider sees is_cancelled and actshare exits 4.
    @Test func cancellingInTheWindowCancelsTheActivity() throws {
        let (sandbox, _) = try IsolationTests.sandbox("wait", IsolationTests.hostile("wait", perform: "hostile_wait_for_cancel", timeout: "30s"))
        let display = try Self.display(for: sandbox)
        let text = try sandbox.file("a.txt", "some words\n")
        let session = try DesktopSession(["share", text, "--json"], environment: sandbox.environment, display: display)
        // A space is typed into the search, not taken as a press of the focused tile.
        try session.answer(try session.window("Share"), typing: "hostile wait", keys: ["Return"])
        let running = try session.window("Hostile wait")
        try session.screenshot(to: "\(Self.artefacts)/sheet-progress.png")
        try session.answer(running, keys: ["Escape"])
        let (status, output) = session.finish()
        #expect(status == 4)
        let result = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        #expect(result["activity"] as? String == "org.test.wait.go")
        #expect(result["completed"] as? Bool == false)
        // With --json the caller shows the result: the window closes.
        #expect(eventually { (try? !session.shows("Hostile wait") && !session.shows("Share")) == true })
    }

    /// The buttons of the devices' row that `matching` picks, once there are `count` of
    /// them: the row is filled once the daemon has said which devices are reachable.
    static func rowButtons(on desktop: AccessibleDesktop, count: Int, matching: (String) -> Bool) throws -> [String] {
        var buttons: [String] = []
        try eventually {
            buttons = try desktop.tree().filter(matching)
            return buttons.count == count
        }
        return buttons
    }

    /// The row of paired devices: a reachable one (beta, whose daemon runs) comes first,
    /// an unreachable one (atlas, stopped) after it, each named for a screen reader with
    /// what its colour says; pressing beta (as Orca does, through AT-SPI) hands the file
    /// off, beta's daemon receives it, and the result names beta by its name.
    @Test func aPairedDeviceInTheRowSendsWithOneClick() throws {
        let a = try HandoffTests.Machine("alpha")
        let b = try HandoffTests.Machine("beta")
        let gone = try HandoffTests.Machine("atlas")
        for peer in [b, gone] {
            let (asked, waited) = try HandoffTests.pair(a, peer)
            #expect(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        }
        gone.terminate()
        // The daemon asks its devices (as it does behind every list): the row says what it found.
        #expect(try a.run("handoff", "devices").status == 0)
        let desktop = try AccessibleDesktop.showing(a.sandbox)
        a.sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let notes = try a.sandbox.file("notes.txt", "for the other machine\n")
        let session = try DesktopSession(["share", "--json", notes], environment: a.sandbox.environment, display: desktop.display)
        _ = try session.window("Share")
        let devices = try Self.rowButtons(on: desktop, count: 2) { $0.hasPrefix("push button|Hand Off: ") }
        try session.screenshot(to: "\(Self.artefacts)/sheet-devices.png")
        #expect(devices.map { $0.split(separator: "|")[1] } == [
            "Hand Off: beta", "Hand Off: atlas, not reachable now: the files wait until it is",
        ], "\(devices)")
        #expect(try desktop.atspi(["press", "Hand Off: beta"]).status == 0)
        let (status, output) = session.finish()
        #expect(status == 0)
        let received = "\(b.sandbox.root)/home/Downloads/notes.txt"
        #expect(FileManager.default.contents(atPath: received) == Data("for the other machine\n".utf8))
        #expect(String(decoding: output, as: UTF8.self).contains("\"text\":\"sent 1 file to beta\""), "\(String(decoding: output, as: UTF8.self))")
    }

    /// Each paired device of the row has a second button, Copy to Device (the Hand Off
    /// provider's second activity, offering the same device), named for a screen reader
    /// "Copy to Device: NAME": pressed (through AT-SPI), the file is offered on beta's clipboard
    /// — alpha has no display, so its own clipboard plays no part — and arrives on beta
    /// only when an application there pastes it.
    @Test func theRowsCopyButtonPutsTheItemsOnTheDevicesClipboard() throws {
        let betaDisplay = try ClipboardTests.Display()
        let a = try HandoffTests.Machine("alpha")
        let b = try HandoffTests.Machine("beta", environment: ["DISPLAY": betaDisplay.name])
        let (asked, waited) = try HandoffTests.pair(a, b)
        #expect(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        let desktop = try AccessibleDesktop.showing(a.sandbox)
        a.sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let notes = try a.sandbox.file("notes.txt", "for beta's clipboard\n")
        let session = try DesktopSession(["share", "--json", notes], environment: a.sandbox.environment, display: desktop.display)
        _ = try session.window("Share")
        let buttons = try Self.rowButtons(on: desktop, count: 2) { $0.hasPrefix("push button|") && $0.contains(": beta") }
        #expect(buttons.map { $0.split(separator: "|")[1] } == ["Hand Off: beta", "Copy to Device: beta"], "\(buttons)")
        // A sighted user reads it too: the activity's words on it, and the device's name on hover.
        #expect(try desktop.tree().contains { $0.hasPrefix("label|Copy to Device|") }, "the copy button says what it does")
        #expect(try desktop.atspi(["press", "Copy to Device: beta"]).status == 0)
        let (status, output) = session.finish()
        #expect(status == 0)
        #expect(String(decoding: output, as: UTF8.self).contains("\"text\":\"copied to beta's clipboard\""), "\(String(decoding: output, as: UTF8.self))")
        let downloads = "\(b.sandbox.root)/home/Downloads", arrived = "\(downloads)/notes.txt"
        #expect(!FileManager.default.fileExists(atPath: arrived), "sent before it was pasted")
        let uris = String(decoding: try ClipboardTests.paste("text/uri-list", display: betaDisplay, seconds: 10), as: UTF8.self)
        #expect(uris == UniversalClipboardTests.fileURI(arrived) + "\r\n", "\(uris) \(b.log.suffix(800))")
        #expect(FileManager.default.contents(atPath: arrived) == Data("for beta's clipboard\n".utf8))
    }

    /// The file managers' entries open the window when run as the file manager runs them,
    /// without a terminal: Nautilus's script (the selection in its variable) and Thunar's
    /// action (its command with %F expanded as Thunar does: each path shell-quoted by GLib,
    /// the line split by g_shell_parse_argv).
    @Test func theFileManagersEntriesOpenTheWindow() throws {
        let sandbox = try Sandbox()
        let display = try Self.display(for: sandbox)
        let notes = try sandbox.file("it's notes.txt", "three short words\n")
        #expect(try sandbox.run("integrate", "nautilus").status == 0)
        sandbox.extraEnvironment["NAUTILUS_SCRIPT_SELECTED_FILE_PATHS"] = "\(notes)\n"
        let nautilus = try DesktopSession(
            [FileManager.default.displayName(atPath: notes)], executable: "\(sandbox.root)/data/nautilus/scripts/Share",
            environment: sandbox.environment, display: display)
        let sheet = try nautilus.window("Share")
        #expect(try nautilus.commandLine(of: sheet).first?.hasSuffix("/actshare-sheet") == true)
        try nautilus.answer(sheet, typing: "count", keys: ["Return"])
        let counted = nautilus.finish()
        #expect(counted.status == 0)
        #expect(String(decoding: counted.output, as: UTF8.self).contains("3 words, 1 lines, 18 bytes"))

        #expect(try sandbox.run("integrate", "thunar").status == 0)
        let actions = try String(contentsOfFile: "\(sandbox.root)/config/Thunar/uca.xml", encoding: .utf8)
        let command = try #require(actions.components(separatedBy: "<command>").last?.components(separatedBy: "</command>").first)
        let expand = """
            import json, sys
            from xml.sax.saxutils import unescape
            from gi.repository import GLib
            ok, argv = GLib.shell_parse_argv(unescape(sys.argv[1]).replace("%F", GLib.shell_quote(sys.argv[2])))
            print(json.dumps(argv))
            """
        let expanded = try Sandbox.execute("/usr/bin/python3", ["-c", expand, command, notes], environment: [:], stdin: nil)
        let argv = try #require(try JSONSerialization.jsonObject(with: Data(expanded.stdout.utf8)) as? [String], "\(expanded.stderr)")
        let thunar = try DesktopSession(Array(argv.dropFirst()), executable: argv[0], environment: sandbox.environment, display: display)
        try thunar.answer(try thunar.window("Share"), keys: ["Escape"])
        #expect(thunar.finish().status == 4)
    }

    /// One image is shown small at the top; an image that claims 60000 × 60000 pixels (a
    /// decompression bomb, 3.6 GB once decoded) is not decoded: the window shows its
    /// type's icon and answers at once.
    @Test func oneImageIsShownSmallAndABombIsNot() throws {
        let sandbox = try Sandbox()
        let display = try Self.display(for: sandbox)
        let photo = "\(sandbox.root)/files/photo.png", bomb = "\(sandbox.root)/files/bomb.png"
        let make = """
            import struct, sys, zlib
            from PIL import Image
            Image.new('RGB', (400, 300), (200, 30, 160)).save(sys.argv[1])
            def chunk(kind, data): return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
            header = struct.pack('>IIBBBBB', 60000, 60000, 8, 2, 0, 0, 0)
            open(sys.argv[2], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(b'\\0' * 65536)) + chunk(b'IEND', b''))
            """
        try FileManager.default.createDirectory(atPath: "\(sandbox.root)/files", withIntermediateDirectories: true)
        let made = try Sandbox.execute("/usr/bin/python3", ["-c", make, photo, bomb], environment: [:], stdin: nil)
        #expect(made.status == 0, "\(made.stderr)")
        let shown = try DesktopSession(["share", photo], environment: sandbox.environment, display: display)
        let window = try shown.window("Share")
        let picture = try #require(try shown.area(of: (200, 30, 160), tolerance: 3), "no thumbnail; actshare said: \(shown.errors)")
        #expect(picture.y < 80, "at the top: \(picture)")
        try shown.screenshot(to: "\(Self.artefacts)/sheet-image.png")
        try shown.answer(window, keys: ["Escape"])
        #expect(shown.finish().status == 4)

        let refused = try DesktopSession(["share", bomb], environment: sandbox.environment, display: display)
        try refused.answer(try refused.window("Share"), keys: ["Escape"])
        #expect(refused.finish().status == 4)
    }

    /// A file manager's entry for one activity (Dolphin's "Share > Mail", `--activity`):
    /// the window opens on it, asks for the recipient and shows the result.
    @Test func oneActivityFromAFileManagerAsksInTheWindow() throws {
        let (sandbox, display, note, maildir) = try Self.mailSetUp()
        let session = try DesktopSession(
            ["share", "--activity", "org.actshare.mail", "--picker", "auto", "-o", "spool=maildir:\(maildir)", "--", note],
            environment: sandbox.environment, display: display)
        let asking = try session.window("Mail")
        #expect(try session.commandLine(of: asking).first?.hasSuffix("/actshare-sheet") == true)
        try session.answer(asking, typing: "ann@example.org", keys: ["Return"])
        let shown = try session.window("Shared")
        #expect(session.finish().status == 0)
        #expect(try MailTests.read("maildir", maildir).first?["to"] as? [[String]] == [["", "ann@example.org"]])
        try session.answer(shown, keys: ["Escape"])
    }
}
