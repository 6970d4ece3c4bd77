#if canImport(Glibc)
import Glibc
#endif

/// Why discovery could not start: a message for people, with the system's reason.
public struct DiscoveryError: Error, CustomStringConvertible, Sendable {
    public var message: String

    public init(_ message: String, errno code: Int32) {
        self.message = "\(message): \(String(cString: strerror(code)))"
    }

    public var description: String { message }
}
