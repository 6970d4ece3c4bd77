@_exported import CActShare

/// What the host asks: one activity on some items, with option values. Borrowed from
/// the host for the length of the hook: copy what you keep.
public struct ProviderRequest {
    let raw: actshare_request
    private let pointer: UnsafePointer<actshare_request>

    /// The request the host passed, if any.
    public init?(_ pointer: UnsafePointer<actshare_request>?) {
        guard let pointer else { return nil }
        self.pointer = pointer
        raw = pointer.pointee
    }

    /// From a can-perform hook that answers no: why, in one sentence for a person
    /// (`actshare_decline`; nothing under a host older than ABI 2).
    public func decline(_ reason: String) {
        actshare_decline(pointer, reason)
    }

    /// The activity type, reverse-DNS.
    public var activityType: String { raw.activity_type.map { String(cString: $0) } ?? "" }
    /// `--subject`, if given.
    public var subject: String? { raw.subject.map { String(cString: $0) } }
    /// The items, in the order the user gave them.
    public var items: [ProviderItem] {
        guard let items = raw.items else { return [] }
        return (0..<raw.item_count).map { ProviderItem(raw: items[$0]) }
    }

    /// The value of a declared option, if it has one.
    public func option(_ name: String) -> String? {
        guard let options = raw.options else { return nil }
        for index in 0..<raw.option_count where options[index].name.map({ String(cString: $0) }) == name {
            return options[index].value.map { String(cString: $0) }
        }
        return nil
    }
}
