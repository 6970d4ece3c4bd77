import CLibYAML

/// Composes the one document of a YAML text into ``YAMLNode``s, with libyaml's parser.
///
/// What Yams' `compose` did, without Foundation: its resolver's regular expressions
/// brought ICU, 40 MB, into every program that read YAML (docs/PACKAGING.md). Errors keep
/// libyaml's words and positions, as Yams gave them.
struct YAMLComposer {
    /// A syntax error: libyaml's words for it (its context first, when it gives one), and
    /// where it is, from 1.
    struct SyntaxError: Error {
        var problem: String
        var line: Int
        var column: Int
    }

    /// Lists and mappings nested deeper than this are refused: the composer recurses, and
    /// a file of 100,000 `[` must not overflow the stack.
    static let maximumDepth = 256

    /// The document of `text`; nil when it holds none (empty, or only comments).
    static func compose(_ text: String) throws(SyntaxError) -> YAMLNode? {
        let bytes = Array(text.utf8)
        let composer = Composer(text: text)
        return try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) in
            try composer.document(buffer)
        }
    }

    private final class Composer {
        let text: String
        var parser = yaml_parser_t()
        var anchors: [String: YAMLNode] = [:]

        init(text: String) {
            self.text = text
            yaml_parser_initialize(&parser)
        }

        deinit { yaml_parser_delete(&parser) }

        func document(_ buffer: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> YAMLNode? {
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var event = try next()  // the stream's start
            yaml_event_delete(&event)
            event = try next()
            defer { yaml_event_delete(&event) }
            guard event.type == YAML_DOCUMENT_START_EVENT else { return nil }
            var first = try next()
            let node = try self.node(&first, depth: 0)
            var end = try next()  // the document's end
            yaml_event_delete(&end)
            var after = try next()
            defer { yaml_event_delete(&after) }
            guard after.type == YAML_STREAM_END_EVENT else {
                throw SyntaxError(
                    problem: "expected a single document in the stream, but found another document",
                    line: Int(after.start_mark.line) + 1, column: Int(after.start_mark.column) + 1)
            }
            return node
        }

        /// The node that starts with `event` (which it deletes), with what follows it.
        func node(_ event: inout yaml_event_t, depth: Int) throws(SyntaxError) -> YAMLNode {
            defer { yaml_event_delete(&event) }
            let line = Int(event.start_mark.line) + 1, column = Int(event.start_mark.column) + 1
            guard depth < YAMLComposer.maximumDepth else {
                throw SyntaxError(problem: "lists and mappings are nested more than \(YAMLComposer.maximumDepth) deep", line: line, column: column)
            }
            var node: YAMLNode
            var anchor: UnsafeMutablePointer<yaml_char_t>?
            switch event.type {
            case YAML_ALIAS_EVENT:
                let name = Self.string(event.data.alias.anchor)
                guard let target = anchors[name] else {
                    throw SyntaxError(problem: "found undefined alias", line: line, column: column)
                }
                return target
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                node = YAMLNode(content: .scalar(value, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE), line: line, column: column)
                anchor = scalar.anchor
            case YAML_SEQUENCE_START_EVENT:
                anchor = event.data.sequence_start.anchor
                var items: [YAMLNode] = []
                while true {
                    var item = try next()
                    if item.type == YAML_SEQUENCE_END_EVENT {
                        yaml_event_delete(&item)
                        break
                    }
                    items.append(try self.node(&item, depth: depth + 1))
                }
                node = YAMLNode(content: .sequence(items), line: line, column: column)
            case YAML_MAPPING_START_EVENT:
                anchor = event.data.mapping_start.anchor
                var pairs: [(key: YAMLNode, value: YAMLNode)] = []
                while true {
                    var key = try next()
                    if key.type == YAML_MAPPING_END_EVENT {
                        yaml_event_delete(&key)
                        break
                    }
                    let keyNode = try self.node(&key, depth: depth + 1)
                    var value = try next()
                    pairs.append((keyNode, try self.node(&value, depth: depth + 1)))
                }
                try Self.checkDuplicates(pairs.map(\.key))
                node = YAMLNode(content: .mapping(pairs), line: line, column: column)
            default:
                throw SyntaxError(problem: "unexpected event \(event.type.rawValue)", line: line, column: column)
            }
            if let anchor { anchors[Self.string(anchor)] = node }
            return node
        }

        /// Keys written twice: an error at the first of them (in text order, the first
        /// occurrence), naming them all.
        static func checkDuplicates(_ keys: [YAMLNode]) throws(SyntaxError) {
            var first: [String: YAMLNode] = [:]
            var repeated: Set<String> = []
            for key in keys {
                guard let text = key.scalarText else { continue }
                if first[text] == nil { first[text] = key } else { repeated.insert(text) }
            }
            guard let smallest = repeated.min(), let at = first[smallest] else { return }
            let names = repeated.sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw SyntaxError(problem: "duplicate key \(names)", line: at.line, column: at.column)
        }

        func next() throws(SyntaxError) -> yaml_event_t {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { throw error() }
            return event
        }

        /// The parser's error, as Yams worded and placed it.
        func error() -> SyntaxError {
            let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
            switch parser.error {
            case YAML_READER_ERROR:
                // At the character where reading failed.
                let offset = min(parser.problem_offset, text.utf8.count)
                let prefix = String(decoding: text.utf8.prefix(offset), as: UTF8.self)
                let line = prefix.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                let column = prefix.count - (prefix.lastIndex(of: "\n").map { prefix.distance(from: prefix.startIndex, to: $0) + 1 } ?? 0) + 1
                return SyntaxError(problem: problem, line: line, column: column)
            case YAML_MEMORY_ERROR:
                return SyntaxError(problem: "out of memory", line: 1, column: 1)
            default:
                let context = parser.context.map { String(cString: $0) + ", " } ?? ""
                return SyntaxError(
                    problem: context + problem, line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1)
            }
        }

        static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
            pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? ""
        }
    }
}
