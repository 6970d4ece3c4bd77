import Foundation
import Testing

/// actshare in German (LANGUAGE=de): the window, the terminal's lines, and the file
/// managers' entries; and the German catalog covers every message the build extracts.
@Suite struct TranslationTests {
    /// A sandbox whose programs speak German: LANGUAGE counts outside the C locale.
    static func german(_ sandbox: Sandbox) {
        sandbox.extraEnvironment["LANGUAGE"] = "de"
        sandbox.extraEnvironment["LANG"] = "C.UTF-8"
    }

    /// po/de.po translates every message of the template the build made from the sources
    /// (scripts/build-translations), and its format strings match (msgfmt --check).
    @Test func theGermanCatalogIsComplete() throws {
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let compared = try Sandbox.execute("/usr/bin/msgcmp", ["--use-untranslated", "\(Sandbox.repository)/po/de.po",
                                                               "\(Sandbox.repository)/.build/po/actshare.pot"],
                                           environment: environment, stdin: nil)
        #expect(compared.status == 0, "\(compared.stderr)")
        let checked = try Sandbox.execute("/usr/bin/msgfmt", ["--check", "--statistics", "-o", "/dev/null", "\(Sandbox.repository)/po/de.po"],
                                          environment: environment, stdin: nil)
        #expect(checked.status == 0 && !checked.stderr.contains("untranslated") && !checked.stderr.contains("fuzzy"), "\(checked.stderr)")
    }

    /// The window: its title, its search field and the header for several items.
    @Test func theWindowSpeaksGerman() throws {
        let sandbox = try Sandbox()
        Self.german(sandbox)
        let desktop = try AccessibleDesktop.showing(sandbox)
        let one = try sandbox.file("eins.txt", "eins\n"), two = try sandbox.file("zwei.txt", "zwei\n")
        let session = try DesktopSession(["share", one, two], environment: sandbox.environment, display: desktop.display)
        let sheet = try session.window("Teilen")
        let tree = try desktop.tree()
        for node in ["entry|Aktivitäten suchen|", "label|2 Elemente|", "label|10 Bytes insgesamt|", "label|eins.txt, zwei.txt|"] {
            #expect(tree.contains { $0.hasPrefix(node) }, "\(node) in \(tree)")
        }
        try session.screenshot(to: "\(ShareSheetAccessibilityTests.artefacts)/sheet-german.png")
        try session.answer(sheet, keys: ["Escape"])
        #expect(session.finish().status == 4)
    }

    /// On a terminal: the picker's lines, and what Copy did, said in words.
    @Test func theTerminalSpeaksGerman() throws {
        let sandbox = try Sandbox()
        Self.german(sandbox)
        let one = try sandbox.file("eins.txt", "eins\n"), two = try sandbox.file("zwei.txt", "zwei\n")
        let picked = try sandbox.runOnTerminal(["share", one, two], input: "q\n")
        #expect(picked.stdout.contains("2 Elemente teilen mit:"), "\(picked.stdout)")
        #expect(picked.stdout.contains("1-"), "\(picked.stdout)")
        let display = try ClipboardTests.Display()
        sandbox.extraEnvironment["DISPLAY"] = display.name
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let copied = try sandbox.runOnTerminal(["share", "--activity", "org.actshare.copy-to-clipboard", one, two], input: "")
        #expect(copied.stdout.contains("2 Elemente kopiert"), "\(copied.stdout)")
        // In English, the same line says what Copy did too.
        sandbox.extraEnvironment["LANGUAGE"] = "en"
        let english = try sandbox.runOnTerminal(["share", "--activity", "org.actshare.copy-to-clipboard", one], input: "")
        #expect(english.stdout.contains("Copied 1 item"), "\(english.stdout)")
    }

    /// The file managers' entries carry every translation (Name[de]=…), as desktop entries do.
    @Test func theFileManagersEntriesCarryTheirTranslations() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("integrate", "nemo").status == 0)
        let nemo = try String(contentsOfFile: "\(sandbox.root)/data/nemo/actions/actshare-share.nemo_action", encoding: .utf8)
        #expect(nemo.contains("Name=Share…\nName[de]=Teilen …\n"), "\(nemo)")
        #expect(nemo.contains("Comment[de]=Die ausgewählten Dateien mit einer Aktivität teilen\n"), "\(nemo)")
        // Dolphin's menus are desktop entries, checked as such.
        #expect(try sandbox.run("integrate", "dolphin").status == 0)
        let menus = try FileManager.default.contentsOfDirectory(atPath: "\(sandbox.root)/data/kio/servicemenus")
        let menu = try String(contentsOfFile: "\(sandbox.root)/data/kio/servicemenus/\(try #require(menus.sorted().first))", encoding: .utf8)
        #expect(menu.contains("X-KDE-Submenu=Share\nX-KDE-Submenu[de]=Teilen\n") && menu.contains("Name[de]=Teilen: "), "\(menu)")
        let checked = try Sandbox.execute("/usr/bin/desktop-file-validate", ["\(sandbox.root)/data/kio/servicemenus/\(menus.sorted()[0])"],
                                          environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    }
}
