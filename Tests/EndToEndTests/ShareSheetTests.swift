import Foundation
import Testing

/// The share sheet's window (`actshare-sheet`, GTK 4) after the choice, under a real X
/// server: options asked inside it, its progress and Cancel, the result it shows (Open),
/// a failure in words, and the row of paired devices (a second daemon receives).
@Suite(.serialized) struct ShareSheetTests {
    static let artefacts = "\(Sandbox.repository)/.build/test-artefacts"

    /// Mail's recipient is asked in the window itself; a refused answer is said there,
    /// and the mail written is offered to open.
    @Test func theMailRecipientIsAskedInsideTheWindow() throws {
        let display = try ClipboardTests.Display()
        let sandbox = try MailTests.sandbox()
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let note = try sandbox.file("note.txt", "see you at ten\n")
        let maildir = "\(sandbox.root)/Mail"
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
        let display = try ClipboardTests.Display()
        let sandbox = try PrintToPDFTests.sandbox()
        sandbox.extraEnvironment["DISPLAY"] = display.name
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
        let display = try ClipboardTests.Display()
        let sandbox = try PrintToPDFTests.sandbox()
        sandbox.extraEnvironment["DISPLAY"] = display.name
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
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: opened) && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(FileManager.default.contents(atPath: opened) == FileManager.default.contents(atPath: "\(output)/notes.pdf"))
        #expect(try !session.shows("Shared"))
    }

    /// A long activity shows its progress in the window; Esc there (as its Cancel button)
    /// cancels it: the provider sees is_cancelled and actshare exits 4.
    @Test func cancellingInTheWindowCancelsTheActivity() throws {
        let display = try ClipboardTests.Display()
        let (sandbox, _) = try IsolationTests.sandbox("wait", IsolationTests.hostile("wait", perform: "hostile_wait_for_cancel", timeout: "30s"))
        sandbox.extraEnvironment["DISPLAY"] = display.name
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
        // With --json the caller shows the result: the window has closed.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try !session.shows("Hostile wait") && !session.shows("Share"))
    }

    /// The row of paired devices: a reachable one (beta, whose daemon runs) comes first in
    /// the accent colour, an unreachable one (atlas, stopped) after it in grey; one click
    /// on beta hands the file off, and beta's daemon receives it.
    @Test func aPairedDeviceInTheRowSendsWithOneClick() throws {
        let display = try ClipboardTests.Display()
        let a = try HandoffTests.Machine("alpha", port: 27_301)
        let b = try HandoffTests.Machine("beta", port: 27_302)
        let gone = try HandoffTests.Machine("atlas", port: 27_303)
        for peer in [b, gone] {
            let (asked, waited) = try HandoffTests.pair(a, peer)
            #expect(asked.status == 0 && waited.status == 0, "\(asked.stderr) / \(waited.stderr)")
        }
        gone.terminate()
        a.sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        a.sandbox.extraEnvironment["DISPLAY"] = display.name
        let notes = try a.sandbox.file("notes.txt", "for the other machine\n")
        let session = try DesktopSession(["share", notes], environment: a.sandbox.environment, display: display)
        _ = try session.window("Share")
        // Adwaita's accent (#3584e4): the reachable device's avatar, once the daemon said.
        let found = try session.area(of: (0x35, 0x84, 0xe4))
        try session.screenshot(to: "\(Self.artefacts)/sheet-devices.png")
        let avatar = try #require(found, "no reachable device shown")
        // The unreachable one's avatar: Adwaita's text colour at 15 % over the window's.
        let grey = try #require(try session.area(of: (216, 216, 216), tolerance: 2, seconds: 0), "no unreachable device shown")
        #expect(grey.x > avatar.x + 40, "the unreachable device comes after the reachable one")
        try session.click(x: avatar.x, y: avatar.y)
        let (status, _) = session.finish()
        #expect(status == 0)
        let received = "\(b.sandbox.root)/home/Downloads/notes.txt"
        #expect(FileManager.default.contents(atPath: received) == Data("for the other machine\n".utf8))
    }
}
