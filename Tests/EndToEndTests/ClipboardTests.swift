import CActShareSystem
import Foundation
import Testing

/// The built-in Copy activity against a real X server (Xvfb), read back with xclip.
@Suite(.serialized) struct ClipboardTests {
    /// A server process of a test's own, killed (and reaped) when the test ends.
    ///
    /// Started with posix_spawn, not Foundation's Process: an X server closes the
    /// descriptors it inherits, and Foundation takes the closing of its watch socket for
    /// the child's exit and blocks in waitpid, stalling every other Process. The signal
    /// mask is cleared: the test runner's threads block signals, and a server must not
    /// inherit that. Every descriptor above standard error is closed in the child: another
    /// test's pipe, open at this moment, would otherwise stay open in a server that lives
    /// long, and that test would wait for its end of file until it timed out.
    final class Server {
        let pid: pid_t

        /// Starts `arguments` with standard input from the file `stdin` (or /dev/null),
        /// standard output on `stdout` (or /dev/null) and standard error on `stderr` (or
        /// /dev/null); `environment` nil inherits ours.
        init(_ arguments: [String], environment: [String]? = nil, stdin: String? = nil, stdout: Int32? = nil, stderr: Int32? = nil) throws {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
            if let stdout {
                posix_spawn_file_actions_adddup2(&actions, stdout, 1)
            } else {
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            }
            if let stderr {
                posix_spawn_file_actions_adddup2(&actions, stderr, 2)
            } else {
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
            cactshare_spawn_close_from(&actions, 3)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
            let argv = arguments.map { strdup($0) } + [nil]
            let envp = environment.map { $0.map { strdup($0) } + [nil] }
            defer { (argv + (envp ?? [])).forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = envp.map { posix_spawn(&pid, arguments[0], &actions, &attributes, argv, $0) }
                ?? posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
            self.pid = pid
        }

        private var reaped = false

        /// Whether it has ended (reaped here, so a later wait does not block).
        var hasExited: Bool {
            if reaped { return true }
            var status: Int32 = 0
            reaped = waitpid(pid, &status, WNOHANG) == pid
            return reaped
        }

        /// Asks it to stop (SIGTERM) and waits: what it does on the way out, it does.
        func terminate() {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            reaped = true
        }

        deinit {
            guard !reaped else { return }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// An Xvfb of the test's own, stopped when the test ends.
    final class Display {
        let server: Server
        let name: String

        init(size: String = "640x480") throws {
            var fds: [Int32] = [0, 0]
            // Close-on-exec, so only Xvfb (given it as standard output) holds the write end.
            // -noreset: by default Xvfb resets when its last client leaves and drops a client
            // that connects meanwhile (xorg/xserver#1102), as a dialog opened right after
            // another one closes does.
            guard cactshare_pipe_cloexec(&fds) == 0 else { throw POSIXError(.EMFILE) }
            defer { close(fds[0]) }
            do {
                server = try Server(["/usr/bin/Xvfb", "-displayfd", "1", "-noreset", "-nolisten", "tcp", "-screen", "0", "\(size)x24"], stdout: fds[1])
                close(fds[1])
            } catch {
                close(fds[1])
                throw error
            }
            // Xvfb writes its display number once it accepts clients.
            var number: [UInt8] = []
            var byte: UInt8 = 0
            while read(fds[0], &byte, 1) == 1 && byte != UInt8(ascii: "\n") { number.append(byte) }
            name = ":" + String(decoding: number, as: UTF8.self)
        }
    }

    /// A headless sway (wlroots) of the test's own, run as nobody (sway refuses root), with
    /// its runtime directory.
    final class WaylandCompositor {
        let server: Server
        let runtimeDirectory: String
        let display = "wayland-1"
        /// The socket's path: `WAYLAND_DISPLAY` for a client with another runtime directory.
        var socket: String { "\(runtimeDirectory)/\(display)" }

        init() throws {
            runtimeDirectory = NSTemporaryDirectory() + "actshare-wayland-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            chown(runtimeDirectory, 65534, 65534)
            server = try Server(
                ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/sway", "-c", "/dev/null"],
                environment: [
                    "XDG_RUNTIME_DIR=\(runtimeDirectory)", "HOME=\(runtimeDirectory)", "WLR_BACKENDS=headless",
                    "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman", "PATH=/usr/bin:/bin",
                ])
            eventually { FileManager.default.fileExists(atPath: "\(runtimeDirectory)/\(display)") }
        }

        deinit {
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
        }

        /// What wl-paste reads (`--type TYPE`), or the offered types (`--list-types`).
        func paste(_ arguments: [String]) throws -> Data {
            let run = try Sandbox.execute("/usr/bin/wl-paste", arguments, environment: [
                "XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": display, "PATH": "/usr/bin:/bin",
            ], stdin: nil)
            return Data(run.stdout.utf8)
        }
    }

    static func sandbox(_ display: Display) throws -> Sandbox {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        sandbox.extraEnvironment["DISPLAY"] = display.name
        return sandbox
    }

    /// What xclip reads for `target` from `selection`, giving up after `seconds`: xclip
    /// waits for ever, and an owner busy with another reader (xclip serves one INCR
    /// transfer at a time) never answers a request it dropped.
    static func paste(_ target: String, display: Display, selection: String = "clipboard", seconds: Int = 30) throws -> Data {
        try paste(target, displayName: display.name, selection: selection, seconds: seconds)
    }

    /// The same, on the display named `displayName` (`:3`), from any thread.
    static func paste(_ target: String, displayName: String, selection: String = "clipboard", seconds: Int = 30) throws -> Data {
        try pasteAnswer(target, displayName: displayName, selection: selection, seconds: seconds).data
    }

    /// The same, with xclip's exit status: 0 pasted, 1 refused by the owner (or no owner),
    /// 124 still waiting when `seconds` ran out (timeout's own status).
    static func pasteAnswer(_ target: String, displayName: String, selection: String = "clipboard", seconds: Int = 30) throws -> (data: Data, status: Int32) {
        let process = Process()
        // The test runner's threads block signals, and timeout's alarm is one: unblocked first.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
                             "/usr/bin/timeout", String(seconds), "/usr/bin/xclip", "-selection", selection, "-o", "-t", target]
        process.environment = ["DISPLAY": displayName]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (data, process.terminationStatus)
    }

    static func targets(_ display: Display, selection: String = "clipboard") throws -> [String] {
        String(decoding: try paste("TARGETS", display: display, selection: selection), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The clipboard servers serving `display`, found through /proc by the name the
    /// Copy provider gives its background process.
    static func servers(on display: Display) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
                  name == "actshare-copy\n",
                  let environment = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
            else { return false }
            return environment.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "DISPLAY=\(display.name)" }
        }
    }

    @Test func textIsOfferedInEveryTextTarget() throws {
        let display = try Display()
        let sandbox = try Self.sandbox(display)
        let text = "héllo wörld ✓"
        let run = try sandbox.run("perform", "org.actshare.copy-to-clipboard", "--text", text, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.targets(display) == ["TARGETS", "TIMESTAMP", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING"])
        for target in ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain"] {
            #expect(try Self.paste(target, display: display) == Data(text.utf8), "\(target)")
        }
        // STRING is ISO-8859-1: é and ö fit, ✓ does not.
        #expect(try Self.paste("STRING", display: display) == Data([0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0x77, 0xF6, 0x72, 0x6C, 0x64, 0x20, 0x3F]))
    }

    @Test func filesPasteIntoFileManagersAndTextFields() throws {
        let display = try Display()
        let sandbox = try Self.sandbox(display)
        let first = try sandbox.file("My Notes.txt", "one\n")
        let second = try sandbox.file("résumé.md", "two\n")
        let run = try sandbox.run("perform", "org.actshare.copy-to-clipboard", first, second)
        #expect(run.status == 0, "\(run.stderr)")
        let uri = { (path: String) in "file://" + path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "@:")))! }
        #expect(try Self.targets(display) == [
            "TARGETS", "TIMESTAMP", "text/uri-list", "x-special/gnome-copied-files", "x-special/mate-copied-files",
            "application/x-kde-cutselection", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING",
        ])
        #expect(try Self.paste("text/uri-list", display: display) == Data("\(uri(first))\r\n\(uri(second))\r\n".utf8))
        let copied = Data("copy\n\(uri(first))\n\(uri(second))".utf8)
        #expect(try Self.paste("x-special/gnome-copied-files", display: display) == copied)
        #expect(try Self.paste("x-special/mate-copied-files", display: display) == copied)
        #expect(try Self.paste("application/x-kde-cutselection", display: display) == Data("0".utf8))
        #expect(try Self.paste("UTF8_STRING", display: display) == Data("\(first)\n\(second)".utf8))
    }

    @Test func urlsPasteIntoBrowsers() throws {
        let display = try Display()
        let sandbox = try Self.sandbox(display)
        let url = "https://example.org/a?b=c"
        #expect(try sandbox.run("perform", "org.actshare.copy-to-clipboard", url).status == 0)
        #expect(try Self.targets(display) == [
            "TARGETS", "TIMESTAMP", "text/uri-list", "text/x-moz-url", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING",
        ])
        #expect(try Self.paste("text/uri-list", display: display) == Data("\(url)\r\n".utf8))
        #expect(try Self.paste("text/x-moz-url", display: display) == "\(url)\n\(url)".data(using: .utf16LittleEndian))
        #expect(try Self.paste("UTF8_STRING", display: display) == Data(url.utf8))
    }

    @Test func aLargeImagePastesByteForByteThroughINCR() throws {
        let display = try Display()
        let sandbox = try Self.sandbox(display)
        let image = "\(sandbox.root)/files/big.png"
        let maker = try Sandbox.execute("/usr/bin/python3", ["\(Sandbox.repository)/Tests/Fixtures/make-png.py", image, "2580", "2710"], environment: [:], stdin: nil)
        #expect(maker.status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: image))
        #expect(bytes.count > 20 << 20)
        #expect(try sandbox.run("perform", "org.actshare.copy-to-clipboard", image).status == 0)
        #expect(try Self.targets(display).contains("image/png"))
        #expect(try Self.paste("image/png", display: display) == bytes)
        #expect(try Self.paste("x-special/gnome-copied-files", display: display) == Data("copy\nfile://\(image)".utf8))
    }

    @Test func aSecondCopyReplacesTheFirst() throws {
        let display = try Display()
        let sandbox = try Self.sandbox(display)
        #expect(try sandbox.run("perform", "org.actshare.copy-to-clipboard", "--text", "first").status == 0)
        let first = Self.servers(on: display)
        #expect(first.count == 1)
        #expect(try sandbox.run("perform", "org.actshare.copy-to-clipboard", "--text", "second").status == 0)
        #expect(try Self.paste("UTF8_STRING", display: display) == Data("second".utf8))
        // The first server saw SelectionClear and ended.
        var remaining = Self.servers(on: display)
        eventually {
            remaining = Self.servers(on: display)
            return remaining.count <= 1
        }
        #expect(remaining.count == 1)
        #expect(!remaining.contains(first[0]))
    }

    @Test func selectionAndLifetimeOptions() throws {
        let display = try Display()
        let sandbox = try Self.sandbox(display)
        #expect(try sandbox.run("perform", "org.actshare.copy-to-clipboard", "--text", "both", "-o", "selection=both", "-o", "lifetime=3").status == 0)
        #expect(try Self.paste("UTF8_STRING", display: display, selection: "primary") == Data("both".utf8))
        #expect(try Self.paste("UTF8_STRING", display: display, selection: "clipboard") == Data("both".utf8))
        // After its lifetime (3 s: long enough for both pastes on a loaded machine) the server is gone.
        var servers = Self.servers(on: display)
        eventually {
            servers = Self.servers(on: display)
            return servers.isEmpty
        }
        #expect(servers.isEmpty)
        try sandbox.writeConfig("providers:\n  org.actshare.clipboard: {selection: primary}\n")
        #expect(try sandbox.run("perform", "org.actshare.copy-to-clipboard", "--text", "primary only").status == 0)
        #expect(try Self.paste("UTF8_STRING", display: display, selection: "primary") == Data("primary only".utf8))
        #expect(try Self.paste("UTF8_STRING", display: display, selection: "clipboard").isEmpty)
    }

    @Test func waylandThroughWlCopyWithTheMostUsefulType() throws {
        let compositor = try WaylandCompositor()
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        sandbox.extraEnvironment["XDG_RUNTIME_DIR"] = compositor.runtimeDirectory
        sandbox.extraEnvironment["WAYLAND_DISPLAY"] = compositor.display
        let text = "héllo wayland ✓"
        let run = try sandbox.run("perform", "org.actshare.copy-to-clipboard", "--text", text)
        #expect(run.status == 0, "\(run.stderr)")
        // wl-copy offers the one type given (and, for text, its usual aliases).
        #expect(String(decoding: try compositor.paste(["--list-types"]), as: UTF8.self).split(separator: "\n").first == "text/plain;charset=utf-8")
        #expect(try compositor.paste(["--no-newline", "--type", "text/plain;charset=utf-8"]) == Data(text.utf8))
        let file = try sandbox.file("a b.txt", "x\n")
        #expect(try sandbox.run("perform", "org.actshare.copy-to-clipboard", file).status == 0)
        #expect(String(decoding: try compositor.paste(["--list-types"]), as: UTF8.self).split(separator: "\n").first == "text/uri-list")
        #expect(try compositor.paste(["--no-newline", "--type", "text/uri-list"]) == Data("file://\(file.replacingOccurrences(of: " ", with: "%20"))\r\n".utf8))
    }

    @Test func osc52OnATerminalWithoutADisplay() throws {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let run = try sandbox.runOnTerminal(["perform", "org.actshare.copy-to-clipboard", "--text", "hi ✓"], input: "")
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("\u{1B}]52;c;\(Data("hi ✓".utf8).base64EncodedString())\u{07}"))
    }

    @Test func withNoDisplayAndNoTerminalItSaysWhatItTried() throws {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        // setsid: no controlling terminal, so no /dev/tty for OSC 52.
        let run = try Sandbox.execute("/usr/bin/setsid", ["-w", Sandbox.binary, "perform", "org.actshare.copy-to-clipboard", "--text", "x"],
                                      environment: sandbox.environment, stdin: nil)
        #expect(run.status == 1)
        #expect(run.stderr == "actshare: org.actshare.copy-to-clipboard: no clipboard to copy to: no X display (DISPLAY is not set), no Wayland compositor with wl-copy (WAYLAND_DISPLAY), and no terminal for OSC 52\n")
        let x11 = try Sandbox.execute("/usr/bin/setsid", ["-w", Sandbox.binary, "perform", "org.actshare.copy-to-clipboard", "--text", "x", "-o", "backend=x11"],
                                      environment: sandbox.environment, stdin: nil)
        #expect(x11.status == 1)
        #expect(x11.stderr == "actshare: org.actshare.copy-to-clipboard: X11 clipboard: cannot connect to the X display (DISPLAY is not set)\n")
        // Without wl-copy on the PATH, the Wayland back end says so.
        sandbox.extraEnvironment["PATH"] = sandbox.root
        let wayland = try sandbox.run("perform", "org.actshare.copy-to-clipboard", "--text", "x", "-o", "backend=wayland")
        #expect(wayland.status == 1)
        #expect(wayland.stderr == "actshare: org.actshare.copy-to-clipboard: Wayland clipboard: wl-copy (wl-clipboard) is not installed\n")
    }
}

extension ClipboardTests {
    /// Copying empty text is the input's fault: exit 2, not a failure of Copy.
    @Test func emptyTextIsBadInput() throws {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        let run = try sandbox.run("perform", "org.actshare.copy-to-clipboard", "--text", "")
        #expect(run.status == 2)
        #expect(run.stderr == "actshare: org.actshare.copy-to-clipboard: nothing to copy (the text is empty)\n")
    }
}

extension ClipboardTests {
    /// HTML is also offered as text/html (rich editors paste it formatted), from standard
    /// input and from a .html file, beside the plain text targets.
    @Test func htmlIsOfferedAsHTML() throws {
        let display = try Display()
        let sandbox = try Self.sandbox(display)
        let html = "<p>Some <b>bold</b> text ✓</p>\n"
        let piped = try sandbox.run(["perform", "org.actshare.copy-to-clipboard", "--type", "text/html", "-"], stdin: Data(html.utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(String(decoding: try Self.paste("TARGETS", display: display), as: UTF8.self).contains("text/html"))
        #expect(try Self.paste("text/html", display: display) == Data(html.utf8))
        #expect(try Self.paste("UTF8_STRING", display: display) == Data(html.utf8))

        let page = try sandbox.file("page.html", "<!DOCTYPE html><html><body><i>file</i></body></html>\n")
        #expect(try sandbox.run("perform", "org.actshare.copy-to-clipboard", page).status == 0)
        #expect(try Self.paste("text/html", display: display) == Data("<!DOCTYPE html><html><body><i>file</i></body></html>\n".utf8))
        #expect(try Self.paste("text/uri-list", display: display) == Data("file://\(page)\r\n".utf8))
    }
}
