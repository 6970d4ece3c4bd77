@_exported import CActShare

/// The host's callbacks during prepare and perform, valid for the length of the hook.
public struct ProviderSession {
    /// Log levels: debug and info are shown with `ACTSHARE_DEBUG=1`, the others always.
    public enum Level: Int32, Sendable {
        case debug = 0, info = 1, warning = 2, error = 3
    }

    /// The host refused a returned item: a file that does not exist, a URL without a
    /// scheme, a malformed content type.
    public struct Refused: Error, Sendable, CustomStringConvertible {
        public var description: String { "actshare refused the returned item" }
    }

    let pointer: UnsafeMutablePointer<actshare_session>

    /// The session the host passed, if any.
    public init?(_ pointer: UnsafeMutablePointer<actshare_session>?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }

    /// Reports progress from 0.0 to 1.0.
    public func progress(_ fraction: Double) {
        pointer.pointee.progress(pointer, fraction)
    }

    /// Writes a line to the host's log.
    public func log(_ level: Level, _ message: String) {
        pointer.pointee.log(pointer, level.rawValue, message)
    }

    /// Hands an item back: a file's path, a URL or text; a nil content type lets the host
    /// detect it.
    public func returnItem(_ kind: ProviderItem.Kind, _ value: String, contentType: String? = nil) throws(Refused) {
        let answer = withOptionalCString(contentType) { type in pointer.pointee.return_item(pointer, kind.rawValue, value, type) }
        guard answer == 0 else { throw Refused() }
    }

    /// The value of a declared option.
    public func option(_ name: String) -> String? {
        pointer.pointee.option(pointer, name).map { String(cString: $0) }
    }

    /// Sets the message shown when the hook fails.
    public func setError(_ message: String) {
        pointer.pointee.set_error(pointer, message)
    }

    /// Whether the user has asked to cancel: stop, clean up, return ``ProviderStatus/cancelled``.
    public var isCancelled: Bool { pointer.pointee.is_cancelled(pointer) != 0 }

    private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString(body)
    }

    /// Runs a prepare or perform body for a hook of the standard signature: its status,
    /// or for an error it throws, that error as the message and `failed`.
    public static func run(
        _ request: UnsafePointer<actshare_request>?, _ session: UnsafeMutablePointer<actshare_session>?,
        _ body: (ProviderRequest, ProviderSession) throws -> ProviderStatus
    ) -> Int32 {
        guard let request = ProviderRequest(request), let session = ProviderSession(session) else {
            return ProviderStatus.failed.rawValue
        }
        do {
            return try body(request, session).rawValue
        } catch {
            session.setError(String(describing: error))
            return ProviderStatus.failed.rawValue
        }
    }
}
