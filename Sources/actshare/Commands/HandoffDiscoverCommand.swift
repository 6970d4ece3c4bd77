import ActShareCore
import ActShareHandoff
import ArgumentParser

extension HandoffCommand {
    /// `actshare handoff discover`: the daemons on the local network, paired or not.
    struct Discover: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the devices running actshare on the local network.",
            discussion: """
                Found over multicast DNS (_actshare._tcp). What a device says of itself is not proof: a device that is not paired \
                shows the name it gives itself in quotes, and pairing (`actshare handoff pair NAME`) shows a code to compare on both.
                """)
        @Flag(help: "Print machine-readable JSON on standard output.") var json = false
        @Option(help: ArgumentHelp("Ask the network and wait this long for answers, 0 to 10 (0: what the daemon knows now).", valueName: "seconds")) var timeout = HandoffDefaults.discoverSeconds

        func validate() throws {
            guard (0...10).contains(timeout) else { throw ValidationError("--timeout takes 0 to 10 seconds") }
        }

        func run() throws {
            let nearby = try DaemonConnection().call(ControlRequest(.discover, timeout: timeout)).nearby ?? []
            if json { return StandardStreams.out(try HandoffOutput.json(nearby) + "\n") }
            if nearby.isEmpty {
                return StandardStreams.err("No device found nearby: is actshare's daemon running on the other one, on this network?\n")
            }
            for device in nearby {
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
