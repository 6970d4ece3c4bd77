/// What a receiving connection asks of its owner (the daemon): the user's answer, and
/// where the bytes go. Every call comes on the connection's event loop, one at a time.
public protocol QuickShareReceiverDelegate: AnyObject {
    /// `peer` offers `offer`; both screens show `pin`. Call `answer` once, from any
    /// thread, with the user's decision (a connection that ends first ignores it).
    func quickShare(_ peer: QuickSharePeer, offers offer: QuickShareOffer, pin: String, answer: @escaping @Sendable (Bool) -> Void)

    /// Bytes of a file offered, in order; `last` when it is whole. Throwing ends the
    /// connection (a full disk, say).
    func quickShare(file payloadID: Int64, offset: UInt64, bytes: [UInt8], last: Bool) throws

    /// A text offered, whole.
    func quickShare(text payloadID: Int64, _ text: [UInt8]) throws

    /// Every item offered is whole.
    func quickShareFinished()

    /// The connection ended before the share was whole, or was declined (nil).
    func quickShareEnded(_ error: QuickShareSessionError?)
}
