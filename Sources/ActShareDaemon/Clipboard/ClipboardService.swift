import ActShareCore
import ActShareCrypto
import ActShareHandoff
import NIOCore
import NIOPosix
import NIOSSL

/// The Universal Clipboard (docs/CLIPBOARD.md): this device's clipboard offered to its
/// reachable paired devices when it changes (mode `auto`) or when asked (`push`), and
/// their offers carried by this device's clipboard, the bytes fetched from the offering
/// device only when an application pastes them.
///
/// The rules it keeps, and where: secrets are never read into an offer (the agent marks
/// them; ``offerLocal(_:to:)`` refuses them); an offer is withdrawn when its clipboard
/// changes or is cleared (``agentSays(_:)``); offers expire after
/// ``ClipboardSettings/offerSeconds`` (``ClipboardBoard/expire()``); an offer older than this device's
/// own last copy is not taken, and an offer taken here is never offered back (the agent
/// does not report its own ownership); only a device that took an offer may fetch it
/// (``ClipboardBoard/bytes(offer:sha256:for:)``).
struct ClipboardService: Sendable {
    let settings: ClipboardSettings
    let device: LocalDevice
    let peers: PeerDirectory
    /// Files copied travel as a transfer, into the receive directory.
    let transfers: TransferService
    let board: ClipboardBoard
    let group: MultiThreadedEventLoopGroup
    let clientContext: NIOSSLContext

    /// Runs the agent on this user's display, Wayland or X11 (restarting it, with pauses, if it ends)
    /// and expires offers, until the daemon stops.
    func run() async {
        guard settings.mode != .off else { return DaemonLog.debug(Self.offLine) }
        await withDiscardingTaskGroup { group in
            group.addTask {
                while !Task.isCancelled {
                    if let expired = await board.expire(), let agent = await board.agent {
                        await agent.send(AgentFrame(AgentMessage("release", offer: expired)))
                    }
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            group.addTask { await runAgent() }
        }
    }

    /// Debug lines a test waits for: the decision that could have offered something was made.
    static let offLine = "clipboard: off (config handoff.clipboard)"
    static let changedManualLine = "clipboard: the clipboard changed here (manual: offered only when pushed)"
    static let secretLine = "clipboard: a password was copied here: not offered"

    private func runAgent() async {
        let displays = ["WAYLAND_DISPLAY", "DISPLAY"].compactMap { name in Environment.value(name).flatMap { $0.isEmpty ? nil : "\(name)=\($0)" } }
        guard !displays.isEmpty else {
            await board.attach(nil, display: nil, problem: "no display (neither WAYLAND_DISPLAY nor DISPLAY is set where the daemon runs)")
            DaemonLog.line("clipboard: no display, so the clipboard is not watched (neither WAYLAND_DISPLAY nor DISPLAY is set)")
            return
        }
        var pause = 1
        while !Task.isCancelled {
            do {
                let agent = try await ClipboardAgent.start(settings.agent, watch: settings.mode == .auto, primary: settings.primary, maximumBytes: settings.maximumBytes,
                                                          group: group)
                // Which display it watches comes with its `ready` (Wayland if the compositor
                // lets it, else X11).
                await board.attach(agent, display: nil, problem: nil)
                DaemonLog.debug("clipboard: agent \(agent.pid) for \(displays.joined(separator: ", ")), mode \(settings.mode.rawValue)")
                let status = await agent.run { frame in await agentSays(frame) }
                await board.attach(nil, display: nil, problem: "the clipboard agent ended (status \(status))")
                DaemonLog.line("clipboard: the agent for \(displays.joined(separator: ", ")) ended (status \(status)); starting it again in \(pause) s")
            } catch {
                await board.attach(nil, display: nil, problem: "the clipboard agent cannot start: \(error)")
                DaemonLog.line("clipboard: cannot start \(settings.agent): \(error)")
            }
            try? await Task.sleep(for: .seconds(pause))
            pause = min(pause * 2, 60)
        }
    }

    // MARK: What the agent says

    private func agentSays(_ frame: AgentFrame) async {
        let message = frame.header
        switch message.type {
        case "ready":
            await board.watching(message.display)
        case "changed" where message.push == true:
            await board.pushRead(frame)
        case "changed":
            guard message.unanswered != true else { return }
            _ = await offerLocal(frame, to: nil)
        case "owner-changed":
            // Manual mode: what was pushed is no longer the clipboard.
            DaemonLog.debug(Self.changedManualLine)
            if let old = await board.localChange(nil) { withdraw(old) }
        case "fetch":
            guard let id = message.offer, let hash = message.hash else { return }
            Task {
                let started = ContinuousClock.now
                let agent = await board.agent
                // Each piece to the agent as it comes (a large paste starts at once), then
                // the verdict: the agent holds a paste's end back until it is `ok`.
                let pieces = await fetch(offer: id, sha256: hash) { piece in
                    await agent?.send(AgentFrame(AgentMessage("data", offer: id, hash: hash, more: true), data: piece))
                }
                DaemonLog.debug("clipboard: fetched \(id) (\(pieces == nil ? "failed" : "checked")) in \(ContinuousClock.now - started)")
                await agent?.send(AgentFrame(AgentMessage("data", offer: id, hash: hash, ok: pieces != nil)), more: pieces ?? [])
            }
        case "released":
            if let id = message.offer, await board.dropIncoming(id) { DaemonLog.debug("clipboard: \(id) replaced by a copy here") }
        default:
            break
        }
    }

    /// Offers what the agent read to `devices` (names or ids; nil: every paired device
    /// that takes clipboards). Returns the offer, or why there is none.
    /// `grants`: a provider's items, for files its restricted connection pushed.
    func offerLocal(_ frame: AgentFrame, to devices: [String]?, grants: ItemGrants? = nil) async -> Result<ClipboardOffer, HandoffError> {
        let message = frame.header
        let now = ClipboardBoard.now()
        let targets = message.targets ?? []
        if message.unanswered == true { return .failure(.clipboard(.notAnswered)) }
        if message.secret == true || targets.isEmpty {
            // Cleared, or a password: what was offered is withdrawn everywhere.
            if let old = await board.localChange(nil) { withdraw(old) }
            if message.hintUnread == true {
                await board.note("the copy was not offered: its program marks passwords, and did not say in time whether this is one")
                DaemonLog.line("clipboard: a copy's password hint was not answered in time: not offered")
            } else {
                DaemonLog.debug(message.secret == true ? Self.secretLine : "clipboard: the clipboard was cleared here")
            }
            return .failure(message.secret == true ? .clipboard(.secret) : .clipboard(.empty))
        }
        var offer = ClipboardOffer(id: Pairing.newID(), created: now, expires: now + settings.offerSeconds, targets: [])
        var bytes: [String: ByteBuffer] = [:]
        if message.tooLarge == true {
            offer.tooLarge = true
            offer.total = message.total
        } else {
            var data = frame.data
            for target in targets.prefix(ClipboardOffer.maximumTargets) where ClipboardOffer.isTargetName(target.name) {
                guard target.size <= UInt64(data.readableBytes), let slice = data.readSlice(length: Int(target.size)) else { break }
                // The agent hashed it as it read it (it is this daemon's own child); a
                // frame made here (Copy to device) is hashed here.
                let hash = target.hash.flatMap { ClipboardOffer.isSHA256($0) ? $0 : nil } ?? {
                    var hasher = SHA256()
                    slice.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                    return Hex.string(hasher.finalize())
                }()
                bytes[hash] = slice
                offer.targets.append(ClipboardOffer.Target(name: target.name, size: target.size, sha256: hash))
                if offer.preview == nil, Self.isText(target.name) {
                    offer.preview = Self.preview(slice)
                }
            }
        }
        // Files a file manager copied: offered as files, sent when pasted.
        var files: [String]?
        if let list = offer.targets.first(where: { $0.name == "text/uri-list" }), let listed = bytes[list.sha256],
           let paths = FileClipboard.paths(inURIList: Array(listed.readableBytesView)) {
            files = paths
            offer.files = paths.map(FileSystem.baseName)
            offer.targets = offer.targets.filter { FileClipboard.targets.contains($0.name) }
            offer.preview = nil
        }
        if let old = await board.localChange(ClipboardBoard.Outgoing(offer: offer, bytes: bytes, files: files, grants: files == nil ? nil : grants)) { withdraw(old) }
        if offer.tooLarge == true {
            DaemonLog.line("clipboard: \(ByteCount.describe(offer.total ?? 0)) copied, over clipboard-max: only noticed")
        }
        DaemonLog.debug("clipboard: \(offer.id) read and hashed, \(frame.data.readableBytes) bytes")
        let chosen = await clipboardTargets(named: devices)
        let offered = offer
        let task = Task { await send(offered, to: chosen) }
        // A push waits for the answers; a copy does not (the agent goes on watching).
        if devices != nil {
            let refusals = await task.value
            if offer.tooLarge == true { return .failure(.clipboard(.tooLarge(total: offer.total ?? 0, maximum: settings.maximumBytes))) }
            let taken = await board.outgoing?.takenBy.count ?? 0
            if taken == 0 { return .failure(.clipboard(.notTaken(devices: refusals))) }
        }
        return .success(offer)
    }

    /// The paired devices a clipboard goes to: those named, or all; never one marked
    /// `clipboard: false`.
    private func clipboardTargets(named names: [String]?) async -> [PeerDirectory.Target] {
        let all = await peers.targets().filter { $0.entry.clipboard != false }
        guard let names, !names.isEmpty else { return all }
        var pins: Set<String> = []
        for name in names { if let entry = await peers.entry(named: name) { pins.insert(entry.pin) } }
        return all.filter { pins.contains($0.entry.pin) }
    }

    /// Sends `offer` to each device at once; returns the refusals, worded.
    @discardableResult
    private func send(_ offer: ClipboardOffer, to targets: [PeerDirectory.Target]) async -> [String] {
        await withTaskGroup(of: String?.self) { group in
            for (entry, addresses) in targets {
                group.addTask {
                    do {
                        let reply = try await peers.request(PeerMessage(.clipboardOffer, clipboard: offer), to: entry, addresses: addresses, seconds: 2)
                        guard reply.type == .ok else { return "\(entry.name): \(Daemon.quoted(reply.message) ?? "refused")" }
                        await board.taken(offer.id, by: entry)
                        DaemonLog.debug("clipboard: \(offer.id) offered to \(entry.name)")
                        return nil
                    } catch {
                        return "\(HandoffError(error))"
                    }
                }
            }
            var refusals: [String] = []
            for await refusal in group { if let refusal { refusals.append(refusal) } }
            return refusals
        }
    }

    /// Tells the devices that took `old` (but `except`) that it is gone, in the background.
    func withdraw(_ old: ClipboardBoard.Outgoing, except pin: String? = nil) {
        guard !old.takenBy.isEmpty else { return }
        Task {
            for (entry, addresses) in await peers.targets() where old.takenBy[entry.pin] != nil && entry.pin != pin {
                _ = try? await peers.request(PeerMessage(.clipboardWithdraw, id: old.offer.id), to: entry, addresses: addresses, seconds: 2)
            }
        }
    }

    static func isText(_ target: String) -> Bool {
        ["UTF8_STRING", "STRING", "TEXT", "text/plain", "text/plain;charset=utf-8"].contains(target)
    }

    /// The first line of UTF-8 text, at most ``ClipboardOffer/previewLength`` characters,
    /// control characters left out.
    static func preview(_ bytes: ByteBuffer) -> String? {
        let text = String(decoding: bytes.readableBytesView.prefix(4 * ClipboardOffer.previewLength), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let shown = String(String.UnicodeScalarView(line.unicodeScalars.filter { !TerminalText.isControl($0) }).prefix(ClipboardOffer.previewLength))
        return shown.isEmpty ? nil : shown
    }

    // MARK: Control requests

    /// `clipboard-push`: reads the clipboard now and offers it (to `devices`, or all); or
    /// offers `content` instead, which needs no clipboard here ("Copy to device").
    /// `grants`: the items of a provider's restricted connection, which its files must be.
    func push(to devices: [String], content: ClipboardContent? = nil, grants: ItemGrants? = nil) async -> ControlResponse {
        guard settings.mode != .off else { return .failure(.clipboard(.off)) }
        let read: AgentFrame
        if let content {
            switch Self.frame(for: content, grants: grants) {
            case .success(let frame): read = frame
            case .failure(let error): return .failure(error)
            }
        } else {
            guard let agent = await board.agent else { return .failure(.clipboard(.unreachable(await board.problem ?? "no agent"))) }
            await board.expectPush()
            await agent.send(AgentFrame(AgentMessage("read")))
            // The agent answers within its own limits (1.5 s an owner, per target).
            var frame: AgentFrame?
            for _ in 0..<500 where frame == nil {
                try? await Task.sleep(for: .milliseconds(20))
                frame = await board.takePushed()
            }
            guard let frame else { return .failure(.clipboard(.notAnswered)) }
            read = frame
        }
        switch await offerLocal(read, to: devices, grants: grants) {
        case .failure(let error): return .failure(error)
        case .success:
            var response = ControlResponse.success()
            response.clipboard = await status()
            return response
        }
    }

    /// `content` as the agent would have read it from a copy: text under its X and MIME
    /// names; files (checked now as a send would check them) as a `text/uri-list`, which
    /// ``offerLocal(_:to:)`` offers as files.
    static func frame(for content: ClipboardContent, grants: ItemGrants? = nil) -> Result<AgentFrame, HandoffError> {
        let targets: [(String, [UInt8])]
        switch content {
        case .text(let text):
            guard !text.isEmpty else { return .failure(.clipboard(.empty)) }
            targets = ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain"].map { ($0, Array(text.utf8)) }
        case .files(let paths):
            do {
                _ = try LocalTree(paths: paths, grants: grants)
            } catch {
                return .failure(HandoffError(error))
            }
            targets = FileClipboard.targets.sorted().compactMap { name in FileClipboard.bytes(for: name, paths: paths).map { (name, $0) } }
        }
        var data = ByteBuffer()
        for (_, bytes) in targets { data.writeBytes(bytes) }
        let listed = targets.map { AgentMessage.Target(name: $0.0, size: UInt64($0.1.count)) }
        var message = AgentMessage("changed", targets: listed)
        message.total = UInt64(data.readableBytes)
        return .success(AgentFrame(message, data: data))
    }

    /// `clipboard-status`.
    func status() async -> ClipboardStatus {
        var status = ClipboardStatus(mode: settings.mode.rawValue, display: await board.display, problem: await board.problem,
                                     notice: await board.notice)
        if settings.mode == .off { status.problem = nil }
        if let outgoing = await board.outgoing {
            let offer = outgoing.offer
            status.offered = ClipboardOfferSummary(id: offer.id, device: device.name, deviceID: device.identity.deviceID, created: offer.created,
                                                   expires: offer.expires, targets: offer.summaryTargets, preview: offer.preview,
                                                   files: offer.files, to: outgoing.takenBy.values.sorted())
        }
        if let incoming = await board.incoming {
            let offer = incoming.offer
            status.received = ClipboardOfferSummary(id: offer.id, device: incoming.entry.name, deviceID: incoming.entry.device.id,
                                                    created: offer.created, expires: offer.expires, targets: offer.summaryTargets,
                                                    preview: offer.preview, files: offer.files)
        }
        return status
    }
}
