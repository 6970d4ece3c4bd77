import ActShareCore
import ActShareHandoff
import ArgumentParser

extension HandoffCommand {
    /// `actshare handoff visible`: phones nearby see this device (Quick Share) until it ends.
    struct Visible: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Let phones nearby see this device in their Quick Share until you press Ctrl-C.",
            discussion: """
                Android's Quick Share lists this device while this command runs (as its "everyone" visibility, which \\
                also lasts only a while); otherwise phones do not see it. What a phone then sends is asked about \\
                like any transfer (`actshare handoff requests`), with the PIN the phone shows. Needs the daemon's \\
                multicast discovery (config handoff.discovery) and handoff.quickshare on (the default).
                """)

        func run() throws {
            let connection = try DaemonConnection()
            let response = try connection.call(ControlRequest(.visible))
            let name = response.device?.name ?? "this device"
            StandardStreams.err("Visible to phones nearby as \(TerminalText.visible(name)) (Quick Share) until you press Ctrl-C.\n")
            // The daemon keeps this device visible while the connection is open; Ctrl-C
            // ends this process, and with it the connection.
            _ = try? connection.client.receive()
            throw CommandFailure(.failed, "the daemon stopped: phones no longer see this device")
        }
    }
}
