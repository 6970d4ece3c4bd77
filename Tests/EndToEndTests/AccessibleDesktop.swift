import Foundation
import Testing

/// A desktop of a test's own, as a screen-reader user has it: an X server, a window
/// manager (openbox: it places dialogs over their parents and reads modality), and a
/// session bus on which the accessibility bus (at-spi2-core) is started by activation.
/// Windows are read and driven through AT-SPI (Tests/Fixtures/atspi.py), as Orca does.
final class AccessibleDesktop {
    let display: ClipboardTests.Display
    private let bus: ClipboardTests.Server
    private let windowManager: ClipboardTests.Server
    let busAddress: String

    /// What a program needs to be on this desktop.
    var environment: [String: String] { ["DISPLAY": display.name, "DBUS_SESSION_BUS_ADDRESS": busAddress] }

    /// The desktop, its bus's socket under `root`.
    init(root: String) throws {
        // A laptop's screen: the window has the room it has on one.
        display = try ClipboardTests.Display(size: "1024x768")
        let socket = "\(root)/session-bus"
        busAddress = "unix:path=\(socket)"
        // The accessibility bus it starts keeps its socket in XDG_RUNTIME_DIR (else in
        // ~/.cache): one of this desktop's own, or two desktops would share one socket.
        let runtime = "\(root)/desktop-runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        bus = try ClipboardTests.Server(
            ["/usr/bin/dbus-daemon", "--session", "--nofork", "--address=\(busAddress)"],
            environment: ["XDG_RUNTIME_DIR=\(runtime)", "HOME=\(root)", "PATH=/usr/bin:/bin", "DISPLAY=\(display.name)"])
        eventually { FileManager.default.fileExists(atPath: socket) }
        windowManager = try ClipboardTests.Server(
            ["/usr/bin/openbox", "--sm-disable"], environment: ["DISPLAY=\(display.name)", "HOME=\(root)", "PATH=/usr/bin:/bin"])
    }

    /// A desktop for `sandbox`, whose programs are shown on it from now on.
    static func showing(_ sandbox: Sandbox) throws -> AccessibleDesktop {
        let desktop = try AccessibleDesktop(root: sandbox.root)
        sandbox.extraEnvironment.merge(desktop.environment) { $1 }
        return desktop
    }

    /// The X window named `name` (a whole name), waited for.
    func window(_ name: String) throws -> String {
        var id: String?
        try eventually {
            let found = try Sandbox.execute("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "^\(name)$"],
                                            environment: ["DISPLAY": display.name], stdin: nil, timeout: 20)
            id = found.stdout.split(separator: "\n").first.map(String.init)
            return id != nil
        }
        return try #require(id, "no window \(name)")
    }

    /// Where window `id` is on the screen, and its size, as the window manager placed it.
    func geometry(of id: String) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let shell = try Sandbox.execute("/usr/bin/xdotool", ["getwindowgeometry", "--shell", id],
                                        environment: ["DISPLAY": display.name], stdin: nil, timeout: 20).stdout
        var values: [String: Int] = [:]
        for line in shell.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        return (values["X"] ?? -1, values["Y"] ?? -1, values["WIDTH"] ?? 0, values["HEIGHT"] ?? 0)
    }

    /// Runs Tests/Fixtures/atspi.py with `arguments` on this desktop's accessibility bus.
    func atspi(_ arguments: [String]) throws -> Run {
        try Sandbox.execute("/usr/bin/python3", ["\(Sandbox.repository)/Tests/Fixtures/atspi.py"] + arguments,
                            environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }, stdin: nil, timeout: 40)
    }

    /// The window's accessible nodes, `ROLE|NAME|STATES` each.
    func tree() throws -> [String] {
        try atspi(["tree"]).stdout.split(separator: "\n").map(String.init)
    }

    /// The tree once `shows` holds of it (the window has drawn what an action changed), or
    /// as it last was.
    func tree(once shows: ([String]) -> Bool) throws -> [String] {
        var last: [String] = []
        try eventually {
            last = try tree()
            return shows(last)
        }
        return last
    }

    /// The node that has the keyboard, `ROLE|NAME|STATES`.
    func focused() throws -> String {
        try atspi(["focused"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
