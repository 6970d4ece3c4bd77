#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `prepare-upload`'s answer: the session, and a token for each file the receiver wants
/// (a file it already has is left out).
public struct LocalSendUploadTokens: Codable, Sendable, Equatable {
    public var sessionId: String
    public var files: [String: String]

    public init(sessionId: String, files: [String: String]) {
        self.sessionId = sessionId
        self.files = files
    }

    /// The session in `bytes`, its id and tokens checked: they go into a URL's query.
    public static func decode(_ bytes: [UInt8]) throws(LocalSendError) -> LocalSendUploadTokens {
        let session: LocalSendUploadTokens
        do {
            session = try JSONDecoder().decode(LocalSendUploadTokens.self, from: Data(bytes))
        } catch {
            throw .malformed
        }
        guard isToken(session.sessionId) else { throw .invalidField("sessionId", "is not 1 to 128 letters, digits, '-' or '_'") }
        guard session.files.count <= 100_000, session.files.allSatisfy({ isToken($0.key) && isToken($0.value) }) else {
            throw .invalidField("files", "has an id or token that is not 1 to 128 letters, digits, '-' or '_'")
        }
        return session
    }

    /// What may stand in a query without escaping, and is short.
    public static func isToken(_ text: String) -> Bool {
        (1...128).contains(text.utf8.count) && text.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}
