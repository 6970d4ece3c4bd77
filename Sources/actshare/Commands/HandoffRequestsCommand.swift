import ActShareCore
import ActShareHandoff
import ArgumentParser

extension HandoffCommand {
    /// `actshare handoff requests`: LocalSend devices and phones (Quick Share) waiting to send files here.
    struct Requests: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the LocalSend devices and phones (Quick Share) waiting for an answer to send files here.",
            discussion: """
                A LocalSend device's or a phone's transfer is never accepted without asking: answer with `actshare handoff \
                accept ID` or `actshare handoff decline ID` (or the notification's buttons) within a minute; unanswered, it \
                is declined. "pinned" means the device proved it holds the certificate pinned for it here. A phone sending \
                with Quick Share shows a PIN: accept only if the phone shows the same. A message (text sent from LocalSend \
                or a phone) is shown with its request; accepted, it is kept as its file (message.txt) in the receive folder.
                """)
        @Flag(help: "Print machine-readable JSON on standard output.") var json = false

        func run() throws {
            let requests = try DaemonConnection().call(ControlRequest(.requests)).requests ?? []
            if json { return StandardStreams.out(try HandoffOutput.json(requests) + "\n") }
            if requests.isEmpty { return StandardStreams.err("No device is waiting for an answer.\n") }
            for request in requests {
                let how = request.pin.map { " (Quick Share, PIN \($0))" } ?? (request.pinned ? " (pinned)" : "")
                if let message = request.message {
                    StandardStreams.out("\(request.id)  \"\(TerminalText.visible(request.device))\" at \(request.address)\(how)  "
                        + "a message, \(ByteCount.describe(request.bytes)): \(TerminalText.visible(message))  \(Int(request.expires)) s left\n")
                    continue
                }
                let count = request.files.count
                let names = request.files.prefix(3).map { TerminalText.visible($0.name) }.joined(separator: ", ") + (count > 3 ? ", …" : "")
                StandardStreams.out("\(request.id)  \"\(TerminalText.visible(request.device))\" at \(request.address)\(how)  "
                    + "\(count) file\(count == 1 ? "" : "s"), \(ByteCount.describe(request.bytes)): \(names)  \(Int(request.expires)) s left\n")
            }
        }
    }

    /// `actshare handoff accept ID`.
    struct Accept: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept a LocalSend device's files (an ID from `actshare handoff requests`).")
        @Argument(help: "The request's id.") var id: String
        @Flag(help: "Accept this device's files from now on without asking (only once it proved its pinned certificate).") var always = false

        func run() throws {
            let connection = try DaemonConnection()
            // A phone's link alone is kept to open, not put in the folder (docs/PROTOCOL.md).
            let asked = try connection.call(ControlRequest(.requests)).requests?.first { $0.id == id }
            let link = asked.map { $0.via == "quickshare" && $0.files.count == 1 && ActivityChecks.isWebURL($0.message ?? "") } ?? false
            _ = try connection.call(ControlRequest(.accept, id: id, always: always ? true : nil))
            StandardStreams.out(link ? "Accepted \(TerminalText.visible(id)): the link is kept to open (actshare handoff continue --latest).\n"
                                     : "Accepted \(TerminalText.visible(id)): the files go to the receive folder.\n")
        }
    }

    /// `actshare handoff decline ID`.
    struct Decline: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decline a LocalSend device's files (an ID from `actshare handoff requests`), or stop them once accepted.",
            discussion: "Stopped while they arrive, nothing of them is kept.")
        @Argument(help: "The request's id.") var id: String

        func run() throws {
            _ = try DaemonConnection().call(ControlRequest(.decline, id: id))
            StandardStreams.out("Declined \(TerminalText.visible(id)).\n")
        }
    }
}
