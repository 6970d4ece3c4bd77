/// A service instance another responder on the link announced. Everything in it is what
/// a datagram claimed: a hint to try, never proof of who is there.
public struct DiscoveredService: Sendable, Equatable {
    /// The instance's own label.
    public var instance: String
    public var host: DNSName
    public var port: UInt16
    /// IPv4 addresses, dotted.
    public var addresses: [String]
    /// The TXT strings as keys and values; a key without `=` has the empty value, and a
    /// key given twice keeps its first value (RFC 6763 §6.4).
    public var text: [String: String]

    public init(instance: String, host: DNSName, port: UInt16, addresses: [String], text: [String: String]) {
        self.instance = instance
        self.host = host
        self.port = port
        self.addresses = addresses
        self.text = text
    }

    /// TXT strings as keys and values; keys compared without ASCII case.
    static func keysAndValues(_ strings: [[UInt8]]) -> [String: String] {
        var result: [String: String] = [:]
        for string in strings where !string.isEmpty && string.first != UInt8(ascii: "=") {
            let equals = string.firstIndex(of: UInt8(ascii: "=")) ?? string.endIndex
            let key = String(decoding: string[..<equals], as: UTF8.self).asciiLowercased
            guard result[key] == nil else { continue }
            result[key] = equals == string.endIndex ? "" : String(decoding: string[(equals + 1)...], as: UTF8.self)
        }
        return result
    }
}
