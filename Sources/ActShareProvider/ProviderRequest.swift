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
        // An older host's request is shorter: only what its struct_size covers is copied.
        var copy = actshare_request()
        let size = min(Int(pointer.pointee.struct_size), MemoryLayout<actshare_request>.size)
        withUnsafeMutableBytes(of: &copy) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: size)) }
        raw = copy
    }

    /// From a can-perform hook that answers no: why, in one sentence for a person
    /// (`actshare_decline`; nothing under a host older than ABI 2).
    public func decline(_ reason: String) {
        actshare_decline(pointer, reason)
    }

    /// What a ``Target`` is.
    public enum TargetKind: Int32, Sendable {
        case device = 0, person, app, place
    }

    /// From a can-perform hook that answers yes: offers a target — a device, person, app
    /// or place the activity can go to — in the order the sheet shows them
    /// (`actshare_add_target`). False under a host older than ABI 3 or past the 64 a call
    /// offers; the host checks the rest (a printable id of at most 128 bytes) and warns.
    @discardableResult
    public func addTarget(id: String, title: String, subtitle: String? = nil, image: String? = nil, kind: TargetKind) -> Bool {
        id.withCString { id in
            title.withCString { title in
                Self.withOptionalCString(subtitle) { subtitle in
                    Self.withOptionalCString(image) { image in
                        var target = actshare_target(
                            struct_size: UInt32(MemoryLayout<actshare_target>.size), kind: kind.rawValue, id: id, title: title,
                            subtitle: subtitle, image: image)
                        return actshare_add_target(pointer, &target) == 0
                    }
                }
            }
        }
    }

    /// In prepare and perform: the id of the target the user chose, if any
    /// (`actshare_request_target`; nil under a host older than ABI 3).
    public var target: String? { actshare_request_target(pointer).map { String(cString: $0) } }

    private static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString(body)
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
