import ActShareCore
import ActShareHandoff
import ArgumentParser
import CActShareSystem
#if canImport(Glibc)
import Glibc
#endif

extension HandoffCommand {
    /// `actshare handoff send`: files and folders (the daemon reads and sends them), URLs
    /// and text to paired devices.
    struct Send: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send files, folders, URLs or text to paired devices or LocalSend devices.",
            discussion: """
                Files land in the other device's download folder (config handoff.receive-dir there), never over a file already there. \
                With one paired device --device may be left out. Ctrl-C cancels (exit 4); the receiver then keeps nothing. \
                A device that is off gets the files when it is back: they wait in `actshare handoff queue`.

                A LocalSend device (a phone with the LocalSend app; `actshare handoff discover` lists them) is named with --device \
                by the name it shows; its user accepts there. The first time, its certificate is pinned under that name, and a \
                device announcing another one under that name later is refused.

                A phone with Quick Share (Android's own) that advertises is named with --device the same way; the PIN \
                printed must be the one the phone shows. A phone that cannot see this device gets the share through a \
                QR code: with --qr the code is shown (drawn on the terminal), you scan it with the phone's camera, and \
                the files, or the one text or link, go to the phone that scanned it, waited for up to 2 minutes. \
                Where Bluetooth is on (BlueZ), Quick Share's Bluetooth signal is sent meanwhile, as Android's share sheet \
                does, and phones nearby offer to receive; where it is not, that is said, and only the code reaches a phone.
                """)

        @Option(name: .customLong("device"), help: ArgumentHelp("A paired device, by name or id (repeat for several).", valueName: "name"),
                completion: .custom(CompletionCandidates.deviceNames))
        var devices: [String] = []
        @Flag(help: "Send to every paired device.") var all = false
        @Option(help: ArgumentHelp("Send this text (to the other device's clipboard when continued).", valueName: "text")) var text: String?
        @Flag(help: "Print what each device got (name, bytes, SHA-256), or why not, as JSON.") var json = false
        @Flag(help: "For a device not reachable now, copy the files to wait (else they are sent as they are then).") var copy = false
        @Option(help: ArgumentHelp("The PIN a LocalSend device asks for (it shows it).", valueName: "pin")) var pin: String?
        @Flag(help: "Show a QR code to scan with an Android phone's camera, and send to the phone that scans it (Quick Share).") var qr = false
        @Argument(help: ArgumentHelp("Files, folders, or http(s) URLs.", valueName: "item"), completion: .file()) var items: [String] = []

        func validate() throws {
            guard !items.isEmpty || text != nil else { throw ValidationError("name files, folders or URLs to send, or give --text") }
            if all, !devices.isEmpty { throw ValidationError("give --device NAME or --all, not both") }
            if qr {
                if all || !devices.isEmpty || copy || pin != nil { throw ValidationError("--qr sends to the phone that scans the code: leave out --device, --all, --copy and --pin") }
                let urls = items.filter { ActivityChecks.isWebURL($0) }.count
                if (text != nil ? 1 : 0) + urls > 1 || (text != nil || urls > 0) && items.count > urls {
                    throw ValidationError("with --qr, send files, or one link or text (Quick Share takes one kind at a time)")
                }
            }
            if let pin, pin.isEmpty || pin.utf8.count > 64 || pin.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw ValidationError("--pin takes the PIN the device shows: 1 to 64 characters")
            }
        }

        func run() throws {
            if qr { return try sendByQRCode() }
            let urls = items.filter { ActivityChecks.isWebURL($0) }
            let paths = items.filter { !ActivityChecks.isWebURL($0) }.map { FileSystem.absolute(FileSystem.expandingTilde($0)) }
            var deliveries: [Delivery] = []
            var failure: CommandFailure?
            if !paths.isEmpty {
                do {
                    deliveries = try sendFiles(paths)
                } catch let error as PartialFailure {
                    deliveries = error.deliveries
                    failure = error.failure
                }
            }
            let activities = urls.map(Self.urlActivity) + (text.map { [Self.textActivity($0)] } ?? [])
            if !activities.isEmpty {
                let connection = try DaemonConnection()
                let targets: [String?] = all ? try connection.call(ControlRequest(.devices)).devices?.map(\.id) ?? [] : devices.isEmpty ? [nil] : devices
                for activity in activities {
                    for device in targets {
                        deliveries += try connection.call(ControlRequest(.send, activity: activity, device: device, pin: pin)).deliveries ?? []
                    }
                }
            }
            if json {
                // The phrases are for this terminal's words; --json keeps its shape (docs/CLI.md).
                StandardStreams.out(try HandoffOutput.json(deliveries.map { var delivery = $0; delivery.phrase = nil; return delivery }) + "\n")
            } else {
                for delivery in deliveries {
                    guard let id = delivery.queued else { continue }
                    if let error = delivery.translatedError {
                        // It broke off mid-way: said, with how much went; the rest waits.
                        StandardStreams.out(Localized.text("%s; the files wait as %s (actshare handoff queue).", TerminalText.visible(error.prefix(1).uppercased() + error.dropFirst()), id) + "\n")
                    } else {
                        StandardStreams.out(Localized.text("%s is not reachable now: the files wait as %s and go when it is back (actshare handoff queue).", TerminalText.visible(delivery.device), id) + "\n")
                    }
                }
                for delivery in deliveries {
                    guard let fingerprint = delivery.pinned else { continue }
                    StandardStreams.out(Localized.text("First contact with %s (LocalSend): its certificate %s is pinned; another one under that name will be refused.",
                                                       TerminalText.visible(delivery.device), fingerprint) + "\n")
                }
                for delivery in deliveries where delivery.error == nil && delivery.queued == nil && !delivery.delivered.isEmpty {
                    let bytes = delivery.delivered.reduce(0) { $0 + $1.bytes }
                    let count = delivery.delivered.count
                    StandardStreams.out(Localized.plural("Sent %d file (%s) to %s: %s", "Sent %d files (%s) to %s: %s", count: count, count, ByteCount.describe(bytes),
                                                         TerminalText.visible(delivery.device), delivery.received.map(TerminalText.visible).joined(separator: Localized.text(", "))) + "\n")
                }
                // One device: its error is the command's, said once by main.
                for delivery in deliveries where deliveries.count > 1 {
                    if let error = delivery.translatedError { StandardStreams.error("\(delivery.device): \(error)") }
                }
                let handedOff = urls.count + (text == nil ? 0 : 1)
                if handedOff > 0 { StandardStreams.out(Localized.plural("Handed off %d item.", "Handed off %d items.", count: handedOff, handedOff) + "\n") }
            }
            if let failure { throw failure }
        }

        /// `--qr`: the code shown, then the share to the phone that scanned it.
        private func sendByQRCode() throws {
            let url = items.first(where: ActivityChecks.isWebURL)
            let paths = url == nil ? items.map { FileSystem.absolute(FileSystem.expandingTilde($0)) } : []
            let connection = try DaemonConnection()
            cactshare_catch_cancel_signals()
            let cancelled = cactshare_cancel_flag()!
            let bar = isatty(2) == 1 ? ProgressLine() : nil
            try connection.client.send(ControlRequest(.sendQR, paths: paths.isEmpty ? nil : paths, text: text ?? url))
            while true {
                let response: ControlResponse
                do {
                    response = try connection.client.receive()
                } catch let error as ActShareError {
                    bar?.finish()
                    if cancelled.pointee != 0 { throw CommandFailure(.cancelled, "cancelled") }
                    throw CommandFailure(.failed, error.phrase)
                }
                if cancelled.pointee != 0 {
                    connection.client.shutdown()
                    throw CommandFailure(.cancelled, "cancelled")
                }
                switch response.event {
                case "qr":
                    showQRCode(response.url ?? "")
                    continue
                case "bluetooth":
                    if let signal = response.bluetooth { StandardStreams.err(signal.sentence + "\n") }
                    continue
                case "found":
                    StandardStreams.err(Localized.text("%s scanned the code.", TerminalText.visible(response.device?.name ?? "A phone")) + "\n")
                    continue
                case "pin":
                    bar?.finish()
                    StandardStreams.err(DaemonConnection.pinLine(response) + "\n")
                    continue
                case "progress":
                    bar?.show(response.bytes ?? 0, of: response.total ?? 0, devices: [])
                    continue
                case .some:
                    continue  // `waiting`, and what a later daemon may add
                case nil:
                    break
                }
                bar?.finish()
                try DaemonConnection.check(response)
                let deliveries = response.deliveries ?? []
                if json { return StandardStreams.out(try HandoffOutput.json(deliveries.map { var delivery = $0; delivery.phrase = nil; return delivery }) + "\n") }
                for delivery in deliveries {
                    if delivery.delivered.isEmpty {
                        StandardStreams.out(Localized.text("Sent to %s.", TerminalText.visible(delivery.device)) + "\n")
                    } else {
                        let bytes = delivery.delivered.reduce(0) { $0 + $1.bytes }, count = delivery.delivered.count
                        StandardStreams.out(Localized.plural("Sent %d file (%s) to %s: %s", "Sent %d files (%s) to %s: %s", count: count, count, ByteCount.describe(bytes),
                                                             TerminalText.visible(delivery.device), delivery.received.map(TerminalText.visible).joined(separator: Localized.text(", "))) + "\n")
                    }
                }
                return
            }
        }

        /// The code for the phone's camera: drawn by Show QR Code (on a terminal, with its
        /// PNG) unless --json keeps standard output for the result; its link said in any case.
        private func showQRCode(_ url: String) {
            StandardStreams.err(Localized.text("Scan this QR code with the phone's camera to send it there (Quick Share; waiting up to 2 minutes, Ctrl-C stops): %s", url) + "\n")
            guard !json, isatty(1) == 1 else { return }
            try? PerformCommand.perform("org.actshare.qrcode", items: ItemSelection(arguments: [url]), options: ActivitySelection())
        }

        /// A failure that still carries what each device got.
        struct PartialFailure: Error {
            var failure: CommandFailure
            var deliveries: [Delivery]
        }

        /// Sends the files through the daemon, drawing its progress on a terminal; Ctrl-C
        /// closes the connection, which cancels.
        private func sendFiles(_ paths: [String]) throws -> [Delivery] {
            let connection = try DaemonConnection()
            cactshare_catch_cancel_signals()
            let cancelled = cactshare_cancel_flag()!
            let bar = isatty(2) == 1 ? ProgressLine() : nil
            try connection.client.send(ControlRequest(
                .sendFiles, paths: paths, devices: devices.isEmpty ? nil : devices, all: all ? true : nil, copy: copy ? true : nil, pin: pin))
            // Each device's part as last reported: what is known of a send the daemon did
            // not live to answer.
            var reported: [TransferProgress] = []
            while true {
                if cancelled.pointee != 0 {
                    connection.client.shutdown()
                    bar?.finish()
                    throw CommandFailure(.cancelled, "cancelled")
                }
                let response: ControlResponse
                do {
                    response = try connection.client.receive()
                } catch let error as ActShareError {
                    bar?.finish()
                    if cancelled.pointee != 0 { throw CommandFailure(.cancelled, "cancelled") }
                    throw Self.brokenOff(error.message, reported: reported, devices: devices)
                }
                if response.event == "pin" {
                    // Quick Share: the phone shows the same four digits, or someone is in between.
                    bar?.finish()
                    StandardStreams.err(DaemonConnection.pinLine(response) + "\n")
                    continue
                }
                if response.event == "progress" {
                    bar?.show(response.bytes ?? 0, of: response.total ?? 0, devices: response.progress ?? [])
                    if let progress = response.progress { reported = progress }
                    continue
                }
                bar?.finish()
                do {
                    try DaemonConnection.check(response)
                } catch let failure as CommandFailure {
                    guard let deliveries = response.deliveries else { throw failure }
                    throw PartialFailure(failure: failure, deliveries: deliveries)
                }
                return response.deliveries ?? []
            }
        }

        /// The daemon went away before it answered (`why`): each device with the bytes last
        /// reported for it — the send broke off there, and the receiver keeps them to resume
        /// from — so that `--json` still prints a result for each.
        static func brokenOff(_ why: String, reported: [TransferProgress], devices: [String]) -> PartialFailure {
            let message: Phrase = "the send broke off: \(why)"
            let parts = reported.isEmpty ? (devices.isEmpty ? [""] : devices).map { TransferProgress(device: $0, bytes: 0, total: 0) } : reported
            let deliveries = parts.map { part in
                let gone: Phrase = part.total > 0 ? "the send broke off: \(why) (\(ByteCount.describe(part.bytes)) of \(ByteCount.describe(part.total)) had gone)" : message
                return Delivery(device: part.device, transferred: part.bytes, error: gone)
            }
            let said = deliveries.count == 1 ? deliveries[0].phrase ?? message : message
            return PartialFailure(failure: CommandFailure(.failed, said), deliveries: deliveries)
        }

        static func urlActivity(_ url: String) -> UserActivity {
            var activity = UserActivity(type: UserActivity.handedOffURL, title: url)
            activity.webpageURL = url
            activity.userInfo = ["url": .string(url)]
            return activity
        }

        static func textActivity(_ text: String) -> UserActivity {
            let line = text.prefix { $0 != "\n" && $0 != "\r" }
            var activity = UserActivity(type: UserActivity.handedOffText, title: String(line.prefix(60)))
            activity.userInfo = ["text": .string(text)]
            return activity
        }
    }

    /// `actshare handoff queue`: the sends waiting for their devices.
    struct Queue: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the sends waiting for a device that was not reachable, or cancel one.")
        @Flag(help: "Print machine-readable JSON on standard output.") var json = false
        @Option(help: ArgumentHelp("Drop the queued send of this id.", valueName: "id")) var cancel: String?

        func run() throws {
            let connection = try DaemonConnection()
            if let cancel {
                _ = try connection.call(ControlRequest(.queueCancel, id: cancel))
                return StandardStreams.out("Cancelled \(cancel).\n")
            }
            let queued = try connection.call(ControlRequest(.queue)).queued ?? []
            if json { return StandardStreams.out(try HandoffOutput.json(queued) + "\n") }
            for item in queued {
                let tries = item.attempts == 0 ? "not tried yet" : "tried \(item.attempts) time\(item.attempts == 1 ? "" : "s")"
                StandardStreams.out("\(item.id)  \(TerminalText.visible(item.deviceName))  \(item.paths.count) item\(item.paths.count == 1 ? "" : "s")  \(tries)"
                    + (item.copied ? "  (copied)" : "") + "\n")
            }
        }
    }

    /// `actshare handoff received`: what paired devices sent here.
    struct Received: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the files paired devices sent here: from whom, when, where, how big.")
        @Flag(help: "Print machine-readable JSON (with each file's SHA-256) on standard output.") var json = false

        func run() throws {
            let transfers = try DaemonConnection().call(ControlRequest(.received)).transfers ?? []
            if json { return StandardStreams.out(try HandoffOutput.json(transfers) + "\n") }
            for transfer in transfers {
                let when = Self.localTime(transfer.when)
                let count = transfer.files.count
                StandardStreams.out("\(when)  \(TerminalText.visible(transfer.from))  \(count) file\(count == 1 ? "" : "s"), \(ByteCount.describe(transfer.bytes))  "
                    + transfer.paths.map { TerminalText.visible(FileSystem.abbreviatingHome($0)) }.joined(separator: ", ") + "\n")
            }
        }

        /// "2026-11-22 20:41" in the local time zone.
        static func localTime(_ seconds: Double) -> String { localTime(seconds, format: "%Y-%m-%d %H:%M") }

        /// `seconds` since 1970 in the local time zone, as strftime's `format` writes it.
        static func localTime(_ seconds: Double, format: String) -> String {
            var time = time_t(seconds), parts = tm()
            localtime_r(&time, &parts)
            var text = [CChar](repeating: 0, count: 64)
            let count = strftime(&text, text.count, format, &parts)
            return String(decoding: text.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
