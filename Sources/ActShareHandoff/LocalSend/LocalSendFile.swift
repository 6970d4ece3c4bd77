/// One file of a LocalSend transfer as `prepare-upload` describes it (protocol v2, 4.1).
public struct LocalSendFile: Codable, Sendable, Equatable {
    /// Unique within the transfer; the key it is listed under.
    public var id: String
    /// The name, with `/` between folders when it is inside a folder sent (the official
    /// apps keep the folders; some receivers keep only the last part).
    public var fileName: String
    public var size: UInt64
    /// Its MIME type; `text/plain` with a `preview` is a message.
    public var fileType: String
    public var sha256: String?
    /// A message's text, shown by the receiver without an upload.
    public var preview: String?

    public init(id: String, fileName: String, size: UInt64, fileType: String, sha256: String? = nil, preview: String? = nil) {
        self.id = id
        self.fileName = fileName
        self.size = size
        self.fileType = fileType
        self.sha256 = sha256
        self.preview = preview
    }
}
