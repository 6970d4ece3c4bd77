import Foundation
import Testing

/// File-manager entries, the graphical picker under a real X server, and `make install`.
@Suite(.serialized) struct DesktopIntegrationTests {
    static func tool(_ executable: String, _ arguments: [String], environment: [String: String] = ["PATH": "/usr/bin:/bin"]) throws -> Run {
        try Sandbox.execute(executable, arguments, environment: environment, stdin: nil)
    }

    /// Runs actshare without a terminal, waits for its dialog `window` on `display`,
    /// focuses it and types `keys`; returns the exit status, standard output and the
    /// dialog's command line.
    static func runAnsweringDialog(_ sandbox: Sandbox, _ arguments: [String], display: ClipboardTests.Display, window: String,
                                   typing text: String? = nil, keys: [String],
                                   then next: (window: String, keys: [String])? = nil,
                                   screenshot: String? = nil) throws -> (status: Int32, output: Data, dialog: [String]) {
        let session = try DesktopSession(arguments, environment: sandbox.environment, display: display)
        let id = try session.window(window)
        let dialog = try session.commandLine(of: id)
        if let screenshot { try session.screenshot(to: screenshot) }
        try session.answer(id, typing: text, keys: keys)
        if let next { try session.answer(try session.window(next.window), keys: next.keys) }
        let (status, output) = session.finish()
        return (status, output, dialog)
    }

    static let thunarFile = """
        <?xml version="1.0" encoding="UTF-8"?>
        <actions>
        <action>
        \t<icon>utilities-terminal</icon>
        \t<name>Open Terminal Here</name>
        \t<unique-id>1700000000000000-1</unique-id>
        \t<command>exo-open --working-directory %f --launch TerminalEmulator</command>
        \t<description>The user's own action</description>
        \t<patterns>*</patterns>
        \t<startup-notify/>
        \t<directories/>
        </action>
        </actions>

        """

    @Test func everyFileManagerGetsItsEntryAndLosesOnlyThat() throws {
        let sandbox = try Sandbox()
        let data = "\(sandbox.root)/data", config = "\(sandbox.root)/config"
        let thunar = "\(config)/Thunar/uca.xml"
        try FileManager.default.createDirectory(atPath: "\(config)/Thunar", withIntermediateDirectories: true)
        try Self.thunarFile.write(toFile: thunar, atomically: true, encoding: .utf8)
        let usersScript = try sandbox.file("../data/nautilus/scripts/Mine", "#!/bin/sh\necho mine\n")

        for _ in 0..<2 { // twice: the second run changes nothing
            for manager in ["nautilus", "nemo", "caja", "dolphin", "thunar"] {
                let run = try sandbox.run("integrate", manager)
                #expect(run.status == 0, "\(manager): \(run.stderr)")
            }
        }
        let nautilus = "\(data)/nautilus/scripts/Share", caja = "\(config)/caja/scripts/Share"
        for script in [nautilus, caja] {
            #expect(FileManager.default.isExecutableFile(atPath: script))
            #expect(try String(contentsOfFile: script, encoding: .utf8).contains("share --picker auto --"))
        }
        let nemo = try String(contentsOfFile: "\(data)/nemo/actions/actshare-share.nemo_action", encoding: .utf8)
        #expect(nemo.contains("[Nemo Action]") && nemo.contains("Exec=\"\(Sandbox.binary)\" share --picker auto -- %U"))

        // Dolphin: one service menu per activity that takes files, in one "Share" submenu.
        let menus = try FileManager.default.contentsOfDirectory(atPath: "\(data)/kio/servicemenus").sorted()
        #expect(menus == ["actshare-org.example.hello.greet.desktop", "actshare-org.example.hello.sign.desktop",
                          "actshare-org.example.wordcount.count.desktop", "actshare-org.example.wordcount.describe.desktop"])
        for menu in menus {
            let path = "\(data)/kio/servicemenus/\(menu)"
            let validation = try Self.tool("/usr/bin/desktop-file-validate", [path])
            #expect(validation.status == 0 && validation.stdout.isEmpty, "\(menu): \(validation.stdout)")
        }
        let greet = try String(contentsOfFile: "\(data)/kio/servicemenus/actshare-org.example.hello.greet.desktop", encoding: .utf8)
        #expect(greet.contains("MimeType=application/octet-stream;\n"), "no content types in the manifest: any file")
        let count = try String(contentsOfFile: "\(data)/kio/servicemenus/actshare-org.example.wordcount.count.desktop", encoding: .utf8)
        #expect(count.contains("MimeType=text/*;\n"), "the manifest's content types")
        #expect(greet.contains("X-KDE-Submenu=Share") && greet.contains("Exec=\"\(Sandbox.binary)\" share --activity org.example.hello.greet --picker auto -- %F"))

        // Thunar: the user's action stays, and actshare's is there once.
        let xml = try String(contentsOfFile: thunar, encoding: .utf8)
        #expect(try Self.tool("/usr/bin/xmllint", ["--noout", thunar]).status == 0)
        #expect(xml.contains("<unique-id>1700000000000000-1</unique-id>"))
        #expect(xml.components(separatedBy: "<unique-id>actshare-share</unique-id>").count == 2)

        for manager in ["nautilus", "nemo", "caja", "dolphin", "thunar"] {
            #expect(try sandbox.run("integrate", manager, "--uninstall").status == 0)
        }
        #expect(try String(contentsOfFile: thunar, encoding: .utf8) == Self.thunarFile, "uca.xml is as the user left it")
        #expect(FileManager.default.fileExists(atPath: usersScript), "the user's own script stays")
        for gone in [nautilus, caja, "\(data)/nemo/actions/actshare-share.nemo_action"] {
            #expect(!FileManager.default.fileExists(atPath: gone))
        }
        #expect(!FileManager.default.fileExists(atPath: "\(data)/kio"), "the folders it made, left empty, go too")
        #expect(!FileManager.default.fileExists(atPath: "\(data)/nemo") && !FileManager.default.fileExists(atPath: "\(config)/caja"))
        #expect(FileManager.default.fileExists(atPath: usersScript), "a folder with the user's files stays")
    }

    /// A user with no uca.xml of their own: Thunar would read only the one actshare writes,
    /// hiding the system's actions; so it starts from the system's, and `--uninstall`
    /// removes it again, leaving things exactly as they were (issue 13).
    @Test func thunarKeepsTheSystemsActionsAndIsRestoredExactly() throws {
        let sandbox = try Sandbox()
        let system = "\(sandbox.root)/xdg"
        try FileManager.default.createDirectory(atPath: "\(system)/Thunar", withIntermediateDirectories: true)
        try Self.thunarFile.write(toFile: "\(system)/Thunar/uca.xml", atomically: true, encoding: .utf8)
        sandbox.extraEnvironment["XDG_CONFIG_DIRS"] = "\(sandbox.root)/empty:\(system)"
        let user = "\(sandbox.root)/config/Thunar/uca.xml"
        #expect(try sandbox.run("integrate", "thunar").status == 0)
        let written = try String(contentsOfFile: user, encoding: .utf8)
        #expect(written.contains("<name>Open Terminal Here</name>") && written.contains("<unique-id>actshare-share</unique-id>"))
        #expect(try Self.tool("/usr/bin/xmllint", ["--noout", user]).status == 0)
        #expect(try sandbox.run("integrate", "thunar", "--uninstall").status == 0)
        #expect(!FileManager.default.fileExists(atPath: user))
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.root)/config/Thunar"))
    }

    @Test func theNautilusScriptSharesTheSelectedFiles() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("integrate", "nautilus").status == 0)
        let first = try sandbox.file("one two.txt", "a b c\n")
        let second = try sandbox.file("second.txt", "d e\n")
        sandbox.extraEnvironment["NAUTILUS_SCRIPT_SELECTED_FILE_PATHS"] = "\(first)\n\(second)\n"
        // From a terminal the script's actshare asks there: 2 is Describe Items.
        let script = Sandbox.shellQuoted("\(sandbox.root)/data/nautilus/scripts/Share")
        let run = try Sandbox.execute("/usr/bin/script", ["-qec", script, "/dev/null"], environment: sandbox.environment, stdin: Data("2\n".utf8))
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("Share 2 items with:"))
        #expect(run.stdout.contains("type=org.example.wordcount.describe count=2 path=\(first)"))
    }

    @Test func theGraphicalPickerChoosesWithZenity() throws {
        let display = try ClipboardTests.Display()
        let sandbox = try Sandbox()
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let text = try sandbox.file("notes.txt", "some words here\n")
        let offered = try sandbox.run("list", text, "--json").listedTypes()

        // No terminal, --picker zenity. The cursor starts on the first row: Down selects the
        // second, Return chooses it.
        let (status, output, dialog) = try Self.runAnsweringDialog(
            sandbox, ["share", text, "--json", "--picker", "zenity"], display: display, window: "Share", keys: ["Down", "Return"])
        #expect(status == 0)
        // Each activity with its icon: the file of the manifest's icon name, from the theme.
        #expect(dialog.contains("--imagelist"), "\(dialog)")
        let rows = try #require(dialog.firstIndex(of: "--print-column=3")).advanced(by: 1)
        let icons = stride(from: rows, to: dialog.count, by: 3).map { dialog[$0] }
        #expect(icons.count == offered.count)
        #expect(icons.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(icons.contains { $0.hasPrefix("/usr/share/icons/") && $0.contains("/face-smile") }, "Say Hello's face-smile: \(icons)")
        let result = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        #expect(result["activity"] as? String == offered[1])
        #expect(result["completed"] as? Bool == true)
    }

    /// The share sheet's window (GTK 4): what is shared at the top, a search that filters
    /// as one types (anywhere in the window), Enter for the first shown, Esc to cancel.
    @Test func theShareSheetWindowPicksBySearch() throws {
        let display = try ClipboardTests.Display()
        let sandbox = try PrintToPDFTests.sandbox()
        sandbox.providerPath = [Sandbox.examples]
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let text = try sandbox.file("notes.txt", "some words here\n")
        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        // No terminal: --picker auto shows the window. Typing "pdf" leaves Print to PDF.
        let (status, result, dialog) = try Self.runAnsweringDialog(
            sandbox, ["share", text, "--json", "-o", "output-dir=\(output)"], display: display, window: "Share",
            typing: "pdf", keys: ["Return"], screenshot: "\(Sandbox.repository)/.build/test-artefacts/sheet-one-file.png")
        #expect(dialog.first?.hasSuffix("/actshare-sheet") == true, "\(dialog)")
        #expect(status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: result) as? [String: Any])
        #expect(json["activity"] as? String == "org.actshare.print-to-pdf")
        #expect(FileManager.default.fileExists(atPath: "\(output)/notes.pdf"))
        // Esc cancels: exit code 4, nothing performed.
        let (cancelled, _, _) = try Self.runAnsweringDialog(sandbox, ["share", text], display: display, window: "Share", keys: ["Escape"])
        #expect(cancelled == 4)
    }

    /// A window that cannot be shown (a display that is not there) is said, not taken for
    /// a choice.
    @Test func aSheetThatCannotBeShownIsSaid() throws {
        let sandbox = try Sandbox()
        sandbox.extraEnvironment["DISPLAY"] = ":4999"
        let text = try sandbox.file("notes.txt", "words\n")
        let run = try sandbox.run("share", text, "--picker", "sheet")
        #expect(run.status == 2)
        #expect(run.stderr.contains("actshare: --picker sheet: the window (\(Sandbox.repository)/.build/bin/actshare-sheet) could not be shown (status 2)\n"), "\(run.stderr)")
    }

    /// "Share: Mail" with zenity: the recipient is asked in a zenity entry dialog.
    @Test func theMailRecipientIsAskedInADialog() throws {
        let display = try ClipboardTests.Display()
        let sandbox = try MailTests.sandbox()
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let note = try sandbox.file("note.txt", "see you at ten\n")
        let maildir = "\(sandbox.root)/Mail"
        let (status, _, dialog) = try Self.runAnsweringDialog(
            sandbox, ["share", "--activity", "org.actshare.mail", "--picker", "zenity", "-o", "spool=maildir:\(maildir)", "--", note],
            display: display, window: "Mail", typing: "ann@example.org", keys: ["Return"],
            then: (window: "Share", keys: ["Escape"]))  // "Saved … in …/Mail/new": Close
        #expect(status == 0)
        #expect(dialog.contains("--entry") && dialog.contains("--text=To:"), "\(dialog)")
        #expect(try MailTests.read("maildir", maildir).first?["to"] as? [[String]] == [["", "ann@example.org"]])
    }

    @Test func withNoTerminalAndNoDisplayTheChoicesAreListed() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("notes.txt", "words\n")
        let run = try sandbox.run("share", text)
        #expect(run.status == 2)
        #expect(run.stdout.contains("org.example.wordcount.count\tCount Words\n"))
        #expect(run.stderr == "actshare: no terminal, window or dialog (zenity, kdialog) to ask with: choose an activity with --activity TYPE\n")
        let zenity = try sandbox.run("share", text, "--picker", "zenity")
        #expect(zenity.status == 2)
        #expect(zenity.stderr == "actshare: --picker zenity: no display (DISPLAY, WAYLAND_DISPLAY) or zenity is not installed\n")
    }

    /// `meson install` with DESTDIR, from a build directory of the test's own that takes the
    /// Swift programs this test run was built with; then what meson's install log lists is
    /// removed by `ninja uninstall`, and nothing else.
    @Test func anInstalledActshareFindsItsBuiltIns() throws {
        let sandbox = try Sandbox(providerPath: [])
        let root = "\(sandbox.root)/stage"
        let build = "\(sandbox.root)/build"
        let environment = ProcessInfo.processInfo.environment
        let prefix = "\(root)/usr"
        // What is not meson's to remove: kept by `ninja uninstall`.
        let notInstalled = "\(prefix)/share/actshare/providers/mine.yaml"
        try FileManager.default.createDirectory(atPath: "\(prefix)/share/actshare/providers", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: notInstalled, contents: Data("schema: actshare/provider@1\n".utf8)))
        let setup = try Sandbox.execute("/usr/bin/meson", ["setup", "--prefix=/usr", "-Duninstalled_tree=false",
                                                           "-Dswiftpm_bin_dir=\(Sandbox.buildDirectory)", build, Sandbox.repository],
                                        environment: environment, stdin: nil, timeout: 300)
        #expect(setup.status == 0, "\(setup.stdout)\(setup.stderr)")
        let install = try Sandbox.execute("/usr/bin/meson", ["install", "-C", build, "--destdir", root],
                                          environment: environment, stdin: nil, timeout: 600)
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        for file in ["bin/actshare", "libexec/actshare/actshare-daemon", "lib/systemd/user/actshare.service",
                     "libexec/actshare/actshare-provider-host", "lib/actshare/libmail.so",
                     "share/actshare/manifests/printtopdf.yaml", "include/actshare/provider.h", "lib/pkgconfig/actshare.pc",
                     "share/bash-completion/completions/actshare", "share/zsh/site-functions/_actshare",
                     "share/fish/vendor_completions.d/actshare.fish", "share/man/man1/actshare.1",
                     "libexec/actshare/actshare-sheet", "libexec/actshare/actshare-share-service",
                     "share/dbus-1/interfaces/org.actshare.Share1.xml"] {
            #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), "\(file)")
        }
        #expect(try String(contentsOfFile: "\(prefix)/share/dbus-1/services/org.actshare.Share.service", encoding: .utf8)
            == "[D-BUS Service]\nName=org.actshare.Share\nExec=/usr/libexec/actshare/actshare-share-service /usr/bin/actshare\n")
        #expect(try String(contentsOfFile: "\(prefix)/share/man/man1/actshare.1", encoding: .utf8).hasPrefix(".TH ACTSHARE 1"))
        #expect(try String(contentsOfFile: "\(prefix)/share/bash-completion/completions/actshare", encoding: .utf8).contains("-F _actshare actshare"))
        let pkgConfig = ["PKG_CONFIG_PATH": "\(prefix)/lib/pkgconfig", "PKG_CONFIG_ALLOW_SYSTEM_CFLAGS": "1", "PATH": "/usr/bin:/bin"]
        #expect(try Self.tool("/usr/bin/pkg-config", ["--cflags", "actshare"], environment: pkgConfig).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "-I/usr/include")
        #expect(try Self.tool("/usr/bin/pkg-config", ["--variable=providersdir", "actshare"], environment: pkgConfig).stdout == "/usr/share/actshare/providers\n")
        // The SDK, relocated to the staging directory by --define-prefix: the header builds
        // a C provider, the module map and the Swift wrappers type-check, the crate is there.
        func variable(_ name: String) throws -> String {
            try Self.tool("/usr/bin/pkg-config", ["--define-prefix", "--variable=\(name)", "actshare"], environment: pkgConfig).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try variable("modulemapdir") == "\(prefix)/include/actshare")
        #expect(FileManager.default.fileExists(atPath: "\(try variable("rustcrate"))/src/lib.rs"))
        let cflags = try Self.tool("/usr/bin/pkg-config", ["--define-prefix", "--cflags", "actshare"], environment: pkgConfig).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let hello = "\(Sandbox.repository)/Providers/Examples/Hello"
        let compiled = try Self.tool("/usr/bin/cc", ["-shared", "-fPIC", cflags, "\(hello)/hello.c", "-I\(hello)/include", "-o", "\(sandbox.root)/libhello.so"], environment: pkgConfig)
        #expect(compiled.status == 0, "\(compiled.stderr)")
        let swiftSources = try FileManager.default.contentsOfDirectory(atPath: try variable("swiftsources")).map { "\(try variable("swiftsources"))/\($0)" }
        let typechecked = try Sandbox.execute(
            Sandbox.swiftc, ["-typecheck", "-parse-as-library", "-I", try variable("modulemapdir")] + swiftSources,
            environment: ProcessInfo.processInfo.environment, stdin: nil, timeout: 120)
        #expect(typechecked.status == 0, "\(typechecked.stderr)")

        // Run from outside the repository, with the built-ins on: they come from the prefix.
        var installedEnvironment = sandbox.environment
        installedEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let text = try sandbox.file("notes.txt", "words\n")
        let listed = try Sandbox.execute("\(prefix)/bin/actshare", ["list", "--json", text], environment: installedEnvironment, stdin: nil)
        #expect(listed.status == 0, "\(listed.stderr)")
        // Open With too (its front and the GIO part beside it; Mousepad opens text), Quick
        // Share to a Phone (Hand Off's; the QR way needs no paired device), and Save to….
        #expect(try listed.listedTypes() == ["org.actshare.copy-to-clipboard", "org.actshare.mail", "org.actshare.open-with", "org.actshare.print-to-pdf",
                                             "org.actshare.handoff.quickshare", "org.actshare.save"])

        let uninstall = try Sandbox.execute("/usr/bin/ninja", ["-C", build, "uninstall"], environment: environment, stdin: nil, timeout: 120)
        #expect(uninstall.status == 0, "\(uninstall.stdout)\(uninstall.stderr)")
        let left = FileManager.default.enumerator(atPath: prefix)?.allObjects.compactMap { $0 as? String }.filter {
            !FileSystemHelpers.isDirectory("\(prefix)/\($0)")
        } ?? []
        #expect(left == ["share/actshare/providers/mine.yaml"], "left behind: \(left)")
    }
}

enum FileSystemHelpers {
    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}

extension DesktopIntegrationTests {
    /// The progress dialog of an activity chosen with --picker zenity: its Cancel (Escape)
    /// cancels the provider, which sees is_cancelled, and actshare exits 4.
    @Test func cancellingTheProgressDialogCancelsTheActivity() throws {
        let display = try ClipboardTests.Display()
        let (sandbox, _) = try IsolationTests.sandbox("wait", IsolationTests.hostile("wait", perform: "hostile_wait_for_cancel", timeout: "30s"))
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let text = try sandbox.file("a.txt", "some words\n")
        let (status, output, _) = try Self.runAnsweringDialog(
            sandbox, ["share", text, "-a", "org.test.wait.go", "--picker", "zenity", "--json"], display: display, window: "Hostile wait", keys: ["Escape"])
        #expect(status == 4)
        let result = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        #expect(result["activity"] as? String == "org.test.wait.go")
        #expect(result["completed"] as? Bool == false)
    }
}

extension DesktopIntegrationTests {
    /// Without a terminal and with zenity: a failure is shown in a zenity error dialog, and
    /// a PDF made is announced with where it went and an Open button (issue 13).
    @Test func aShareFromAFileManagerShowsItsErrorAndWhereTheResultWent() throws {
        let display = try ClipboardTests.Display()
        let sandbox = try PrintToPDFTests.sandbox()
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let notes = try sandbox.file("notes.txt", "some words here\n")
        let missing = "\(sandbox.root)/no such folder"
        let failed = try Self.runAnsweringDialog(
            sandbox, ["share", "-a", "org.actshare.print-to-pdf", "--picker", "zenity", "-o", "output-dir=\(missing)", "--", notes],
            display: display, window: "Share", keys: ["Return"])
        #expect(failed.status == 2)
        #expect(failed.dialog.contains("--error"), "\(failed.dialog)")
        #expect(failed.dialog.contains { $0.hasPrefix("--text=") && $0.contains(missing) }, "\(failed.dialog)")

        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let saved = try Self.runAnsweringDialog(
            sandbox, ["share", "-a", "org.actshare.print-to-pdf", "--picker", "zenity", "-o", "output-dir=\(output)", "--", notes],
            display: display, window: "Share", keys: ["Escape"])
        #expect(saved.status == 0)
        #expect(saved.dialog.contains("--question") && saved.dialog.contains("--ok-label=Open"), "\(saved.dialog)")
        #expect(saved.dialog.contains("--text=Saved notes.pdf in \(output)"), "\(saved.dialog)")
        #expect(FileManager.default.fileExists(atPath: "\(output)/notes.pdf"))
    }
}

extension DesktopIntegrationTests {
    /// Nemo's action gets a file whose name holds quotes, a backslash, a dollar, an
    /// ampersand and a newline through whole: its Exec line is expanded as Nemo does it
    /// (the URI from GLib, in double quotes: Quote=double) and split with GLib's own
    /// g_shell_parse_argv, and actshare finds the file (issue 13).
    @Test func nemoPassesAnyFileNameThrough() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("integrate", "nemo").status == 0)
        let action = try String(contentsOfFile: "\(sandbox.root)/data/nemo/actions/actshare-share.nemo_action", encoding: .utf8)
        let exec = try #require(action.split(separator: "\n").first { $0.hasPrefix("Exec=") }?.dropFirst(5))
        let file = try sandbox.file("q\"uo'te \\back$lash & co\nnew line.txt", "some words\n")
        let script = """
            import json, sys
            from gi.repository import GLib
            exec_line, path = sys.argv[1], sys.argv[2]
            uri = GLib.filename_to_uri(path, None)
            ok, argv = GLib.shell_parse_argv(exec_line.replace("%U", '"' + uri + '"'))
            print(json.dumps(argv))
            """
        let expanded = try Sandbox.execute("/usr/bin/python3", ["-c", script, String(exec), file], environment: [:], stdin: nil)
        #expect(expanded.status == 0, "\(expanded.stderr)")
        let argv = try #require(try JSONSerialization.jsonObject(with: Data(expanded.stdout.utf8)) as? [String])
        #expect(argv.first == Sandbox.binary)
        let run = try Sandbox.execute(argv[0], Array(argv.dropFirst()), environment: sandbox.environment, stdin: nil)
        #expect(!run.stderr.contains("no such file"), "\(run.stderr)")
        #expect(run.stdout.contains("org.example.wordcount.count"), "the file was found and offered: \(run.stdout) \(run.stderr)")
    }

    /// Dolphin's service menu gets the same file through whole: KIO puts each %F file into
    /// the command's argv as the desktop-entry rules say, and GLib's launcher follows the
    /// same rules, so GLib launches the entry here and the word count names the file
    /// (issue 13). KIO reads no `Type`; Application keeps the file a valid desktop entry.
    @Test func dolphinPassesAnyFileNameThrough() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("integrate", "dolphin").status == 0)
        let menu = "\(sandbox.root)/data/kio/servicemenus/actshare-org.example.wordcount.count.desktop"
        let entry = try String(contentsOfFile: menu, encoding: .utf8)
        #expect(entry.contains("Actions=org-example-wordcount-count;\n") && entry.contains("[Desktop Action org-example-wordcount-count]"))
        #expect(!entry.contains("NoDisplay"), "KIO shows the action; nothing else reads this file")
        let file = try sandbox.file("q\"uo'te \\back$lash & co\nnew line.txt", "three words here\n")
        let script = """
            import os, sys
            import gi
            gi.require_version('Gio', '2.0')
            from gi.repository import Gio, GLib
            info = Gio.DesktopAppInfo.new_from_filename(sys.argv[1])
            pids = []
            info.launch_uris_as_manager([Gio.File.new_for_path(sys.argv[2]).get_uri()], None,
                GLib.SpawnFlags.DO_NOT_REAP_CHILD, None, None, lambda _, pid, *rest: pids.append(pid), None)
            for pid in pids:
                os.waitpid(pid, 0)
            """
        let run = try Sandbox.execute("/usr/bin/python3", ["-c", script, menu, file], environment: sandbox.environment, stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no such file"), "\(run.stderr)")
        #expect(run.stdout.contains("3 words, 1 lines, 17 bytes"), "the file was found and counted: \(run.stdout) \(run.stderr)")
    }
}

extension DesktopIntegrationTests {
    /// zenity cannot open its list with a row selected and prints nothing for OK then: that
    /// OK shares with the first row, as the dialog says. A file name with markup and
    /// mnemonic characters is shown as it is (issue 13).
    @Test func okWithNoRowChosenTakesTheFirstAndNamesShowAsTheyAre() throws {
        let display = try ClipboardTests.Display()
        let sandbox = try Sandbox()
        sandbox.extraEnvironment["DISPLAY"] = display.name
        let name = #"a&b <i>c \n_d.txt"#
        let text = try sandbox.file(name, "some words here\n")
        let listed = try #require(try sandbox.run("list", text, "--json").json()["activities"] as? [[String: Any]])
        let first = try #require(listed.first)

        // Tab, Tab: from the list to Cancel to OK; Return presses OK with no row chosen.
        let (status, output, dialog) = try Self.runAnsweringDialog(
            sandbox, ["share", text, "--json", "--picker", "zenity"], display: display, window: "Share", keys: ["Tab", "Tab", "Return"])
        #expect(status == 0)
        let result = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        #expect(result["activity"] as? String == first["type"] as? String)
        #expect(result["completed"] as? Bool == true)

        // What the label shows: zenity's g_strcompress, then Pango's markup parser.
        let argument = try #require(dialog.first { $0.hasPrefix("--text=") }).dropFirst("--text=".count)
        let script = """
            import sys, gi
            gi.require_version('Pango', '1.0')
            from gi.repository import GLib, Pango
            ok, _, shown, _ = Pango.parse_markup(GLib.strcompress(sys.argv[1]), -1, '\\0')
            sys.stdout.write(shown if ok else 'not markup')
            """
        let shown = try Sandbox.execute("/usr/bin/python3", ["-c", script, String(argument)], environment: [:], stdin: nil)
        let title = try #require(first["title"] as? String)
        #expect(shown.stdout == "Share \(name) with:\nOK without a choice: \(title)", "\(argument)")
    }
}
