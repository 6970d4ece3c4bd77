/// What goes wrong in Quick Share's encodings: what a peer sent cannot be used (each case
/// says which part). Its cryptography's errors are ActShareCrypto's `CryptoError`.
public enum QuickShareError: Error, Equatable, Sendable {
    /// An mDNS service name that is not Quick Share's 10-byte name in URL-safe base64.
    case malformedServiceName
    /// Endpoint info (a TXT record `n`, a connection request's `endpointInfo`) that is
    /// cut short, or whose name is not UTF-8 or holds control characters.
    case malformedEndpointInfo(String)
    /// A frame longer than ``QuickShareFrameDecoder/maxFrameLength`` (its length).
    case frameTooLarge(Int)
}

extension QuickShareError: CustomStringConvertible {
    /// What a peer sent wrong, in words for the daemon's log.
    public var description: String {
        switch self {
        case .malformedServiceName: "a service name that is not Quick Share's"
        case let .malformedEndpointInfo(why): "its endpoint info is malformed: \(why)"
        case let .frameTooLarge(length): "a frame of \(length) bytes is over the limit"
        }
    }
}
