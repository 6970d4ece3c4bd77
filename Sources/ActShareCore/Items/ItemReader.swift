#if canImport(Glibc)
import Glibc
#endif

/// Turns what the user named on the command line into items.
///
/// An argument that exists as a path is a file (even with a colon in its name); one that
/// starts with a URL scheme is a URL (`file:` URLs become files); `-` reads one item from
/// standard input. Anything else is an error naming the argument.
public struct ItemReader {
    /// The most bytes read from standard input.
    public static let standardInputLimit = 256 << 20

    public init() {}

    /// Reads every argument in order. `stdinType` overrides the detected type of `-`.
    public func read(arguments: [String], texts: [String] = [], stdinType: String? = nil,
                     standardInput: () throws -> [UInt8] = ItemReader.readStandardInput) throws -> [Item] {
        if let stdinType, !ContentType.isValid(stdinType) {
            throw ActShareError(.badInput, "--type \(stdinType) is not a MIME type such as text/html")
        }
        var items: [Item] = []
        var readStdin = false
        for argument in arguments {
            if argument == "-" {
                guard !readStdin else {
                    throw ActShareError(.badInput, "'-' (standard input) may be given only once")
                }
                readStdin = true
                items.append(try stdinItem(try standardInput(), type: stdinType))
            } else {
                items.append(try item(for: argument))
            }
        }
        if stdinType != nil && !readStdin {
            throw ActShareError(.badInput, "--type applies to standard input; name it with '-'")
        }
        items += texts.map { Item.text($0) }
        return items
    }

    /// The items `read(arguments:texts:)` will make, located as it locates them but not
    /// yet typed (their content type is left `application/octet-stream`, and nothing in
    /// a file is read), or nil when standard input, or an argument that `read` refuses,
    /// is among them, or more than ``untypedLimit`` arguments: for work started ahead of
    /// reading the items (a helper's sandbox needs their paths, not their types), where a
    /// difference costs only time.
    public static func untypedItems(arguments: [String], texts: [String]) -> [Item]? {
        guard arguments.count <= untypedLimit else { return nil }
        var items: [Item] = []
        for argument in arguments {
            switch argument == "-" ? nil : locate(argument) {
            case .file(let path, let status)? where status.isRegular || status.isDirectory:
                items.append(Item(kind: .file, path: FileSystem.absolute(path), contentType: ContentType.octetStream, size: status.size))
            case .url?:
                items.append(.url(argument))
            case .file?, .missing?, .missingFile?, nil:
                return nil
            }
        }
        return items + texts.map { Item.text($0) }
    }

    /// The most arguments ``untypedItems(arguments:texts:)`` locates: each is looked up
    /// again when the items are read, which for thousands of files costs more than a
    /// helper's start saves.
    public static let untypedLimit = 64

    /// What a command-line argument names, found without reading any file.
    private enum Location {
        /// An existing path (the argument, or the path of its `file:` URI), and its status.
        case file(String, FileSystem.Status)
        case url
        /// A `file:` URI whose file does not exist.
        case missingFile
        /// Neither a path that exists nor a URL: `stat`'s error.
        case missing(Int32)
    }

    private static func locate(_ argument: String) -> Location {
        if let status = FileSystem.status(argument) { return .file(argument, status) }
        let statError = errno
        if let path = FileURI.path(of: argument) {
            guard let status = FileSystem.status(path) else { return .missingFile }
            return .file(path, status)
        }
        return URLScheme.of(argument) != nil ? .url : .missing(statError)
    }

    /// The item for one command-line argument.
    public func item(for argument: String) throws -> Item {
        guard !argument.isEmpty else { throw ActShareError(.badInput, "an empty argument is not a file or URL") }
        switch Self.locate(argument) {
        case .file(let path, let status): return try fileItem(path, status: status)
        case .url: return .url(argument)
        case .missingFile: throw ActShareError(.badInput, "\(argument): no such file")
        case .missing(let statError):
            throw ActShareError(.badInput, "\(argument): \(String(cString: strerror(statError == 0 ? ENOENT : statError)))")
        }
    }

    private func fileItem(_ path: String, status: FileSystem.Status) throws -> Item {
        // A FIFO would block whoever reads it, a device never end: files and folders only.
        guard status.isRegular || status.isDirectory else {
            var info = stat()
            let kind = PathName.withCString(path, { stat($0, &info) }) == 0 ? FileSystem.kindName(info.st_mode) : "a special file"
            throw ActShareError(.badInput, "\(path) is \(kind), not a file: only files, folders, URLs and text can be shared")
        }
        guard PathName.withCString(path, { access($0, R_OK) }) == 0 else {
            throw ActShareError(.badInput, "\(path): not readable (\(String(cString: strerror(errno))))")
        }
        return .file(FileSystem.absolute(path), status: status)
    }

    /// The item for shared text of `type` (nil: found from the text), as for standard input.
    public func text(_ text: String, type: String?) throws -> Item {
        if let type, !ContentType.isValid(type) {
            throw ActShareError(.badInput, "\(type) is not a MIME type such as text/html")
        }
        return try stdinItem(Array(text.utf8), type: type)
    }

    private func stdinItem(_ bytes: [UInt8], type: String?) throws -> Item {
        let contentType = type ?? (bytes.isEmpty ? "application/x-zerosize" : ContentType.sniff(bytes))
        if ContentType.isA(contentType, ContentType.plainText), let text = String(validatingUTF8Bytes: bytes) {
            return Item.text(text, contentType: contentType)
        }
        return Item(kind: .data, data: bytes, contentType: contentType, size: UInt64(bytes.count))
    }

    /// Reads standard input to its end, up to ``standardInputLimit`` bytes.
    public static func readStandardInput() throws -> [UInt8] {
        do {
            return try FileSystem.readToEnd(0, limit: standardInputLimit)
        } catch .tooLarge {
            throw ActShareError(.badInput, "standard input is larger than \(standardInputLimit >> 20) MiB")
        } catch .failed(let code) {
            throw ActShareError(.io, "cannot read standard input: \(String(cString: strerror(code)))")
        }
    }
}

extension String {
    /// The text of `bytes` if they are valid UTF-8.
    public init?(validatingUTF8Bytes bytes: [UInt8]) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
