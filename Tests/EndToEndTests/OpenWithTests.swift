import Foundation
import Testing

/// Open With (org.actshare.open-with): the applications installed from Debian by
/// scripts/install-deps (Ristretto, xpdf, Mousepad; feh, which is NoDisplay), offered as
/// targets for what they open and started for real on an X server of the test's own.
@Suite(.serialized) struct OpenWithTests {
    static let ristretto = "org.xfce.ristretto.desktop", mousepad = "org.xfce.mousepad.desktop", xpdf = "xpdf.desktop"

    /// A sandbox with the built-ins, on a display with a window manager.
    final class Desktop {
        let sandbox: Sandbox
        let display: ClipboardTests.Display
        let windowManager: ClipboardTests.Server

        init() throws {
            sandbox = try Sandbox(providerPath: [])
            sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
            display = try ClipboardTests.Display(size: "800x600")
            sandbox.extraEnvironment["DISPLAY"] = display.name
            windowManager = try ClipboardTests.Server(["/usr/bin/openbox", "--sm-disable"],
                                                      environment: ["DISPLAY=\(display.name)", "HOME=\(sandbox.root)/home", "PATH=/usr/bin:/bin"])
        }

        deinit {
            // The applications started: each holds a path of the sandbox.
            for (pid, _) in OpenWithTests.processes(mentioning: sandbox.root) { kill(pid, SIGKILL) }
        }

        /// The names of the windows whose name contains `part`, once there is one.
        func windows(named part: String) throws -> [String] {
            var names: [String] = []
            try eventually {
                let found = try Sandbox.execute("/usr/bin/xdotool", ["search", "--name", NSRegularExpression.escapedPattern(for: part)],
                                                environment: ["DISPLAY": display.name], stdin: nil, timeout: 20)
                names = try found.stdout.split(separator: "\n").map { id in
                    try Sandbox.execute("/usr/bin/xdotool", ["getwindowname", String(id)], environment: ["DISPLAY": display.name],
                                        stdin: nil, timeout: 20).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                }.filter { $0.contains(part) }
                return !names.isEmpty
            }
            return names
        }
    }

    /// The processes whose command line mentions `text`, with their arguments.
    static func processes(mentioning text: String) -> [(pid_t, [String])] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), let bytes = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !bytes.isEmpty else { return nil }
            let arguments = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.dropFirst().contains { $0.contains(text) } ? (pid, arguments) : nil
        }
    }

    static func targets(_ run: Run) throws -> [String]? {
        let activities = try #require(try run.json()["activities"] as? [[String: Any]], "\(run.stdout)\(run.stderr)")
        return (activities.first { $0["type"] as? String == "org.actshare.open-with" }?["targets"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
    }

    /// A PNG as its bytes type it.
    static func png(_ name: String, in sandbox: Sandbox) throws -> String {
        let source = "/usr/share/icons/hicolor/48x48/apps/org.xfce.ristretto.png"
        return try sandbox.data(name, try Data(contentsOf: URL(fileURLWithPath: source)))
    }

    @Test func eachKindOfItemIsOfferedTheAppsThatOpenIt() throws {
        let desktop = try Desktop()
        let sandbox = desktop.sandbox
        let photo = try Self.png("photo.png", in: sandbox)
        let viewers = try #require(try Self.targets(try sandbox.run("list", "--json", photo)))
        #expect(viewers.contains(Self.ristretto), "\(viewers)")
        #expect(!viewers.contains(Self.mousepad), "an editor does not open a PNG")
        #expect(!viewers.contains("feh.desktop"), "feh's entry is NoDisplay")
        // The second list is answered from the cache, the same.
        #expect(try Self.targets(try sandbox.run("list", "--json", photo)) == viewers)
        let listed = try sandbox.run("list", "--json", photo)
        let ristretto = try #require((try listed.json()["activities"] as? [[String: Any]])?
            .first { $0["type"] as? String == "org.actshare.open-with" }?["targets"] as? [[String: Any]])
            .first { $0["id"] as? String == Self.ristretto }
        #expect(ristretto?["title"] as? String == "Ristretto Image Viewer" && ristretto?["kind"] as? String == "app")
        #expect(ristretto?["image"] as? String == "org.xfce.ristretto")

        let notes = try sandbox.file("notes.txt", "milk\n")
        let editors = try #require(try Self.targets(try sandbox.run("list", "--json", notes)))
        #expect(editors.contains(Self.mousepad) && !editors.contains(Self.ristretto), "\(editors)")

        // Two PNGs: Ristretto takes a list (%U). Two PDFs: xpdf takes one file (%f).
        let second = try Self.png("second.png", in: sandbox)
        #expect(try Self.targets(try sandbox.run("list", "--json", photo, second))?.contains(Self.ristretto) == true)
        let pdf = try sandbox.file("a.pdf", "%PDF-1.4\n%%EOF\n"), otherPDF = try sandbox.file("b.pdf", "%PDF-1.4\n%%EOF\n")
        #expect(try Self.targets(try sandbox.run("list", "--json", pdf))?.contains(Self.xpdf) == true)
        #expect(try Self.targets(try sandbox.run("list", "--json", pdf, otherPDF))?.contains(Self.xpdf) != true)
        let explained = try sandbox.run("perform", "org.actshare.open-with", photo, pdf)
        #expect(explained.status == 3)
        #expect(explained.stderr.contains("No installed application opens all of these items at once"), "\(explained.stderr)")
    }

    /// The application chosen opens the file in a window named for it; two files go to it
    /// in one launch.
    @Test func theAppChosenOpensTheFilesInOneLaunch() throws {
        let desktop = try Desktop()
        let sandbox = desktop.sandbox
        let photo = try Self.png("photo.png", in: sandbox), second = try Self.png("second.png", in: sandbox)
        let run = try sandbox.run("perform", "org.actshare.open-with", "--target", Self.ristretto, photo, second, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try desktop.windows(named: "photo.png").contains { $0.contains("Image Viewer") })
        let launched = Self.processes(mentioning: sandbox.root).filter { $0.1.first?.hasSuffix("ristretto") == true }
        #expect(launched.count == 1, "\(launched)")
        #expect(launched.first?.1.dropFirst().map { $0 } == [photo, second])
    }

    /// A URL goes to an application registered for https, here a stand-in browser in the
    /// user's applications folder; without one, Open With is not offered for it.
    @Test func aURLOpensInTheRegisteredBrowserOnly() throws {
        let desktop = try Desktop()
        let sandbox = desktop.sandbox
        let url = "https://example.org/a?b=1&c=two"
        #expect(try Self.targets(try sandbox.run("list", "--json", url)) == nil, "no browser, no Open With")
        let opened = "\(sandbox.root)/opened-url"
        let browser = try sandbox.file("browser", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(opened)\n")
        chmod(browser, 0o755)
        // A file-only entry (%f) for https is no browser for a URL.
        try Sandbox.write("[Desktop Entry]\nType=Application\nName=Files Only\nExec=\(browser) %f\nMimeType=x-scheme-handler/https;\n",
                          to: "\(sandbox.root)/data/applications/files-only.desktop")
        try Sandbox.write("[Desktop Entry]\nType=Application\nName=Stand-in Browser\nExec=\(browser) %u\nMimeType=x-scheme-handler/https;\n",
                          to: "\(sandbox.root)/data/applications/stand-in-browser.desktop")
        // As desktop-file-install does: GIO finds a folder's applications for a type in its
        // mimeinfo.cache.
        let indexed = try Sandbox.execute("/usr/bin/update-desktop-database", ["\(sandbox.root)/data/applications"], environment: [:], stdin: nil)
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let offered = try #require(try Self.targets(try sandbox.run("list", "--json", url)), "the new entries are seen: the cache is not stale")
        #expect(offered == ["stand-in-browser.desktop"])
        let run = try sandbox.run("perform", "org.actshare.open-with", "--target", "stand-in-browser.desktop", url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(eventually { (try? String(contentsOfFile: opened, encoding: .utf8)) == "\(url)\n" }, "one argument, as given, through no shell")
    }

    /// In the share sheet the applications are a row of their own, each named for a screen
    /// reader by what pressing it does; pressed (through AT-SPI, as Orca does), the
    /// application starts with the startup notification id the window was given for it.
    @Test func anAppChosenInTheSheetStartsWithTheWindowsToken() throws {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let desktop = try AccessibleDesktop.showing(sandbox)
        defer { for (pid, _) in Self.processes(mentioning: sandbox.root) { kill(pid, SIGKILL) } }
        let photo = try Self.png("photo.png", in: sandbox)
        let session = try DesktopSession(["share", "--json", photo], environment: sandbox.environment, display: desktop.display)
        _ = try session.window("Share")
        let apps = try ShareSheetTests.rowButtons(on: desktop, count: 1) { $0.hasPrefix("push button|Open With: ") }
        #expect(apps.map { $0.split(separator: "|")[1] } == ["Open With: Ristretto Image Viewer"], "\(apps)")
        #expect(try desktop.atspi(["press", "Open With: Ristretto Image Viewer"]).status == 0)
        let (status, output) = session.finish()
        #expect(status == 0, "\(String(decoding: output, as: UTF8.self))")
        var viewer: pid_t?
        #expect(eventually {
            viewer = Self.processes(mentioning: photo).first { $0.1.first?.hasSuffix("ristretto") == true }?.0
            return viewer != nil
        })
        let pid = try #require(viewer)
        let environment = try #require(FileManager.default.contents(atPath: "/proc/\(pid)/environ"))
            .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let startup = try #require(environment.first { $0.hasPrefix("DESKTOP_STARTUP_ID=") }, "\(environment)")
        #expect(startup.count > "DESKTOP_STARTUP_ID=".count && startup.contains("ristretto"), "\(startup)")
    }

    /// Text opens in the editor as a file named for its first line, in a private folder of
    /// $XDG_RUNTIME_DIR, which goes when the editor has ended.
    @Test func textOpensInTheEditorAndItsFileGoesAfter() throws {
        let desktop = try Desktop()
        let sandbox = desktop.sandbox
        let run = try sandbox.run("perform", "org.actshare.open-with", "--target", Self.mousepad, "--text", "Shopping list\nmilk\n", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try desktop.windows(named: "Shopping list.txt").contains { $0.contains("Mousepad") })
        let editor = try #require(Self.processes(mentioning: "\(sandbox.root)/runtime/actshare/").first)
        let file = try #require(editor.1.last)
        #expect(file.hasPrefix("\(sandbox.root)/runtime/actshare/open-with-") && file.hasSuffix("/Shopping list.txt"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "Shopping list\nmilk\n")
        let folder = (file as NSString).deletingLastPathComponent
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int)
        #expect(mode == 0o700)
        kill(editor.0, SIGTERM)
        #expect(eventually { !FileManager.default.fileExists(atPath: folder) }, "removed once the editor ended")
    }
}
