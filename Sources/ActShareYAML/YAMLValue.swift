import ActShareCore

/// A node of a parsed YAML file that knows where it stands, for `FILE:LINE:COLUMN` errors.
///
/// Manifests, the config and handoff handlers are read through this rather than Codable
/// because Codable reports neither positions nor unknown keys.
public struct YAMLValue: Sendable {
    public let node: YAMLNode
    public let file: String
    /// The dotted key path of this node, such as `activities[0].accepts.kinds`.
    public let path: String

    public init(node: YAMLNode, file: String, path: String) {
        self.node = node
        self.file = file
        self.path = path
    }

    /// The largest manifest or config read: far above any real one (a few KiB).
    public static let maximumFileSize = 1 << 20

    /// The text of a file, or an error of `kind` pointing at its start.
    public static func readFile(_ path: String, kind: ActShareError.Code) throws -> String {
        do {
            return String(decoding: try FileSystem.readRegularFile(path, limit: maximumFileSize), as: UTF8.self)
        } catch let error as ActShareError {
            // The location names the file already.
            let message = error.message.hasPrefix(path + " ") ? "the file " + error.message.dropFirst(path.count + 1) : error.message
            throw ActShareError(kind, Phrase(verbatim: message), at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// Parses the first document of `text`; nil when it holds no document (empty, or
    /// only comments). Syntax errors carry their position.
    public static func parse(_ text: String, file: String, kind: ActShareError.Code) throws -> YAMLValue? {
        let node: YAMLNode?
        do {
            node = try YAMLComposer.compose(text)
        } catch {
            throw ActShareError(kind, Phrase(verbatim: "invalid YAML: \(error.problem)"), at: SourceLocation(file: file, line: error.line, column: error.column))
        }
        return node.map { YAMLValue(node: $0, file: file, path: "") }
    }

    public var location: SourceLocation {
        SourceLocation(file: file, line: node.line, column: node.column)
    }

    /// How this node is named in messages.
    public var name: String { path.isEmpty ? "the document" : "'\(path)'" }

    public func error(_ message: String, kind: ActShareError.Code, cause: (any Error & Sendable)? = nil) -> ActShareError {
        // A file's diagnostics are for its author, in English as compilers' are read
        // and searched (docs/TRANSLATING.md).
        ActShareError(kind, Phrase(verbatim: message), at: location, cause: cause)
    }

    // MARK: Shapes

    public func mapping(kind: ActShareError.Code) throws -> YAMLMapping {
        guard case .mapping(let mapping) = node.content else {
            throw error("\(name) must be a mapping of keys to values, not \(shapeName)", kind: kind)
        }
        return YAMLMapping(mapping: mapping, owner: self, kind: kind)
    }

    public func sequence(kind: ActShareError.Code) throws -> [YAMLValue] {
        guard case .sequence(let sequence) = node.content else {
            throw error("\(name) must be a list, not \(shapeName)", kind: kind)
        }
        return sequence.enumerated().map { index, node in
            YAMLValue(node: node, file: file, path: "\(path)[\(index)]")
        }
    }

    /// A scalar as text. Plain numbers and booleans are accepted as their spelling.
    public func string(kind: ActShareError.Code) throws -> String {
        guard case .scalar(let text, let plain) = node.content, !Self.isNull(text, plain: plain) else {
            throw error("\(name) must be a string, not \(shapeName)", kind: kind)
        }
        return text
    }

    public func int(kind: ActShareError.Code) throws -> Int {
        guard case .scalar(let text, let plain) = node.content, plain, let value = Int(text) else {
            // `max-items: "3"` is a string in YAML: say so, and how to write the number.
            if case .scalar(let text, let plain) = node.content, !plain, let number = Int(text) {
                throw error("\(name) must be a whole number, not the quoted string \"\(text)\"; write \(number) without quotes", kind: kind)
            }
            throw error("\(name) must be a whole number, not \(shapeName)", kind: kind)
        }
        return value
    }

    public func bool(kind: ActShareError.Code) throws -> Bool {
        guard case .scalar(let text, let plain) = node.content, plain else {
            if case .scalar(let text, _) = node.content, ["true", "false"].contains(text) {
                throw error("\(name) must be true or false, not the quoted string \"\(text)\"; write \(text) without quotes", kind: kind)
            }
            throw error("\(name) must be true or false, not \(shapeName)", kind: kind)
        }
        switch text {
        case "true", "True", "TRUE", "yes", "on": return true
        case "false", "False", "FALSE", "no", "off": return false
        default: throw error("\(name) must be true or false, not \(shapeName)", kind: kind)
        }
    }

    /// One of the words a closed set of choices is spelled with, such as `process` or
    /// `in-process`; any other word is an error that lists them all.
    public func word<Word: RawRepresentable & CaseIterable>(_: Word.Type, kind: ActShareError.Code) throws -> Word
    where Word.RawValue == String {
        let text = try string(kind: kind)
        guard let word = Word(rawValue: text) else {
            let spellings = Word.allCases.map(\.rawValue)
            let list = spellings.dropLast().joined(separator: ", ") + " or " + spellings[spellings.count - 1]
            throw error("\(name) must be \(list), not '\(text)'", kind: kind)
        }
        return word
    }

    /// A list of strings; a single string is taken as a list of one.
    public func stringList(kind: ActShareError.Code) throws -> [String] {
        if case .scalar = node.content { return [try string(kind: kind)] }
        return try sequence(kind: kind).map { try $0.string(kind: kind) }
    }

    /// Whether this is a bare `~`: YAML's null, though a user meant the home folder.
    public var isBareTilde: Bool {
        if case .scalar(let text, let plain) = node.content { return plain && text == "~" }
        return false
    }

    // MARK: Helpers

    /// YAML's null: nothing, `~` or `null` written plain.
    private static func isNull(_ text: String, plain: Bool) -> Bool {
        plain && ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// Names the shape of this node for messages: `a list`, `the number 3`, `'abc'`.
    public var shapeName: String {
        switch node.content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, let plain):
            if Self.isNull(text, plain: plain) { return "nothing" }
            return "'\(text)'"
        }
    }
}

/// A YAML mapping whose keys are checked against the keys a schema allows.
public struct YAMLMapping: Sendable {
    public let mapping: [(key: YAMLNode, value: YAMLNode)]
    public let owner: YAMLValue
    public let kind: ActShareError.Code

    /// Rejects any key that is not in `allowed`, naming it and pointing at it.
    public func checkKeys(_ allowed: Set<String>, in what: String) throws {
        for (key, _) in mapping {
            let name = key.scalarText ?? ""
            if !allowed.contains(name) {
                let keyValue = YAMLValue(node: key, file: owner.file, path: owner.path)
                let known = allowed.sorted().joined(separator: ", ")
                throw keyValue.error("unknown key '\(name)' in \(what) (allowed: \(known))", kind: kind)
            }
        }
    }

    /// The value of `key`, or nil if the key is absent.
    public subscript(key: String) -> YAMLValue? {
        for (keyNode, value) in mapping where keyNode.scalarText == key {
            return YAMLValue(node: value, file: owner.file, path: owner.path.isEmpty ? key : "\(owner.path).\(key)")
        }
        return nil
    }

    /// The value of `key`, or an error naming the missing key.
    public func require(_ key: String, in what: String) throws -> YAMLValue {
        guard let value = self[key] else {
            throw owner.error("missing key '\(key)' in \(what)", kind: kind)
        }
        return value
    }

    /// Every key with its value, in file order.
    public var entries: [(key: String, keyValue: YAMLValue, value: YAMLValue)] {
        mapping.map { keyNode, value in
            let key = keyNode.scalarText ?? ""
            let path = owner.path.isEmpty ? key : "\(owner.path).\(key)"
            return (key, YAMLValue(node: keyNode, file: owner.file, path: path),
                    YAMLValue(node: value, file: owner.file, path: path))
        }
    }
}
