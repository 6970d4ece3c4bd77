/// What a sender offers, checked: files by name and size, texts by kind and title. Names
/// are only known to be UTF-8 without NUL here; the receive directory's rules judge them.
public struct QuickShareOffer: Equatable, Sendable {
    public struct File: Equatable, Sendable {
        public var payloadID: Int64
        public var name: String
        public var mimeType: String
        public var size: UInt64
    }

    public struct Text: Equatable, Sendable {
        public var payloadID: Int64
        public var kind: SharingFrame.TextOffer.Kind
        /// The sender's title (the text's first words); the text comes in its payload.
        public var title: String
        public var size: Int
    }

    public var files: [File]
    public var texts: [Text]

    /// The total of the files' sizes.
    public var totalSize: UInt64 { files.reduce(0) { $0 &+ $1.size } }

    /// `files` and `texts` from an introduction, or why they are refused.
    init(files: [SharingFrame.FileOffer], texts: [SharingFrame.TextOffer]) throws(QuickShareSessionError) {
        let count = files.count + texts.count
        guard count > 0 else { throw .badIntroduction("it offers nothing") }
        guard count <= QuickShareSession.maximumItems else { throw .badIntroduction("it offers \(count) items") }
        var ids = Set<Int64>()
        self.files = []
        for file in files {
            guard ids.insert(file.payloadID).inserted else { throw .badIntroduction("payload \(file.payloadID) is offered twice") }
            guard file.size >= 0 else { throw .badIntroduction("a size is negative") }
            guard let name = Self.text(file.name), !name.isEmpty else { throw .badIntroduction("a file name is not UTF-8 text") }
            let mimeType = Self.text(file.mimeType) ?? ""
            self.files.append(File(payloadID: file.payloadID, name: name, mimeType: mimeType.isEmpty ? "application/octet-stream" : mimeType,
                                   size: UInt64(file.size)))
        }
        self.texts = []
        for text in texts {
            guard ids.insert(text.payloadID).inserted else { throw .badIntroduction("payload \(text.payloadID) is offered twice") }
            guard text.size >= 0, text.size <= QuickShareSession.maximumTextBytes else { throw .badIntroduction("a text of \(text.size) bytes") }
            guard let title = Self.text(text.title) else { throw .badIntroduction("a text's title is not UTF-8 text") }
            self.texts.append(Text(payloadID: text.payloadID, kind: text.kind, title: title, size: Int(text.size)))
        }
    }

    /// `bytes` as a string: UTF-8 without NUL, or nil.
    static func text(_ bytes: [UInt8]) -> String? {
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
