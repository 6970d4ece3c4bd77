extension SecureChannel {
    /// `frame` sealed, as a session error when it cannot be.
    mutating func seal(_ frame: ConnectionFrame) throws(QuickShareSessionError) -> [UInt8] {
        do { return try seal(frame.encoded()) } catch { throw .secureChannel(error) }
    }

    /// A sharing frame as Android sends one: a BYTES payload of one chunk, then an empty
    /// chunk flagged last; both sealed.
    mutating func sealSharing(_ frame: SharingFrame) throws(QuickShareSessionError) -> [[UInt8]] {
        let body = frame.encoded()
        let id = Int64.random(in: 1...Int64.max)
        let size = Int64(body.count)
        return [
            try seal(.payloadTransfer(PayloadTransfer(id: id, kind: .bytes, totalSize: size, content: .chunk(offset: 0, body: body, last: false)))),
            try seal(.payloadTransfer(PayloadTransfer(id: id, kind: .bytes, totalSize: size, content: .chunk(offset: size, body: [], last: true)))),
        ]
    }

    /// The connection frame inside the peer's sealed `bytes`.
    mutating func openFrame(_ bytes: [UInt8]) throws(QuickShareSessionError) -> ConnectionFrame {
        let opened: [UInt8]
        do { opened = try open(bytes) } catch { throw .secureChannel(error) }
        guard let frame = ConnectionFrame(decoding: opened) else { throw .badFrame }
        return frame
    }
}
