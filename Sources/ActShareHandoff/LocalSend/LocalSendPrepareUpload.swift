#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `POST /api/localsend/v2/prepare-upload`'s body: who sends, and the files by id.
public struct LocalSendPrepareUpload: Codable, Sendable, Equatable {
    public var info: LocalSendDeviceInfo
    public var files: [String: LocalSendFile]

    /// The most files one transfer offers: more is refused, not planned.
    public static let maximumFiles = 10_000
    /// The most bytes of a body (10,000 files with long names and hashes fit).
    public static let maximumBytes = 4 << 20
    /// The largest size a file may claim (an exabyte: sizes that add up past 2⁶⁴ are refused
    /// by the disk check anyway).
    public static let maximumFileSize: UInt64 = 1 << 60

    public init(info: LocalSendDeviceInfo, files: [String: LocalSendFile]) {
        self.info = info
        self.files = files
    }

    /// The body in `bytes`, every field checked: the sender as ``LocalSendDeviceInfo``
    /// checks it, 1 to ``maximumFiles`` files, each listed under its own id (an id fit for
    /// a URL), with a name of 1 to 4096 bytes without control characters, a size, and a
    /// SHA-256 in hex when it gives one.
    public static func decode(_ bytes: [UInt8]) throws(LocalSendError) -> LocalSendPrepareUpload {
        guard bytes.count <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
        let body: LocalSendPrepareUpload
        do {
            body = try JSONDecoder().decode(LocalSendPrepareUpload.self, from: Data(bytes))
        } catch {
            throw .malformed
        }
        try body.info.check()
        guard (1...maximumFiles).contains(body.files.count) else { throw .invalidField("files", "does not hold 1 to \(maximumFiles) files") }
        for (key, file) in body.files {
            guard key == file.id, LocalSendUploadTokens.isToken(key) else { throw .invalidField("files", "lists a file under an id that is not its own, or not 1 to 128 letters, digits, '-' or '_'") }
            guard !file.fileName.isEmpty, ActivityChecks.isDisplayText(file.fileName, limit: 4096) else {
                throw .invalidField("fileName", "is not a name of 1 to 4096 bytes without control characters")
            }
            guard file.size <= maximumFileSize else { throw .invalidField("size", "is larger than an exabyte") }
            if let sha256 = file.sha256, !LocalSendDeviceInfo.isCertificateFingerprint(sha256) { throw .invalidField("sha256", "is not a SHA-256 in hex") }
            if let preview = file.preview, preview.utf8.count > 1 << 20 { throw .invalidField("preview", "is longer than 1 MiB") }
        }
        return body
    }
}
