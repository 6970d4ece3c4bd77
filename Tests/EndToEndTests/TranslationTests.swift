import ActShareCore
import Foundation
import Testing

/// actshare in German (LANGUAGE=de): the window, the terminal's lines and errors, and the
/// file managers' entries; and the German catalog covers every message the build extracts.
@Suite struct TranslationTests {
    /// A sandbox whose programs speak German: LANGUAGE counts outside the C locale.
    static func german(_ sandbox: Sandbox) {
        sandbox.extraEnvironment["LANGUAGE"] = "de"
        sandbox.extraEnvironment["LANG"] = "C.UTF-8"
    }

    /// po/de.po translates every message of the template the build made from the sources
    /// (scripts/make-pot), and its format strings match (msgfmt --check).
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

    /// Errors on a terminal are German, the daemon's too (its answer carries the phrase,
    /// the CLI says it in its own language); `--json` stays English, for programs.
    @Test func theTerminalsErrorsSpeakGerman() throws {
        let sandbox = try Sandbox()
        Self.german(sandbox)
        let file = try sandbox.file("eins.txt", "eins\n")
        let unknown = try sandbox.run("perform", "org.example.none", file)
        #expect(unknown.status == 3)
        #expect(unknown.stderr == "actshare: kein Anbieter bietet den Aktivitätstyp org.example.none an\n", "\(unknown.stderr)")
        let json = try sandbox.run("perform", "org.example.none", "--json", file)
        #expect(json.stdout.contains(#""error":"no provider offers activity type org.example.none""#), "\(json.stdout)")
        #expect(json.stderr == unknown.stderr)
        // actshare's own check of the command line, and the line that says where help is.
        let both = try sandbox.run("handoff", "send", "--all", "--device", "beta", file)
        #expect(both.status == 2)
        #expect(both.stderr == "actshare: --device NAME oder --all angeben, nicht beides\nAufruf: siehe „actshare handoff send --help“.\n", "\(both.stderr)")
        // A value is put in its place as it is, even where it looks like one.
        let odd = try sandbox.run("perform", "org.example.%s", file)
        #expect(odd.stderr == "actshare: kein Anbieter bietet den Aktivitätstyp org.example.%s an\n", "\(odd.stderr)")

        // The daemon runs in English (in a network namespace of its own); its answer is
        // said in German here.
        let link = try NetworkLink(hosts: 1, tag: "tr")
        let machine = try HandoffTests.Machine("alpha", namespace: link.hosts[0], daemonArguments: ["--discovery", "static"])
        Self.german(machine.sandbox)
        let note = try machine.sandbox.file("note.txt", "hi\n")
        let nobody = try machine.run("handoff", "send", "--device", "nobody", note)
        #expect(nobody.status == 2)
        #expect(nobody.stderr == "actshare: kein gekoppeltes Gerät heißt nobody\n", "\(nobody.stderr)")
        // In English, the same answer reads as the daemon wrote it.
        machine.sandbox.extraEnvironment["LANGUAGE"] = "en"
        #expect(try machine.run("handoff", "send", "--device", "nobody", note).stderr == "actshare: no paired device is called nobody\n")
    }

    /// The translators' template has each error's message as Phrase makes it at run time:
    /// scripts/extract-phrases reads the literal as the compiler's interpolation does.
    @Test func theTemplateHasEachMessageAsThePhraseMakesIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("phrases-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("Sample.swift").path
        let path = "p", count = 3
        let made: [Phrase] = [
            "\(path) is 100% read, \(count) \"times\"",
            "nested \(path.map { "\($0)" }.joined(separator: "(")) end",
            "tab\tand \u{2026}",
        ]
        // The same literals, as a Swift source holds them.
        try #"""
            throw ActShareError(.io, "\(path) is 100% read, \(count) \"times\"")
            throw CommandFailure(
                .badInput,
                "nested \(path.map { "\($0)" }.joined(separator: "(")) end")
            let message: Phrase = "tab\tand \u{2026}"
            """#.write(toFile: source, atomically: true, encoding: .utf8)
        let template = "\(folder.path)/sample.pot"
        let extracted = try Sandbox.execute("\(Sandbox.repository)/scripts/extract-phrases", [template, source],
                                            environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let read = try Sandbox.execute("/usr/bin/msgcat", ["--no-wrap", template], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], stdin: nil)
        let ids = read.stdout.split(separator: "\n").filter { $0.hasPrefix("msgid \"") }.map { String($0.dropFirst(7).dropLast()) }.filter { !$0.isEmpty }
        let expected = made.map { $0.message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\t", with: "\\t") }
        #expect(ids == expected, "\(read.stdout)")
    }
}
