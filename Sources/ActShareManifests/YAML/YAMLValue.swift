import ActShareCore
import Yams
/// A node of a parsed YAML file that knows where it stands, for `FILE:LINE:COLUMN` errors.
///
/// Manifests and the config are read through this rather than Codable because Codable
/// reports neither positions nor unknown keys.
struct YAMLValue {
    let node: Node
    let file: String
    /// The dotted key path of this node, such as `activities[0].accepts.kinds`.
    let path: String

    /// The text of a file, or an error of `kind` pointing at its start.
    /// The largest manifest or config read: far above any real one (a few KiB).
    static let maximumFileSize = 1 << 20

    static func readFile(_ path: String, kind: ActShareError.Code) throws -> String {
        do {
            return String(decoding: try FileSystem.readRegularFile(path, limit: maximumFileSize), as: UTF8.self)
        } catch let error as ActShareError {
            // The location names the file already.
            let message = error.message.hasPrefix(path + " ") ? "the file " + error.message.dropFirst(path.count + 1) : error.message
            throw ActShareError(kind, message, at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// Parses the first document of `text`; nil when it holds no document (empty, or
    /// only comments). Syntax errors carry their position.
    static func parse(_ text: String, file: String, kind: ActShareError.Code) throws -> YAMLValue? {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw syntaxError(error, file: file, kind: kind)
        }
        return node.map { YAMLValue(node: $0, file: file, path: "") }
    }

    var location: SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    /// How this node is named in messages.
    var name: String { path.isEmpty ? "the document" : "'\(path)'" }

    func error(_ message: String, kind: ActShareError.Code) -> ActShareError {
        ActShareError(kind, message, at: location)
    }

    // MARK: Shapes

    func mapping(kind: ActShareError.Code) throws -> YAMLMapping {
        guard case .mapping(let mapping) = resolved else {
            throw error("\(name) must be a mapping of keys to values, not \(shapeName)", kind: kind)
        }
        return YAMLMapping(mapping: mapping, owner: self, kind: kind)
    }

    func sequence(kind: ActShareError.Code) throws -> [YAMLValue] {
        guard case .sequence(let sequence) = resolved else {
            throw error("\(name) must be a list, not \(shapeName)", kind: kind)
        }
        return sequence.enumerated().map { index, node in
            YAMLValue(node: node, file: file, path: "\(path)[\(index)]")
        }
    }

    /// A scalar as text. Plain numbers and booleans are accepted as their spelling.
    func string(kind: ActShareError.Code) throws -> String {
        guard case .scalar(let scalar) = resolved, !isNull(scalar) else {
            throw error("\(name) must be a string, not \(shapeName)", kind: kind)
        }
        return scalar.string
    }

    func int(kind: ActShareError.Code) throws -> Int {
        guard case .scalar(let scalar) = resolved, scalar.style == .plain, let value = Int(scalar.string) else {
            // `max-items: "3"` is a string in YAML: say so, and how to write the number.
            if case .scalar(let scalar) = resolved, scalar.style != .plain, let number = Int(scalar.string) {
                throw error("\(name) must be a whole number, not the quoted string \"\(scalar.string)\"; write \(number) without quotes", kind: kind)
            }
            throw error("\(name) must be a whole number, not \(shapeName)", kind: kind)
        }
        return value
    }

    func bool(kind: ActShareError.Code) throws -> Bool {
        guard case .scalar(let scalar) = resolved, scalar.style == .plain else {
            if case .scalar(let scalar) = resolved, ["true", "false"].contains(scalar.string) {
                throw error("\(name) must be true or false, not the quoted string \"\(scalar.string)\"; write \(scalar.string) without quotes", kind: kind)
            }
            throw error("\(name) must be true or false, not \(shapeName)", kind: kind)
        }
        switch scalar.string {
        case "true", "True", "TRUE", "yes", "on": return true
        case "false", "False", "FALSE", "no", "off": return false
        default: throw error("\(name) must be true or false, not \(shapeName)", kind: kind)
        }
    }

    /// One of the words a closed set of choices is spelled with, such as `process` or
    /// `in-process`; any other word is an error that lists them all.
    func word<Word: RawRepresentable & CaseIterable>(_: Word.Type, kind: ActShareError.Code) throws -> Word
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
    func stringList(kind: ActShareError.Code) throws -> [String] {
        if case .scalar = resolved { return [try string(kind: kind)] }
        return try sequence(kind: kind).map { try $0.string(kind: kind) }
    }

    /// Whether this is a bare `~`: YAML's null, though a user meant the home folder.
    var isBareTilde: Bool {
        if case .scalar(let scalar) = resolved { return scalar.style == .plain && scalar.string == "~" }
        return false
    }

    // MARK: Helpers

    /// Yams resolves aliases while composing, so a node is always its own value.
    private var resolved: Node { node }

    private func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// Names the shape of this node for messages: `a list`, `the number 3`, `'abc'`.
    var shapeName: String {
        switch resolved {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            if isNull(scalar) { return "nothing" }
            return "'\(scalar.string)'"
        }
    }

    private static func syntaxError(_ error: YamlError, file: String, kind: ActShareError.Code) -> ActShareError {
        func located(_ problem: String, _ mark: Mark) -> ActShareError {
            located(problem, line: mark.line, column: mark.column)
        }
        func located(_ problem: String, line: Int, column: Int) -> ActShareError {
            ActShareError(kind, "invalid YAML: \(problem)", at: SourceLocation(file: file, line: line, column: column))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let detail = context.map { "\($0.text), \(problem)" } ?? problem
            return located(detail, mark)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return located("duplicate key \(keys)", context.mark)
        case .reader(let problem, let offset, _, let yaml):
            let (line, column) = offset.map { Self.position(ofCharacterOffset: $0, in: yaml) } ?? (1, 1)
            return located(problem, line: line, column: column)
        default:
            return ActShareError(kind, "invalid YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    private static func position(ofCharacterOffset offset: Int, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        for character in text.prefix(offset) {
            if character == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }
}

/// A YAML mapping whose keys are checked against the keys a schema allows.
struct YAMLMapping {
    let mapping: Node.Mapping
    let owner: YAMLValue
    let kind: ActShareError.Code

    /// Rejects any key that is not in `allowed`, naming it and pointing at it.
    func checkKeys(_ allowed: Set<String>, in what: String) throws {
        for (key, _) in mapping {
            let name = key.scalar?.string ?? ""
            if !allowed.contains(name) {
                let keyValue = YAMLValue(node: key, file: owner.file, path: owner.path)
                let known = allowed.sorted().joined(separator: ", ")
                throw keyValue.error("unknown key '\(name)' in \(what) (allowed: \(known))", kind: kind)
            }
        }
    }

    /// The value of `key`, or nil if the key is absent.
    subscript(key: String) -> YAMLValue? {
        for (keyNode, value) in mapping where keyNode.scalar?.string == key {
            return YAMLValue(node: value, file: owner.file, path: owner.path.isEmpty ? key : "\(owner.path).\(key)")
        }
        return nil
    }

    /// The value of `key`, or an error naming the missing key.
    func require(_ key: String, in what: String) throws -> YAMLValue {
        guard let value = self[key] else {
            throw owner.error("missing key '\(key)' in \(what)", kind: kind)
        }
        return value
    }

    /// Every key with its value, in file order.
    var entries: [(key: String, keyValue: YAMLValue, value: YAMLValue)] {
        mapping.map { keyNode, value in
            let key = keyNode.scalar?.string ?? ""
            let path = owner.path.isEmpty ? key : "\(owner.path).\(key)"
            return (key, YAMLValue(node: keyNode, file: owner.file, path: path),
                    YAMLValue(node: value, file: owner.file, path: path))
        }
    }
}
