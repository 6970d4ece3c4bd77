import ActShareCore
import ActShareCrypto
import ActShareHandoff
import NIOConcurrencyHelpers
import NIOCore

/// The Universal Clipboard between daemons: a paired device's offer and withdrawal, a
/// fetch of this device's offer, and this device fetching another's on paste.
extension ClipboardService {
    /// A paired device's `clipboard-offer`.
    func receiveOffer(_ request: PeerMessage, from entry: PairedDevices.Entry) async -> PeerMessage {
        guard settings.mode != .off, entry.clipboard != false else {
            return .error(.clipboard(.offOn(device: device.name)))
        }
        guard var offer = request.clipboard else { return .error(.clipboard(.noOfferGiven)) }
        if let problem = offer.problem(maximumBytes: settings.maximumBytes) {
            DaemonLog.line("clipboard: refused an offer from \(entry.name): \(problem)")
            return .error(.clipboard(.offerRefused(problem)))
        }
        // Its clock is its own: an offer from the future does not win every race, and none
        // lasts longer here than this device lets its own.
        let now = ClipboardBoard.now()
        offer.created = min(offer.created, now + Self.clockSkewSeconds)
        offer.expires = min(offer.expires, now + settings.offerSeconds)
        // Two copies at once: the newer wins on both devices (each sees the other's as older or newer).
        if offer.created <= (await board.lastLocalChange) {
            await board.note("\(entry.name)'s clipboard was not taken: this device copied something newer")
            DaemonLog.debug("clipboard: did not take \(offer.id) from \(entry.name): a copy here is newer")
            return PeerMessage(.ok)
        }
        if offer.tooLarge == true {
            let total = ByteCount.describe(offer.total ?? 0)
            await board.note("\(entry.name) copied \(total), more than its clipboard-max: not offered (send it as a file)")
            DaemonLog.line("clipboard: \(entry.name) copied \(total), over its clipboard-max")
            return PeerMessage(.ok)
        }
        guard let agent = await board.agent else {
            return .error(.clipboard(.unreachable(await board.problem ?? "no agent")))
        }
        if let mine = await board.adopt(ClipboardBoard.Incoming(offer: offer, entry: entry)) {
            withdraw(mine, except: entry.pin)
        }
        // Files are listed in formats made here, once they are: each target its own fetch.
        let targets = offer.targets.map { target in
            offer.files == nil ? AgentMessage.Target(name: target.name, size: target.size, hash: target.sha256)
                : AgentMessage.Target(name: target.name, size: 0, hash: Self.fileTargetHash(offer: offer.id, target: target.name), anySize: true)
        }
        await agent.send(AgentFrame(AgentMessage("own", offer: offer.id, targets: targets)))
        DaemonLog.debug("clipboard: took \(offer.id) from \(entry.name) (\(offer.targets.count) targets)")
        return PeerMessage(.ok)
    }

    /// A paired device's `clipboard-withdraw`: its clipboard changed or was cleared.
    func withdrawn(_ request: PeerMessage, from entry: PairedDevices.Entry) async -> PeerMessage {
        if let id = request.id, await board.dropIncoming(id, from: entry.pin), let agent = await board.agent {
            await agent.send(AgentFrame(AgentMessage("release", offer: id)))
            DaemonLog.debug("clipboard: \(entry.name) withdrew \(id)")
        }
        return PeerMessage(.ok)
    }

    /// The name the agent asks for a format of files by (its bytes are made on fetch).
    static func fileTargetHash(offer id: String, target: String) -> String {
        Hex.string(SHA256.hash(data: Array("files:\(id):\(target)".utf8)))
    }

    /// A paired device's `clipboard-files`: the files of this device's offer, sent to it as
    /// a transfer (only to a device that took the offer); the answer names them there.
    func serveFiles(_ request: PeerMessage, from entry: PairedDevices.Entry) async -> PeerMessage {
        guard let id = request.id, let (paths, grants) = await board.files(offer: id, for: entry.pin) else {
            return .error(.clipboard(.noSuchOfferOfFiles))
        }
        let delivery = await transfers.deliver(paths: paths, grants: grants, to: entry)
        if let error = delivery.error { return PeerMessage(.error, message: error) }
        DaemonLog.line("clipboard: sent \(paths.count) file\(paths.count == 1 ? "" : "s") to \(entry.name), pasted there")
        return PeerMessage(.clipboardData, received: delivery.received)
    }

    /// A paired device's `clipboard-fetch`: one target of this device's offer, as
    /// `clipboard-data` and the bytes in data frames. Only a device that took the offer,
    /// while it lasts.
    func serveFetch(_ request: PeerMessage, from entry: PairedDevices.Entry, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        guard let id = request.id, let hash = request.sha256, var bytes = await board.bytes(offer: id, sha256: hash, for: entry.pin) else {
            try await outbound.write(try Wire.encode(PeerMessage.error(.clipboard(.noSuchOffer))))
            return
        }
        try await outbound.write(try Wire.encode(PeerMessage(.clipboardData, size: UInt64(bytes.readableBytes))))
        while bytes.readableBytes > 0 {
            var chunk = ByteBuffer()
            // As large as a frame holds: a 20 MiB image in 20 frames.
            let slice = bytes.readSlice(length: min(bytes.readableBytes, PeerFrame.dataLimit))!
            chunk.reserveCapacity(slice.readableBytes + 1)
            chunk.writeInteger(PeerFrame.dataTag)
            chunk.writeImmutableBuffer(slice)
            try await outbound.write(chunk)
        }
        DaemonLog.debug("clipboard: \(entry.name) fetched \(hash.prefix(12)) of \(id)")
    }

    /// The bytes of target `sha256` of the offer `id` this device carries, fetched from
    /// its device and checked, in the pieces they came in; nil if it cannot be had (the device gone, the offer
    /// withdrawn, the bytes not those offered). A paste waits for this, so it is quick to
    /// fail: a device that does not answer at once is given up within seconds.
    ///
    /// With `forward`, each piece goes there as it arrives (within the offered size) and
    /// the answer is then empty: nil still says the whole was not had, or not the offered
    /// bytes. Once a piece has gone, no other address of the device is tried.
    func fetch(offer id: String, sha256: String, forward: (@Sendable (ByteBuffer) async -> Void)? = nil) async -> [ByteBuffer]? {
        guard let incoming = await board.incoming, incoming.offer.id == id,
              let target = incoming.offer.targets.first(where: {
                  (incoming.offer.files == nil ? $0.sha256 : Self.fileTargetHash(offer: id, target: $0.name)) == sha256
              })
        else { return nil }
        let entry = incoming.entry
        if incoming.offer.files != nil { return await fetchFiles(incoming, target: target.name) }
        guard let addresses = await peers.targets().first(where: { $0.entry.pin == entry.pin })?.addresses else { return nil }
        // A second for the connection, and time for the bytes at 2 MB/s at least.
        let seconds = 2 + Double(target.size) / 2_000_000
        let forwarded = NIOLockedValueBox(false)
        for address in addresses where !forwarded.withLockedValue({ $0 }) {
            do {
                return try await Wire.within(seconds) {
                    let link = try await PeerLink.connect(host: address.host, port: address.port, group: group, context: clientContext) { $0 == entry.pin }
                    return try await link.channel.executeThenClose { inbound, outbound in
                        try await outbound.write(try Wire.encode(PeerMessage(.clipboardFetch, id: id, sha256: sha256)))
                        var frames = inbound.makeAsyncIterator()
                        guard let first = try await frames.next() else { throw HandoffError.peer(.closedConnection(PeerAddress(host: address.host, port: address.port))) }
                        let answer = try Wire.decode(PeerMessage.self, from: first)
                        guard answer.type == .clipboardData, answer.size == target.size else {
                            throw HandoffError.peer(.failure(PeerAddress(host: address.host, port: address.port), Daemon.quoted(answer.message) ?? "not the offered bytes"))
                        }
                        var pieces: [ByteBuffer] = []
                        var received: UInt64 = 0
                        var hasher = SHA256()
                        while received < target.size {
                            guard case .data(let frame) = try await frames.next(),
                                  received + UInt64(frame.readableBytes) <= target.size
                            else { throw HandoffError.transfer(.moreBytesThanOffered(sender: entry.name, path: "the clipboard")) }
                            frame.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                            received += UInt64(frame.readableBytes)
                            if let forward {
                                forwarded.withLockedValue { $0 = true }
                                await forward(frame)
                            } else {
                                pieces.append(frame)
                            }
                        }
                        guard Hex.string(hasher.finalize()) == sha256 else { throw HandoffError.transfer(.arrivedDamaged(path: "the clipboard")) }
                        return pieces
                    }
                }
            } catch {
                DaemonLog.line("clipboard: cannot fetch from \(entry.name): \(HandoffError(error, reaching: PeerAddress(host: address.host, port: address.port)))")
            }
        }
        return nil
    }

    /// A format of the files of `incoming`, for where they land here: the files are
    /// asked for once however many formats are pasted (the device sends them as a
    /// transfer into the receive directory), then each format is made from their paths.
    private func fetchFiles(_ incoming: ClipboardBoard.Incoming, target: String) async -> [ByteBuffer]? {
        let arrival = await board.filesArrival(offer: incoming.offer.id) {
            Task { await receiveFiles(of: incoming) }
        }
        guard let paths = await arrival?.value, let bytes = FileClipboard.bytes(for: target, paths: paths) else { return nil }
        return [ByteBuffer(bytes: bytes)]
    }

    /// Asks the device of `incoming` for its files; where they landed here, or nil.
    private func receiveFiles(of incoming: ClipboardBoard.Incoming) async -> [String]? {
        guard let addresses = await peers.targets().first(where: { $0.entry.pin == incoming.entry.pin })?.addresses else { return nil }
        let reply: PeerMessage
        do {
            reply = try await peers.request(PeerMessage(.clipboardFiles, id: incoming.offer.id), to: incoming.entry, addresses: addresses,
                                            seconds: Self.filesSeconds)
        } catch {
            DaemonLog.line("clipboard: cannot have the files from \(incoming.entry.name): \(HandoffError(error))")
            return nil
        }
        // Names in the receive directory, as the transfer placed them: nothing else.
        guard reply.type == .clipboardData, let names = reply.received, !names.isEmpty,
              names.allSatisfy({ !$0.contains("/") && $0 != ".." && $0 != "." && !$0.isEmpty })
        else {
            DaemonLog.line("clipboard: \(incoming.entry.name) did not send the files: \(Daemon.quoted(reply.message) ?? "no reason given")")
            return nil
        }
        return names.map { FileSystem.join(transfers.receiveDirectory, $0) }
    }

    /// How far ahead of this device's clock another's may be.
    static let clockSkewSeconds = 5.0

    /// How long files copied on another device may take to arrive when pasted here.
    static let filesSeconds = 600.0
}
