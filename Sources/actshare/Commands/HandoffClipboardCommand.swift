import ActShareCore
import ActShareHandoff
import ArgumentParser

/// `actshare handoff clipboard`: the Universal Clipboard (docs/CLIPBOARD.md).
struct HandoffClipboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clipboard",
        abstract: "Offer this clipboard to your paired devices, and see what is offered.",
        discussion: """
            With config handoff.clipboard: auto, every copy is offered to the paired devices that are reachable; with manual \
            (the default), only what `push` offers; with off, nothing is offered or taken. A device that takes an offer pastes \
            it as if copied there; the bytes travel only when an application pastes. Passwords (marked by a password manager) \
            are never offered; an offer ends when this clipboard changes or after 2 minutes.
            """,
        subcommands: [Push.self, Status.self])

    struct Push: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Offer what this clipboard holds now to paired devices (all, or those named).",
            discussion: """
                With --text or files, offer those instead, as if copied on the other devices ("Copy to device"): nothing is \
                read from this clipboard, so it works where it cannot be read (a Wayland compositor without data-control, a \
                terminal without a display). Files travel only when pasted there, into its receive folder.
                """)
        @Option(name: .customLong("device"), help: ArgumentHelp("A paired device's name or id (repeat for several; default: every one).", valueName: "name"))
        var devices: [String] = []
        @Option(help: ArgumentHelp("Offer this text instead of the clipboard.", valueName: "text")) var text: String?
        @Argument(help: ArgumentHelp("Files or folders to offer instead of the clipboard.", valueName: "file")) var files: [String] = []
        @Flag(help: "Print machine-readable JSON (the clipboard's status) on standard output.") var json = false

        func validate() throws {
            if text != nil && !files.isEmpty { throw ValidationError("give --text or files, not both") }
        }

        func run() throws {
            let paths = files.isEmpty ? nil : files.map { FileSystem.absolute(FileSystem.expandingTilde($0)) }
            let status = try DaemonConnection().call(ControlRequest(.clipboardPush, paths: paths, devices: devices, text: text)).clipboard
            if json { return StandardStreams.out(try HandoffOutput.json(status) + "\n") }
            guard let offered = status?.offered else { return }
            let to = offered.to ?? []
            StandardStreams.out("Offered \(Status.describe(offered)) to \(to.map(TerminalText.visible).joined(separator: ", ")) until \(Status.clock(offered.expires)).\n")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "What this device offers, what it took from another, and until when.")
        @Flag(help: "Print machine-readable JSON on standard output.") var json = false

        func run() throws {
            guard let status = try DaemonConnection().call(ControlRequest(.clipboardStatus)).clipboard else {
                throw CommandFailure(.failed, "the daemon did not say")
            }
            if json { return StandardStreams.out(try HandoffOutput.json(status) + "\n") }
            var lines = ["Mode: \(status.mode)" + (status.display.map { ", \($0)" } ?? "")]
            if let problem = status.problem { lines.append("Not watching the clipboard: \(problem)") }
            if let offered = status.offered {
                let to = (offered.to ?? []).map(TerminalText.visible)
                lines.append("Offered: \(Self.describe(offered)), since \(Self.clock(offered.created)), until \(Self.clock(offered.expires))"
                    + (to.isEmpty ? " (no device took it)" : ", taken by \(to.joined(separator: ", "))"))
            }
            if let received = status.received {
                lines.append("From \(TerminalText.visible(received.device)): \(Self.describe(received)), since \(Self.clock(received.created)), until \(Self.clock(received.expires))")
            }
            if status.offered == nil, status.received == nil { lines.append("Nothing is offered either way.") }
            if let notice = status.notice { lines.append(TerminalText.visible(notice)) }
            StandardStreams.out(lines.joined(separator: "\n") + "\n")
        }

        /// "“Hello…” (text, 12 bytes)" or "image/png, 2.1 MB".
        static func describe(_ offer: ClipboardOfferSummary) -> String {
            let bytes = offer.targets.map(\.size).max() ?? 0
            let kinds = offer.targets.map(\.name).filter { $0.contains("/") }
            if let preview = offer.preview {
                return "“\(TerminalText.visible(preview))” (text, \(ByteCount.describe(bytes)))"
            }
            if let files = offer.files, let first = files.first {
                let name = "“\(TerminalText.visible(first))”"
                return files.count == 1 ? "the file \(name)" : "\(files.count) files (\(name) and \(files.count - 1) more)"
            }
            return "\(TerminalText.visible(kinds.first ?? offer.targets.first?.name ?? "data")), \(ByteCount.describe(bytes))"
        }

        /// "14:03:27" in the local time zone.
        static func clock(_ seconds: Double) -> String { HandoffCommand.Received.localTime(seconds, format: "%H:%M:%S") }
    }
}
