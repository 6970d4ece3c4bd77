/// What a sending connection asks of its owner: the files' bytes, and what to tell the
/// user. Every call comes on the connection's event loop, one at a time.
public protocol QuickShareSenderDelegate: AnyObject {
    /// The PIN both screens show, for the user to compare.
    func quickShare(pin: String)

    /// The receiver accepted; the payloads go now.
    func quickShareAccepted()

    /// Up to `limit` bytes of file payload `payloadID` from `offset` (fewer only at its
    /// end). Throwing ends the connection (the file changed, say).
    func quickShare(read payloadID: Int64, offset: Int64, limit: Int) throws -> [UInt8]

    /// Bytes of payload `payloadID` sent so far, for progress.
    func quickShare(sent payloadID: Int64, bytes: Int64)

    /// The connection ended: every item sent (nil), the receiver declined or could not
    /// take them (``QuickShareSessionError/peerRefused``), or it failed.
    func quickShareEnded(_ error: QuickShareSessionError?, response: SharingFrame.Response?)
}
