import CQuickShareWire

/// A peer's UKEY2 alert, read into the error it ends the handshake with.
enum Ukey2Alert {
    /// The most of an alert's message kept (it is a stranger's text, shown in a log).
    static let messageLimit = 200

    static func error(from data: [UInt8]) -> Ukey2Error {
        guard let read = Unpacked(data, securegcm__ukey2_alert__unpack) else { return .badMessage }
        let type = read.message.has_type != 0 ? Int32(bitPattern: read.message.type.rawValue) : 0
        let text = read.message.error_message.map { String(decoding: Array(String(cString: $0).utf8.prefix(messageLimit)), as: UTF8.self) } ?? ""
        // A stranger's words in the log: what could fake a line or turn text around goes.
        return .alert(type, String(String.UnicodeScalarView(text.unicodeScalars.filter { !QuickShareEndpointInfo.isForbiddenInAName($0) })))
    }
}
