extension QuickShareSessionError: CustomStringConvertible {
    /// What went wrong, in words for the daemon's log.
    public var description: String {
        switch self {
        case let .handshake(error): "the key exchange failed: \(error)"
        case let .secureChannel(error): "a frame was refused: \(error)"
        case .badFrame: "it sent bytes that are no Quick Share frame"
        case let .unexpectedFrame(expected): "it did not keep to the protocol (expected \(expected))"
        case let .badEndpoint(error): "its connection request cannot be read (\(error))"
        case let .badIntroduction(why): "what it offers is refused: \(why)"
        case let .badChunk(payload): "a chunk of payload \(payload) is out of place or past its size"
        case let .payloadTooLarge(size): "a payload of \(size) bytes is over the limit"
        case .peerCancelled: "it cancelled the share"
        case .peerRefused: "it refused or hung up before the share was whole"
        case .stoppedHere: "it was stopped here"
        }
    }
}

extension SecureChannelError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .badMessage: "not a SecureMessage"
        case .badSignature: "its signature (HMAC) is wrong: forged or damaged"
        case .badHeader: "its header names another scheme"
        case .doesNotDecrypt: "it does not decrypt"
        case let .badSequenceNumber(expected, received): "sequence number \(received) where \(expected) was next: replayed, dropped or reordered"
        case .exhausted: "the sequence numbers ran out"
        }
    }
}

extension Ukey2Error: CustomStringConvertible {
    public var description: String {
        switch self {
        case .badMessage: "a UKEY2 message that cannot be read"
        case .unexpectedMessage: "a UKEY2 message out of order"
        case .badVersion: "a UKEY2 version other than 1"
        case .badRandom: "a random value that is not 32 bytes"
        case .badHandshakeCipher: "no P-256 commitment"
        case .badNextProtocol: "a next protocol other than AES-256-CBC with HMAC-SHA256"
        case .badPublicKey: "a public key that is not a P-256 point"
        case .commitmentMismatch: "a key other than the one committed to"
        case let .alert(type, message): "the peer's alert \(type)\(message.isEmpty ? "" : ": \(message)")"
        }
    }
}
