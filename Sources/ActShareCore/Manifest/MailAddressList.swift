/// A list of mail addresses as a person types them: `Name <a@b>, c@d, "Doe, J" <j@d>`.
///
/// The rules of the Mail provider's own parser (Providers/Mail/address.c): entries split at
/// commas or semicolons outside quotes and angle brackets; each is `mailbox` or
/// `display name <mailbox>`; a mailbox is an RFC 5322 dot-atom local part `@` a domain of
/// ASCII letter-digit-hyphen labels. Checked by the host for options of type `email`, so
/// that a mistyped address is asked for again before anything is performed.
public struct MailAddressList: Sendable {
    /// The mailboxes, without display names.
    public var mailboxes: [String]

    /// Parses `text`; throws a reason naming the first malformed entry.
    public init(_ text: String) throws(OptionValueError) {
        var entries: [String] = []
        var current = ""
        var quoted = false, angle = false, escaped = false
        for character in text {
            if character == "\"" && !escaped { quoted.toggle() }
            if !quoted && character == "<" { angle = true }
            if !quoted && character == ">" { angle = false }
            escaped = character == "\\" && !escaped
            if (character == "," || character == ";") && !quoted && !angle {
                entries.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        entries.append(current)
        mailboxes = []
        let filled = entries.map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
        for entry in filled {
            let which = filled.count == 1 ? "is not" : "holds '\(entry)', which is not"
            var mailbox = entry
            if let open = entry.lastIndex(of: "<") {
                guard let close = entry[open...].firstIndex(of: ">"), entry.index(after: close) == entry.endIndex else {
                    throw OptionValueError(reason: "\(which) a mail address (no closing '>')")
                }
                mailbox = String(entry[entry.index(after: open)..<close]).trimmingWhitespace
            }
            guard Self.isMailbox(mailbox) else {
                throw OptionValueError(reason: "\(which) a mail address such as name@example.org")
            }
            mailboxes.append(mailbox)
        }
        if mailboxes.isEmpty { throw OptionValueError(reason: "holds no mail address") }
    }

    /// A dot-atom local part `@` letter-digit-hyphen labels of at most 63 characters.
    static func isMailbox(_ text: String) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at], domain = text[text.index(after: at)...]
        let atext = Set("!#$%&'*+-/=?^_`{|}~")
        let isAlphanumeric = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber) }
        guard !local.isEmpty, !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
            local.allSatisfy({ isAlphanumeric($0) || atext.contains($0) || $0 == "." })
        else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { isAlphanumeric($0) || $0 == "-" }
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
