import ActShareCore
import ActShareHandoff
import Crypto
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Sends a ``LocalTree`` to one paired device over a ``PeerLink``: the offer, then each
/// file as `file-begin`, its bytes in raw frames, and `file-end` with its SHA-256; then
/// waits for the receiver's account (docs/PROTOCOL.md, "Transfers").
struct TransferSender {
    /// Bytes of file data in one frame (a frame holds at most 1 MiB).
    static let chunkSize = 512 << 10

    let tree: LocalTree
    let transfer: String
    let deviceName: String
    /// Called with the bytes sent so far.
    var progress: @Sendable (UInt64) -> Void = { _ in }

    /// Sends everything and returns what the device says it received.
    func send(over link: PeerLink) async throws -> Delivery {
        try await link.channel.executeThenClose { inbound, outbound in
            var frames = inbound.makeAsyncIterator()
            // The receiver's error, if it sent one before it closed, says more than a write
            // that failed.
            func reply() async throws -> PeerMessage {
                guard let frame = try await frames.next() else { throw HandoffFailure("\(deviceName) closed the connection") }
                return try Wire.decode(PeerMessage.self, from: frame)
            }
            try await outbound.write(try Wire.encode(PeerMessage(.transferOffer, transfer: transfer, entries: tree.items.map(\.entry))))
            let answer = try await reply()
            guard answer.type == .transferAccept else {
                throw HandoffFailure("\(deviceName) refused the files: \(Daemon.quoted(answer.message) ?? "no reason given")")
            }
            var sent: UInt64 = 0
            var delivered: [Delivery.File] = []
            do {
                for (index, item) in tree.items.enumerated() where item.entry.kind == .file {
                    try await outbound.write(try Wire.encode(PeerMessage(.fileBegin, index: index)))
                    let digest = try await sendData(of: item, to: outbound) { sent += $0; progress(sent) }
                    try await outbound.write(try Wire.encode(PeerMessage(.fileEnd, index: index, sha256: digest)))
                    delivered.append(Delivery.File(name: item.entry.path, bytes: item.entry.size, sha256: digest))
                }
            } catch let error as HandoffFailure {
                throw error
            } catch {
                // The receiver stopped reading: its last frame says why.
                if let said = try? await reply(), said.type == .error {
                    throw HandoffFailure("\(deviceName) stopped the transfer: \(Daemon.quoted(said.message) ?? "no reason given")")
                }
                throw error
            }
            let done = try await reply()
            guard done.type == .transferDone else {
                throw HandoffFailure("\(deviceName) did not keep the files: \(Daemon.quoted(done.message) ?? "no reason given")")
            }
            let names = (done.received ?? []).filter { ActivityChecks.isDisplayText($0, limit: 4096) }
            return Delivery(device: deviceName, delivered: delivered, received: names)
        }
    }

    /// Writes a file's bytes (exactly the size offered) and returns their SHA-256.
    private func sendData(of item: LocalTree.Item, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
                          sent: (UInt64) -> Void) async throws -> String {
        let fd = PathName.withCString(item.source) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        guard fd >= 0 else { throw HandoffFailure("\(item.source) cannot be read: \(String(cString: strerror(errno)))", exitCode: 2) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw HandoffFailure("\(item.source) is no longer a regular file", exitCode: 2)
        }
        var hasher = SHA256()
        var left = item.entry.size
        while left > 0 {
            try Task.checkCancellation()
            let wanted = Int(min(UInt64(Self.chunkSize), left))
            var chunk = ByteBuffer()
            chunk.reserveCapacity(wanted)
            let count = chunk.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { raw in
                var total = 0
                while total < wanted {
                    let got = read(fd, raw.baseAddress! + total, wanted - total)
                    if got < 0 && errno == EINTR { continue }
                    if got <= 0 { break }
                    total += got
                }
                return total
            }
            guard count == wanted else { throw HandoffFailure("\(item.source) became shorter while it was sent", exitCode: 1) }
            chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            try await outbound.write(chunk)
            left -= UInt64(count)
            sent(UInt64(count))
        }
        return Hex.string(hasher.finalize())
    }
}
