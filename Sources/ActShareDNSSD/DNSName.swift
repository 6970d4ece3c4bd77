/// A domain name as its labels, `["_actshare", "_tcp", "local"]`: compared without
/// regard to ASCII case, as DNS does.
public struct DNSName: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The labels, each at most 63 bytes of UTF-8.
    public let labels: [String]
    /// The labels lowercased in ASCII, for comparing and hashing.
    private let folded: [String]

    /// The longest a name may be on the wire (RFC 1035 §2.3.4).
    static let maximumLength = 255

    public init(_ labels: [String]) {
        self.labels = labels
        folded = labels.map(\.asciiLowercased)
    }

    public init(arrayLiteral labels: String...) { self.init(labels) }

    /// `label` in front of this name: an instance of a service type, say.
    public func prepending(_ label: String) -> DNSName { DNSName([label] + labels) }

    /// The first label (a service instance's own name).
    public var first: String? { labels.first }

    /// Dropping the first label: the service type of an instance name.
    public var parent: DNSName { DNSName(Array(labels.dropFirst())) }

    /// The name as dig prints it, dots inside labels escaped.
    public var description: String {
        labels.map { $0.replacingDots() }.joined(separator: ".") + "."
    }

    /// Whether every label fits the wire (1 to 63 bytes) and the name in all (255 bytes).
    var isEncodable: Bool {
        labels.allSatisfy { (1...63).contains($0.utf8.count) } && labels.reduce(1) { $0 + 1 + $1.utf8.count } <= Self.maximumLength
    }

    public static func == (left: DNSName, right: DNSName) -> Bool {
        left.folded == right.folded
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
    }
}

extension String {
    /// Lowercased in ASCII only: DNS compares names so (RFC 4343), other bytes as they are.
    var asciiLowercased: String {
        String(decoding: utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    fileprivate func replacingDots() -> String {
        var escaped = ""
        for character in self {
            if character == "." || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
