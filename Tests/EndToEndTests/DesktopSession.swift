import Foundation
import Testing

/// actshare run without a terminal on a test's X server, driven as a person would: its
/// windows waited for by name, keys typed with xdotool, a click where a colour shows.
final class DesktopSession {
    let display: ClipboardTests.Display
    private let process = Process()
    private let out = Pipe()
    /// What actshare and its windows said on standard error, told when a window never comes.
    private let errorLog = NSTemporaryDirectory() + "actshare-desktop-\(UUID().uuidString).log"
    var errors: String { (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "" }

    /// Starts `actshare ARGUMENTS` (or `executable`: a file manager's script) with
    /// `environment`, standard input /dev/null.
    init(_ arguments: [String], executable: String = Sandbox.binary, environment: [String: String],
         display: ClipboardTests.Display) throws {
        self.display = display
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = out
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorLog)
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: errorLog)
    }

    func xdotool(_ arguments: [String]) throws -> Run {
        try Sandbox.execute("/usr/bin/xdotool", arguments, environment: ["DISPLAY": display.name, "PATH": "/usr/bin:/bin"],
                            stdin: nil, timeout: 20)
    }

    /// The window named `name` (a whole name), waited for. Polled, not `search --sync`:
    /// that one never ends when the window never comes, and the test runner's children
    /// cannot always be stopped. On failure the screen is kept.
    func window(_ name: String) throws -> String {
        var found: Run?
        var id: String?
        try eventually {
            found = try xdotool(["search", "--onlyvisible", "--name", "^\(NSRegularExpression.escapedPattern(for: name))$"])
            id = found?.stdout.split(separator: "\n").first.map(String.init)
            return id != nil
        }
        if let id { return id }
        let picture = "\(Sandbox.repository)/.build/test-artefacts/no-window-\(name.filter { $0.isLetter || $0.isNumber }).png"
        try? screenshot(to: picture)
        let none: String? = nil
        return try #require(none, "no window \(name) (the screen: \(picture)): \(found?.stderr ?? ""); actshare said: \(errors)")
    }

    /// Whether a window named `name` is shown now.
    func shows(_ name: String) throws -> Bool {
        try xdotool(["search", "--onlyvisible", "--name", "^\(NSRegularExpression.escapedPattern(for: name))$"]).stdout.isEmpty == false
    }

    /// The command line of the program that shows window `id`.
    func commandLine(of id: String) throws -> [String] {
        let pid = try xdotool(["getwindowpid", id]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }

    /// Focuses window `id`, types `text`, presses `keys`.
    func answer(_ id: String, typing text: String? = nil, keys: [String]) throws {
        _ = try xdotool(["windowfocus", "--sync", id])
        Thread.sleep(forTimeInterval: 0.3)
        if let text { _ = try xdotool(["type", "--clearmodifiers", "--delay", "20", text]) }
        for key in keys {
            _ = try xdotool(["key", "--clearmodifiers", key])
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// Keeps a picture of the whole screen as a test artefact (PIL's grab).
    func screenshot(to path: String) throws {
        // The pointer out of the way: no tooltip over what the picture shows.
        _ = try? xdotool(["mousemove", "0", "0"])
        Thread.sleep(forTimeInterval: 0.3)  // drawn
        try Self.screenshot(of: display.name, to: path)
    }

    /// The whole screen of X display `name`, as a PNG at `path`.
    static func screenshot(of name: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let grab = "import sys; from PIL import ImageGrab; ImageGrab.grab(xdisplay=sys.argv[1]).save(sys.argv[2])"
        let run = try Sandbox.execute("/usr/bin/python3", ["-c", grab, name, path], environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
        #expect(run.status == 0, "screenshot: \(run.stderr)")
    }

    /// The middle of the screen's area in `colour` (RGB, each ±`tolerance`), waited for, or
    /// nil (the screen then kept as a test artefact): at least 200 pixels of it, so that a
    /// thin focus ring is not one.
    func area(of colour: (Int, Int, Int), tolerance: Int = 12) throws -> (x: Int, y: Int)? {
        let find = """
            import sys; from PIL import ImageGrab
            r, g, b, t = (int(v) for v in sys.argv[2:6]); image = ImageGrab.grab(xdisplay=sys.argv[1]).convert('RGB')
            w, h = image.size; p = image.load()
            hits = [(x, y) for y in range(h) for x in range(w) if abs(p[x, y][0] - r) <= t and abs(p[x, y][1] - g) <= t and abs(p[x, y][2] - b) <= t]
            print(f"{sum(x for x, _ in hits) // len(hits)} {sum(y for _, y in hits) // len(hits)}" if len(hits) >= 200 else "")
            """
        var numbers: [Int] = []
        try eventually {
            let run = try Sandbox.execute(
                "/usr/bin/python3", ["-c", find, display.name, String(colour.0), String(colour.1), String(colour.2), String(tolerance)],
                environment: ["PATH": "/usr/bin:/bin"], stdin: nil)
            numbers = run.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            return numbers.count == 2
        }
        if numbers.count == 2 { return (numbers[0], numbers[1]) }
        // Kept for whoever reads the failure: the screen as it was.
        try? screenshot(to: "\(Sandbox.repository)/.build/test-artefacts/no-area-\(colour.0)-\(colour.1)-\(colour.2).png")
        return nil
    }

    /// A left click at (`x`, `y`) on the screen.
    func click(x: Int, y: Int) throws {
        _ = try xdotool(["mousemove", "--sync", String(x), String(y), "click", "1"])
    }

    /// Waits for actshare to end (if it never does, it is stopped and the test fails): its
    /// exit status and standard output.
    func finish() -> (status: Int32, output: Data) {
        eventually { !process.isRunning }
        if process.isRunning {
            Issue.record("actshare did not end")
            try? screenshot(to: "\(Sandbox.repository)/.build/test-artefacts/did-not-end.png")
            kill(process.processIdentifier, SIGKILL)
        }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
