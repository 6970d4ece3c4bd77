import ActShareCore
import ActShareCrypto
import ActShareHandoff
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Sends a ``LocalTree`` to one paired device over a ``PeerLink``: the offer, then each
/// file as `file-begin`, its bytes in data frames, and `file-end` with its SHA-256; then
/// waits for the receiver's account (docs/PROTOCOL.md, "Transfers").
///
/// What the receiver kept of an earlier attempt at the same files (`have` in its
/// accept) is not sent again when its SHA-256 matches this side's first bytes.
struct TransferSender {
    /// Bytes of file data in one frame: with its tag, 256 KiB, the buffer's whole capacity
    /// (NIO rounds capacities up to a power of two). Larger frames cost more cache misses
    /// than they save writes (at most ``PeerFrame/dataLimit``).
    static let chunkSize = (256 << 10) - 1

    let tree: LocalTree
    let deviceName: String
    /// Called with the bytes of the transfer done so far (kept ones included).
    var progress: @Sendable (UInt64) -> Void = { _ in }

    /// Sends everything and returns what the device says it received.
    func send(over link: PeerLink) async throws -> Delivery {
        try await link.channel.executeThenClose { inbound, outbound in
            var frames = inbound.makeAsyncIterator()
            // The receiver's error, if it sent one before it closed, says more than a write
            // that failed.
            func reply() async throws -> PeerMessage {
                guard let frame = try await frames.next() else { throw HandoffError.transfer(.receiverClosed(device: deviceName)) }
                return try Wire.decode(PeerMessage.self, from: frame)
            }
            try await outbound.write(try Wire.encode(PeerMessage(.transferOffer, transfer: tree.transferID, entries: tree.items.map(\.entry))))
            let answer = try await reply()
            guard answer.type == .transferAccept else {
                throw HandoffError.transfer(.filesRefused(device: deviceName, reason: Daemon.quoted(answer.message)))
            }
            var kept: [Int: TransferPart] = [:]
            for part in answer.have ?? [] { kept[part.index] = part }
            var done: UInt64 = 0, transferred: UInt64 = 0
            var delivered: [Delivery.File] = []
            var batch = FrameBatch(outbound: outbound, eventLoop: link.channel.channel.eventLoop)
            do {
                for (index, item) in tree.items.enumerated() where item.entry.kind == .file {
                    let (digest, sent) = try await sendFile(index, item, kept: kept[index], to: &batch) {
                        done += $0
                        progress(done)
                    }
                    transferred += sent
                    delivered.append(Delivery.File(name: item.entry.path, bytes: item.entry.size, sha256: digest))
                }
                try await batch.write()
            } catch is CancellationError {
                // Told, the receiver removes what it has; a connection that just breaks
                // leaves it there to be resumed.
                // From a task of its own: this one is cancelled, and would not write.
                let cancel = try Wire.encode(PeerMessage(.transferCancel))
                await Task { try? await outbound.write(cancel) }.value
                throw CancellationError()
            } catch let error as HandoffError {
                throw error
            } catch {
                // The receiver stopped reading: its last frame says why.
                if let said = try? await reply(), said.type == .error {
                    throw HandoffError.transfer(.transferStopped(device: deviceName, reason: Daemon.quoted(said.message)))
                }
                throw error
            }
            let finished = try await reply()
            guard finished.type == .transferDone else {
                throw HandoffError.transfer(.filesNotKept(device: deviceName, reason: Daemon.quoted(finished.message)))
            }
            let names = (finished.received ?? []).filter { ActivityChecks.isDisplayText($0, limit: 4096) }
            return Delivery(device: deviceName, delivered: delivered, received: names, transferred: transferred)
        }
    }

    /// Sends one file: `file-begin` at the offset the receiver may keep, the rest of its
    /// bytes (exactly the size offered), `file-end`. Returns its SHA-256 and the bytes sent.
    private func sendFile(_ index: Int, _ item: LocalTree.Item, kept: TransferPart?,
                          to batch: inout FrameBatch,
                          done: (UInt64) -> Void) async throws -> (String, UInt64) {
        let fd = try item.openListedFile()
        defer { close(fd) }
        var hasher = SHA256()
        var offset: UInt64 = 0
        if let kept, kept.bytes > 0, kept.bytes <= item.entry.size {
            // This side's first bytes, hashed; sent again only if the receiver's differ.
            let (prefix, hashed) = FilePrefixHash.of(fd, limit: kept.bytes)
            guard hashed == kept.bytes else { throw HandoffError.transfer(.sourceShrank(path: item.source)) }
            if Hex.string(prefix.finalize()) == kept.sha256 {
                hasher = prefix
                offset = kept.bytes
                done(offset)
            } else {
                guard lseek(fd, 0, SEEK_SET) == 0 else { throw HandoffError.transfer(.sourceUnreadableAgain(path: item.source)) }
            }
        }
        try await batch.add(try Wire.encode(PeerMessage(.fileBegin, index: index, offset: offset)))
        var left = item.entry.size - offset
        while left > 0 {
            try Task.checkCancellation()
            let wanted = Int(min(UInt64(Self.chunkSize), left))
            var chunk = ByteBuffer()
            chunk.reserveCapacity(wanted + 1)
            chunk.writeInteger(PeerFrame.dataTag)
            let count = chunk.writeFromFile(fd, count: wanted)
            guard count == wanted else { throw HandoffError.transfer(.sourceShrank(path: item.source)) }
            chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[1...])) }
            try await batch.add(chunk)
            left -= UInt64(count)
            done(UInt64(count))
        }
        let digest = Hex.string(hasher.finalize())
        try await batch.add(try Wire.encode(PeerMessage(.fileEnd, index: index, sha256: digest)))
        return (digest, item.entry.size - offset)
    }
}
