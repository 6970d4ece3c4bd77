import ActShareCore
import ActShareHandoff
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `actshare handoff`: pair devices, send them files, and continue what the user was doing on another.
struct HandoffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handoff",
        abstract: "Pair with your other devices, send them files, and continue their activities here.",
        subcommands: [Pair.self, Devices.self, Unpair.self, List.self, Continue.self, Status.self, Send.self, Received.self, Queue.self, Discover.self,
                      Requests.self, Accept.self, Decline.self, Visible.self, HandoffClipboardCommand.self])

    struct Pair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pair with a device: its NAME or HOST[:PORT] here, --wait on the other side.",
            discussion: """
                NAME is a device `actshare handoff discover` lists (by its name or id); anything else is a host name or address.
                Both sides show the same 6-digit code; confirm on both. A different code means someone is in between: answer no.
                In scripts, --yes confirms without asking; with --wait it needs --expect-device, the other device's id (`actshare handoff status` there), so that whoever asks first is not paired.
                """)

        @Argument(help: ArgumentHelp("The other device: a name or id found nearby, or its daemon's address (port \(HandoffDefaults.port) unless given).",
                                     valueName: "name|host[:port]")) var address: String?
        @Flag(help: "Wait for a device to ask, instead of asking one.") var wait = false
        @Flag(help: "Confirm the code without asking (scripts, tests).") var yes = false
        @Option(name: .customLong("expect-device"), help: ArgumentHelp("Pair only with the device of this id; refuse any other.", valueName: "id"))
        var expectDevice: String?

        func validate() throws {
            guard (address == nil) == wait else { throw ValidationError("give a NAME or HOST[:PORT], or --wait") }
            if wait, yes, expectDevice == nil {
                throw ValidationError("--wait --yes would pair with whoever asks first: add --expect-device ID (the other device's id, from `actshare handoff status` there)")
            }
            if let expectDevice, !(expectDevice.count == 16 && expectDevice.allSatisfy(\.isHexDigit)) {
                throw ValidationError("--expect-device takes a device id: 16 hex digits, as `actshare handoff status` shows")
            }
        }

        func run() throws {
            let connection = try DaemonConnection()
            var request = ControlRequest(.pairWait, expect: expectDevice)
            if let address {
                let (host, port) = try Self.split(address)
                request = ControlRequest(.pair, host: host, port: port, expect: expectDevice)
            }
            // Who this device is, for the user to type on the other one.
            let me = wait ? try connection.client.call(ControlRequest(.status)).device : nil
            try connection.client.send(request)
            if wait {
                // Ctrl-C ends the wait, and closing the connection closes the daemon's pairing
                // window at once: even when started with SIGINT ignored (a shell's `&`) or blocked.
                signal(SIGINT, SIG_DFL)
                var interrupt = sigset_t()
                sigemptyset(&interrupt)
                sigaddset(&interrupt, SIGINT)
                sigprocmask(SIG_UNBLOCK, &interrupt, nil)
                if let me {
                    let addresses = LocalAddresses.reachable()
                    let shown = addresses.isEmpty ? "this machine's address" : addresses.joined(separator: " or ")
                    StandardStreams.err("This device: \(me.name) (\(me.id)), port \(me.port).\n")
                    StandardStreams.err("Waiting up to 2 minutes: on the other device run `actshare handoff pair \(me.name)` "
                        + "or `actshare handoff pair \(addresses.first ?? "ADDRESS"):\(me.port)` (\(shown))…\n")
                }
            }
            var response = try connection.client.receive()
            if response.ok, let code = response.code, let device = response.device {
                StandardStreams.out("Pairing code: \(code)  (\(device.name), \(device.id))\n")
                var accepted = yes
                if !yes {
                    guard let terminal = Terminal() else {
                        throw CommandFailure(.badInput, "no terminal to confirm the code on: compare it and use --yes")
                    }
                    accepted = terminal.ask("Does \(device.name) show the same code? [y/N] ")?.lowercased().hasPrefix("y") ?? false
                }
                try connection.client.send(ControlRequest(.confirm, yes: accepted))
                response = try connection.client.receive()
            }
            try DaemonConnection.check(response)
            if let device = response.device { StandardStreams.out("Paired with \(device.name) (\(device.id)).\n") }
        }

        /// The host and the port, nil when not given (the daemon then looks for a device
        /// of that name nearby before taking it for a host).
        static func split(_ address: String) throws -> (String, Int?) {
            guard let colon = address.lastIndex(of: ":"), !address.hasSuffix("]") else { return (address, nil) }
            guard let port = Int(address[address.index(after: colon)...]), (1...65535).contains(port) else {
                throw CommandFailure(.badInput, "\(address): the port must be a number from 1 to 65535")
            }
            return (String(address[..<colon]), port)
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "This device as others see it: its id, name and port.")
        @Flag(help: "Print machine-readable JSON on standard output.") var json = false

        func run() throws {
            guard let device = try DaemonConnection().call(ControlRequest(.status)).device else {
                throw CommandFailure(.failed, "the daemon did not say who it is")
            }
            if json { return StandardStreams.out(try HandoffOutput.json(device) + "\n") }
            StandardStreams.out("\(device.id)  \(device.name)  port \(device.port)\n")
        }
    }

    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The paired devices, and whether each is reachable now.")
        @Flag(help: "Print machine-readable JSON on standard output.") var json = false

        func run() throws {
            let devices = try DaemonConnection().call(ControlRequest(.devices)).devices ?? []
            if json { return StandardStreams.out(try HandoffOutput.json(devices) + "\n") }
            for device in devices {
                StandardStreams.out("\(device.id)  \(device.name)  \(device.host):\(device.port)  \(device.reachable == true ? "reachable" : "unreachable")\n")
            }
        }
    }

    struct Unpair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget a paired device (by id or name), or the certificate pinned for a LocalSend device (by its name).")
        @Argument(help: "Its id (or the start of it, 4 digits or more) or its name.", completion: .custom(CompletionCandidates.deviceNames))
        var device: String

        func run() throws {
            let response = try DaemonConnection().call(ControlRequest(.unpair, device: device))
            StandardStreams.out("Unpaired \(response.device?.name ?? device).\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The current activities of reachable paired devices, newest first.")
        @Flag(help: "Print machine-readable JSON on standard output.") var json = false

        struct Row: Encodable {
            var id, device, type, title: String
            var age: Int
        }

        func run() throws {
            let activities = try DaemonConnection().call(ControlRequest(.handoffList)).activities ?? []
            let now = Date().timeIntervalSince1970
            let rows = activities.map {
                Row(id: $0.id, device: $0.originName ?? $0.origin ?? "", type: $0.type, title: $0.title, age: max(0, Int(now - $0.created)))
            }
            if json { return StandardStreams.out(try HandoffOutput.json(rows) + "\n") }
            for row in rows {
                StandardStreams.out("\(row.id)  \(row.device)  \(row.type)  \(row.title)  \(Self.age(row.age))\n")
            }
        }

        static func age(_ seconds: Int) -> String {
            seconds < 60 ? "\(seconds)s" : seconds < 3600 ? "\(seconds / 60)m" : seconds < 86400 ? "\(seconds / 3600)h" : "\(seconds / 86400)d"
        }
    }

    struct Continue: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Continue an activity of a paired device here.",
            discussion: "The activity is fetched from its device (which refreshes it first), then given to the handler whose manifest (actshare/handler@1) continues its type, or its webpage URL opened in the browser. Exit 3 when nothing here continues it.")
        @Argument(help: "The activity's id, from handoff list.") var id: String?
        @Flag(help: "The newest activity of any paired device.") var latest = false
        @Flag(name: .customLong("print"), help: "Print the activity as a handler would get it; start nothing.") var printOnly = false
        @Option(help: ArgumentHelp("Read this config file instead of $XDG_CONFIG_HOME/actshare/config.yaml.", valueName: "file"), completion: .file())
        var config: String?

        func validate() throws {
            guard (id == nil) == latest else { throw ValidationError("give an activity id, or --latest") }
        }

        func run() throws {
            let connection = try DaemonConnection()
            let response: ControlResponse
            do {
                response = try connection.client.call(ControlRequest(.fetch, id: id))
            } catch let error as ActShareError {
                throw CommandFailure(.failed, error.phrase)
            }
            // --print shows the activity even when nothing here continues it.
            if printOnly, let activity = response.activity {
                return StandardStreams.out(try HandoffOutput.json(Continuer.file(for: activity)) + "\n")
            }
            try DaemonConnection.check(response)
            guard let activity = response.activity, let continuation = response.continuation else {
                throw CommandFailure(.failed, "the daemon sent no activity")
            }
            let browser = try Invocation(configFile: config).config.handoff.browser
            let said = try Continuer(browser: browser).start(activity, continuation)
            _ = try? connection.call(ControlRequest(.continued, id: activity.id, device: activity.origin))
            StandardStreams.out(said + "\n")
        }
    }
}
