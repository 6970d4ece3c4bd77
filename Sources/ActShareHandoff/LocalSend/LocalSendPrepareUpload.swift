/// `POST /api/localsend/v2/prepare-upload`'s body: who sends, and the files by id.
public struct LocalSendPrepareUpload: Codable, Sendable, Equatable {
    public var info: LocalSendDeviceInfo
    public var files: [String: LocalSendFile]

    public init(info: LocalSendDeviceInfo, files: [String: LocalSendFile]) {
        self.info = info
        self.files = files
    }
}
