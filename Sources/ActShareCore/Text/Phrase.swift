/// Words for a person, kept as the message gettext knows and the values in its places:
/// the same error reads in English in `--json`, logs and D-Bus replies, and in the
/// person's language on their terminal (``translated``).
///
/// Written as a string literal, each interpolation becomes a `%s` in the message and its
/// value is kept beside it: `"cannot read \(path)"` is the message `cannot read %s` with
/// one value, as Foundation's `LocalizedStringResource` makes its keys. A `%` written in
/// the literal is `%%` in the message. `scripts/extract-phrases` finds the same messages
/// in the sources for the translators' template (docs/TRANSLATING.md).
///
/// It is `Codable` so that the daemon's answers carry it: the CLI says the daemon's
/// errors in its own person's language (`{"message": "%s is not reachable", "values":
/// [{"message": "beta", "verbatim": true}]}`).
public struct Phrase: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The message as the catalogs know it (a C format string of `%s` places), or the
    /// whole text for words that are not to be translated.
    public let message: String
    /// The values for the message's places, in order: text said as it is, or phrases of
    /// their own (said in the same language as this one).
    public let values: [Phrase]
    /// False for text that came from elsewhere (a provider, a peer, the system).
    public let isTranslatable: Bool

    public init(stringLiteral value: String) {
        message = value.replacingPercents()
        values = []
        isTranslatable = true
    }

    public init(stringInterpolation: StringInterpolation) {
        message = stringInterpolation.message
        values = stringInterpolation.values
        isTranslatable = true
    }

    /// The phrase a literal makes, where the type is not otherwise known (a function's
    /// result): `Phrase("…")` is also how scripts/extract-phrases finds it.
    public init(_ phrase: Phrase) {
        self = phrase
    }

    /// Text said as it is, in every language: what a provider, a peer or the system said.
    public init(verbatim text: String) {
        message = text
        values = []
        isTranslatable = false
    }

    enum CodingKeys: String, CodingKey {
        case message, values
        case verbatim
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(String.self, forKey: .message)
        values = try container.decodeIfPresent([Phrase].self, forKey: .values) ?? []
        isTranslatable = !(try container.decodeIfPresent(Bool.self, forKey: .verbatim) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(message, forKey: .message)
        if !values.isEmpty { try container.encode(values, forKey: .values) }
        if !isTranslatable { try container.encode(true, forKey: .verbatim) }
    }

    /// The words in English, as written in the source.
    public var description: String {
        isTranslatable ? Localized.fill(message, values.map(\.description)) : message
    }

    /// The words in the person's language (the environment's), English where no catalog
    /// has them.
    public var translated: String {
        isTranslatable ? Localized.text(message, values: values.map(\.translated)) : message
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var message = ""
        var values: [Phrase] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            message.reserveCapacity(literalCapacity + 2 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            message += literal.replacingPercents()
        }

        public mutating func appendInterpolation<Value>(_ value: Value) {
            message += "%s"
            values.append(Phrase(verbatim: String(describing: value)))
        }

        /// A phrase inside a phrase is said in the same language as the outer one.
        public mutating func appendInterpolation(_ phrase: Phrase) {
            message += "%s"
            values.append(phrase)
        }
    }
}

extension String {
    /// The text with each `%` doubled, as a C format string says a `%`.
    fileprivate func replacingPercents() -> String {
        contains("%") ? split(separator: "%", omittingEmptySubsequences: false).joined(separator: "%%") : self
    }
}
