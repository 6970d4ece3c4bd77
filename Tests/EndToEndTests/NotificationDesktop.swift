import Foundation

/// A desktop that shows notifications, of the test's own: an X server, a session bus and
/// dunst (a real notification server) on them. Its context menu is answered by a script
/// where a user would pick from dmenu: with the action ``choose(_:)`` named last.
final class NotificationDesktop {
    let display: ClipboardTests.Display
    /// What a program needs to reach it: `DISPLAY` and `DBUS_SESSION_BUS_ADDRESS`.
    let environment: [String: String]
    private let bus: ClipboardTests.Server
    private let dunst: ClipboardTests.Server
    private let choice: String
    private let offered: String
    private let programEnvironment: [String: String]

    /// Everything under `root`; dunst runs with `programEnvironment` and the desktop's.
    init(root: String, programEnvironment: [String: String]) throws {
        display = try ClipboardTests.Display()
        let address = "\(root)/bus"
        bus = try ClipboardTests.Server(["/usr/bin/dbus-daemon", "--session", "--nofork", "--address=unix:path=\(address)"])
        eventually { FileManager.default.fileExists(atPath: address) }
        choice = "\(root)/choice"
        offered = "\(root)/menu-lines"
        let menu = "\(root)/menu"
        try Sandbox.write("#!/bin/sh\ntee -a \(offered) | grep -m1 \"^#$(cat \(choice)) \"\n", to: menu)
        chmod(menu, 0o755)
        let dunstrc = "\(root)/dunstrc"
        try Sandbox.write("[global]\n    dmenu = \(menu)\n", to: dunstrc)
        environment = ["DISPLAY": display.name, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(address)"]
        self.programEnvironment = programEnvironment.merging(environment) { $1 }
        dunst = try ClipboardTests.Server(["/usr/bin/dunst", "-config", dunstrc], environment: self.programEnvironment.map { "\($0)=\($1)" })
    }

    /// The action the next context menu picks, by its label ("Accept").
    func choose(_ action: String) throws {
        try action.write(toFile: choice, atomically: true, encoding: .utf8)
    }

    /// Every line the context menus offered so far (`#LABEL …`).
    var menuLines: String { (try? String(contentsOfFile: offered, encoding: .utf8)) ?? "" }

    func dunstctl(_ arguments: [String]) throws -> Run {
        try Sandbox.execute("/usr/bin/dunstctl", arguments, environment: programEnvironment, stdin: nil)
    }

    /// How many notifications are shown now.
    func shown() throws -> String { try dunstctl(["count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
}
