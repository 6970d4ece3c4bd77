import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Quick Share's Bluetooth LE signal: while the daemon looks for phones (`handoff send
/// --qr`, `handoff discover`), actshare-bluetooth-trigger asks BlueZ to broadcast the Fast
/// Initiation service data, which a phone's Bluetooth hears; without Bluetooth, the person
/// is told that only the QR code reaches a phone.
///
/// bluetoothd cannot run here (it needs a Bluetooth controller; this machine has none, not
/// even the kernel's virtual one), so bluezoo (PyPI), an emulation of BlueZ's D-Bus API
/// written by others, stands in for it on a system bus of the test's own, with two
/// adapters: hci0 the computer's, hci1 the phone's, which scans (Tests/Fixtures/bluetooth-phone.py).
@Suite(.serialized) struct QuickShareBluetoothTests {
    typealias Machine = HandoffTests.Machine
    typealias Sending = QuickShareQRCodeTests.Sending
    static let phone = "\(Sandbox.repository)/Tests/Fixtures/bluetooth-phone.py"
    static let bluezoo = "\(Sandbox.repository)/.build-venv/bin/bluezoo"

    /// A system bus of the test's own; with `adapters`, bluezoo on it as BlueZ, its two
    /// adapters powered or not.
    final class Bluetooth {
        let root: String
        private let bus: ClipboardTests.Server
        private var bluez: ClipboardTests.Server?
        let address: String

        init(root: String, adapters powered: Bool?) throws {
            self.root = root
            address = "unix:path=\(root)/system-bus"
            try #require(FileManager.default.isExecutableFile(atPath: QuickShareBluetoothTests.bluezoo), "no bluezoo in .build-venv: run scripts/install-deps")
            bus = try ClipboardTests.Server(["/usr/bin/dbus-daemon", "--session", "--nofork", "--address=\(address)"])
            eventually { FileManager.default.fileExists(atPath: "\(root)/system-bus") }
            guard let powered else { return }
            let log = open("\(root)/bluezoo.log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            defer { close(log) }
            bluez = try ClipboardTests.Server(
                [QuickShareBluetoothTests.bluezoo, "--scan-interval", "1", "-a", "00:1A:7D:DA:71:01", "-a", "00:1A:7D:DA:71:02"]
                    + (powered ? ["--auto-enable"] : []),
                environment: ["DBUS_SYSTEM_BUS_ADDRESS=\(address)", "PATH=/usr/bin:/bin", "HOME=\(root)"], stderr: log)
            // Ready once it answers for its second adapter.
            #expect(eventually { self.phone("advertisements", "hci1").status == 0 }, "\((try? String(contentsOfFile: "\(root)/bluezoo.log", encoding: .utf8)) ?? "")")
        }

        /// bluetooth-phone.py with `arguments`, on this bus.
        func phone(_ arguments: String...) -> Run {
            (try? Sandbox.execute(QuickShareReceivingTests.python, [QuickShareBluetoothTests.phone] + arguments,
                                  environment: ["DBUS_SYSTEM_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"], stdin: nil))
                ?? Run(status: -1, stdout: "", stderr: "cannot run bluetooth-phone.py")
        }

        /// How many advertisements the computer's adapter has on the air.
        var advertising: Int? { Int(phone("advertisements", "hci0").stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// While the code waits, the phone's Bluetooth hears the Fast Initiation signal from the
    /// computer's adapter, and the person is told it is sent; stopping the wait takes it
    /// off the air (after its linger), and so does a daemon that is killed.
    @Test func thePhoneHearsTheSignalWhileTheCodeWaits() throws {
        let link = try NetworkLink(hosts: 1, tag: "qsb")
        let root = NSTemporaryDirectory() + "actshare-bt-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bluetooth = try Bluetooth(root: root, adapters: true)
        let alpha = try Machine("alpha", namespace: link.hosts[0], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bluetooth.address])
        try Data("hello".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/note.txt"))
        #expect(bluetooth.phone("discoverable", "hci0").status == 0)

        let sending = try Sending(alpha, ["\(alpha.sandbox.root)/note.txt"])
        _ = try sending.url()
        let heard = bluetooth.phone("scan", "hci1", "60")
        #expect(heard.status == 0, "\(heard.stderr) \(alpha.log)")
        let data = (try? JSONSerialization.jsonObject(with: Data(heard.stdout.utf8)) as? [String: Any])?["data"] as? String ?? ""
        // Nearby Share's model id, version 1, kind 0x42, nine reserved zeros, ten random bytes.
        #expect(data.count == 48 && data.hasPrefix("fc128e0142" + String(repeating: "00", count: 9)), "\(heard.stdout)")
        #expect(data.suffix(20) != String(repeating: "0", count: 20), "\(data)")
        #expect(eventually { sending.said.contains("Quick Share's Bluetooth signal is sent too (hci0)") }, "\(sending.said)")
        #expect(alpha.log.contains("Quick Share's Bluetooth signal sent from hci0"), "\(alpha.log)")

        // Ctrl-C: the wait ends; the signal lingers a moment for the next look, then goes.
        kill(sending.process.processIdentifier, SIGINT)
        #expect(sending.finish() == 4, "\(sending.said)")
        #expect(eventually { bluetooth.advertising == 0 }, "\(alpha.log)")

        // A daemon killed while the signal is on the air takes it down with it: the helper
        // sees its standard input end.
        let again = try Sending(alpha, ["\(alpha.sandbox.root)/note.txt"])
        _ = try again.url()
        #expect(eventually { bluetooth.advertising == 1 }, "\(alpha.log)")
        kill(try #require(alpha.pid), SIGKILL)
        #expect(eventually { bluetooth.advertising == 0 }, "\(alpha.log)")
        _ = again.finish()
    }

    /// Without BlueZ, and with Bluetooth off, the person is told plainly that only the QR
    /// code reaches a phone; `handoff discover` says so too, and the share still waits
    /// for the code.
    @Test func withoutBluetoothOnlyTheQRCodeIsSaid() throws {
        let link = try NetworkLink(hosts: 1, tag: "qsn")
        for (powered, words) in [(nil as Bool?, "Bluetooth is not running here (no BlueZ): only the QR code reaches a phone."),
                                 (false, "Bluetooth is off: only the QR code reaches a phone.")] {
            let root = NSTemporaryDirectory() + "actshare-bt-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: root) }
            let bluetooth = try Bluetooth(root: root, adapters: powered)
            let alpha = try Machine("alpha", namespace: link.hosts[0], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bluetooth.address])
            try Data("hello".utf8).write(to: URL(fileURLWithPath: "\(alpha.sandbox.root)/note.txt"))
            let sending = try Sending(alpha, ["\(alpha.sandbox.root)/note.txt"])
            _ = try sending.url()
            #expect(eventually { sending.said.contains(words) }, "\(sending.said)")
            #expect(sending.process.isRunning, "the code stopped waiting: \(sending.said)")
            kill(sending.process.processIdentifier, SIGINT)
            #expect(sending.finish() == 4, "\(sending.said)")

            let discover = try alpha.run("handoff", "discover", "--timeout", "1")
            #expect(discover.stderr.contains(words + " Try: actshare handoff send --qr FILE"), "\(discover.stderr)")
            let json = try alpha.run("handoff", "discover", "--json", "--timeout", "1")
            #expect(json.status == 0 && json.stdout.hasPrefix("["), "\(json.stdout) \(json.stderr)")
            alpha.stop()
        }
    }
}
