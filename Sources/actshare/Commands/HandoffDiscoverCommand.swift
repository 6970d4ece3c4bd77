import ActShareCore
import ActShareHandoff
import ArgumentParser

extension HandoffCommand {
    /// `actshare handoff discover`: the daemons on the local network, paired or not.
    struct Discover: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the devices running actshare, the LocalSend devices and the phones showing Quick Share, on the local network.",
            discussion: """
                actshare daemons are found over multicast DNS (_actshare._tcp), LocalSend devices by LocalSend's announcements \
                (224.0.0.167:53317). What a device says of itself is not proof: a device that is not paired shows the name it gives \
                itself in quotes, and pairing (`actshare handoff pair NAME`) shows a code to compare on both. A LocalSend device is \
                shown with its certificate's fingerprint, "pinned" once actshare has sent to it (LocalSend has no pairing). A \
                phone is listed while its Quick Share looks for receivers (_FC9F5ED42C8A._tcp), which phones nearby start on \
                the Bluetooth signal sent while this command looks (where Bluetooth is on); sending to it shows a PIN to \
                compare with the phone's.
                """)
        @Flag(help: "Print machine-readable JSON on standard output.") var json = false
        @Option(help: ArgumentHelp("Ask the network and wait this long for answers, 0 to 10 (0: what the daemon knows now).", valueName: "seconds")) var timeout = HandoffDefaults.discoverSeconds

        func validate() throws {
            guard (0...10).contains(timeout) else { throw ValidationError("--timeout takes 0 to 10 seconds") }
        }

        func run() throws {
            let response = try DaemonConnection().call(ControlRequest(.discover, timeout: timeout))
            let nearby = response.nearby ?? []
            if json { return StandardStreams.out(try HandoffOutput.json(nearby) + "\n") }
            // Phones advertise only once asked: where Bluetooth could not ask them, say the other way.
            if let signal = response.bluetooth, signal.adapter == nil, !nearby.contains(where: { $0.protocolName == .quickShare }) {
                StandardStreams.err(Localized.text("%s Try: actshare handoff send --qr FILE", signal.sentence) + "\n")
            }
            if nearby.isEmpty {
                return StandardStreams.err("No device found nearby: is actshare's daemon running on the other one, on this network?\n")
            }
            for device in nearby where device.protocolName == .localSend {
                let about = [device.kind, device.model].compactMap { $0.map(TerminalText.visible) }.joined(separator: ", ")
                StandardStreams.out("\(device.id)  \"\(TerminalText.visible(device.name))\" (LocalSend\(about.isEmpty ? "" : ", " + about))  "
                    + "\(device.address):\(device.port)  certificate \(device.fingerprint ?? "?")\(device.pinned == true ? "  pinned" : "")\n")
            }
            for device in nearby where device.protocolName == .quickShare {
                StandardStreams.out("\(device.id)  \"\(TerminalText.visible(device.name))\" (Quick Share, \(TerminalText.visible(device.kind ?? "?")))  "
                    + "\(device.address):\(device.port)\n")
            }
            for device in nearby where device.protocolName == .actshare {
                let name = TerminalText.visible(device.name)
                let shown: String
                if let pairedName = device.pairedName {
                    shown = pairedName == device.name ? TerminalText.visible(pairedName) : "\(TerminalText.visible(pairedName)) (calls itself \"\(name)\")"
                } else {
                    shown = "\"\(name)\" (as it calls itself; not paired)"
                }
                StandardStreams.out("\(device.id)  \(shown)  \(device.address):\(device.port)\(device.paired ? "  paired" : "")\n")
            }
        }
    }
}
