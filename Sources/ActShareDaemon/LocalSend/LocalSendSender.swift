import ActShareCore
import ActShareHandoff
import NIOCore
import NIOHTTP1
import NIOSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Sends files or a message to one LocalSend device (protocol v2, 4.1–4.3):
/// `prepare-upload` (with the PIN, when given), which the device answers once its user
/// accepted, then each file it asked for by `upload`, one at a time; on cancellation a
/// `cancel` for the session.
///
/// Folders go as the paths of their files (`photos/2026/a.jpg`); an empty folder cannot
/// be sent this way and is left out.
struct LocalSendSender {
    let device: LocalSendDiscovery.Seen
    let own: LocalSendDeviceInfo
    let pin: String?
    let group: EventLoopGroup
    let context: NIOSSLContext
    /// Called with the bytes of the transfer done so far.
    var progress: @Sendable (UInt64) -> Void = { _ in }
    /// Called once the device answered over TLS with the certificate it announced.
    var proved: @Sendable () async -> Void = {}

    static let apiPrefix = "/api/localsend/v2/"

    var name: String { device.info.alias }

    private var connection: LocalSendConnection {
        LocalSendConnection(host: device.address, port: device.info.port, fingerprint: device.info.fingerprint, deviceName: name,
                            group: group, context: context)
    }

    /// The files of `tree`: what the device got (every file, whether it took it or
    /// already had it).
    func send(_ tree: LocalTree) async throws -> Delivery {
        let files = tree.items.enumerated().filter { $0.element.entry.kind == .file }
        var offered: [String: LocalSendFile] = [:]
        for (index, item) in files {
            offered[String(index)] = LocalSendFile(id: String(index), fileName: item.entry.path, size: item.entry.size,
                                                   fileType: Self.fileType(item.entry.path))
        }
        guard let session = try await prepare(offered) else {
            return Delivery(device: name, delivered: files.map { Delivery.File(name: $0.element.entry.path, bytes: $0.element.entry.size, sha256: "") },
                            received: Self.topLevelNames(tree))
        }
        var done: UInt64 = 0, transferred: UInt64 = 0
        var delivered: [Delivery.File] = []
        do {
            for (index, item) in files {
                guard let token = session.files[String(index)] else {
                    // The device has it already.
                    done += item.entry.size
                    progress(done)
                    delivered.append(Delivery.File(name: item.entry.path, bytes: item.entry.size, sha256: ""))
                    continue
                }
                let fd = try item.openListedFile()
                defer { close(fd) }
                // Not hashed: no LocalSend receiver is told a SHA-256 to check, and on two
                // cores hashing slows the sending by a fifth (Benchmarks/localsend-transfer).
                let before = done, progress = progress
                let answer = try await connection.request(
                    .POST, Self.apiPrefix + "upload?sessionId=\(session.sessionId)&fileId=\(index)&token=\(token)",
                    body: .file(fd: fd, size: item.entry.size, path: item.source) { progress(before + $0) })
                done += item.entry.size
                switch answer.status {
                case 200, 204: break
                case 403, 404, 409, 410: throw HandoffError.localSend(.cancelledThere(device: name))
                default: throw HandoffError.localSend(.answered(device: name, status: answer.status))
                }
                transferred += item.entry.size
                delivered.append(Delivery.File(name: item.entry.path, bytes: item.entry.size, sha256: ""))
            }
        } catch {
            // Told, the device drops what it has; from a task of its own, since this one
            // may be cancelled.
            let cancel = connection
            let stillThere = await Task { () -> Bool in
                _ = try? await Wire.within(3) { try await cancel.request(.POST, Self.apiPrefix + "cancel?sessionId=\(session.sessionId)") }
                return (try? await Wire.within(3) { try await cancel.request(.GET, Self.apiPrefix + "info") })?.status == 200
            }.value
            // A device that hung up mid-file but answers still stopped the transfer itself
            // (its user cancelled: it answers and closes while the file is being written).
            if case .localSend(.noAnswer)? = error as? HandoffError, stillThere, !Task.isCancelled {
                throw HandoffError.localSend(.cancelledThere(device: name))
            }
            throw error
        }
        return Delivery(device: name, delivered: delivered, received: Self.topLevelNames(tree), transferred: transferred)
    }

    /// `text` as a message: shown by the device as it is (the official apps), or, by one
    /// that asks for it, uploaded as a text file.
    func send(text: String) async throws -> Delivery {
        let bytes = Array(text.utf8)
        let file = LocalSendFile(id: "text", fileName: "message.txt", size: UInt64(bytes.count), fileType: "text/plain", preview: text)
        guard let session = try await prepare(["text": file]), let token = session.files["text"] else {
            return Delivery(device: name, received: ["message.txt"])
        }
        let answer = try await connection.request(.POST, Self.apiPrefix + "upload?sessionId=\(session.sessionId)&fileId=text&token=\(token)",
                                                  body: .bytes(bytes, type: "text/plain; charset=utf-8"))
        guard answer.status == 200 || answer.status == 204 else { throw HandoffError.localSend(.answered(device: name, status: answer.status)) }
        return Delivery(device: name, received: ["message.txt"], transferred: UInt64(bytes.count))
    }

    /// `prepare-upload`: the session, or nil when the device needs nothing uploaded.
    private func prepare(_ files: [String: LocalSendFile]) async throws -> LocalSendUploadTokens? {
        let body = try JSONEncoder().encode(LocalSendPrepareUpload(info: own, files: files))
        let query = pin.map { "?pin=" + Self.queryEscaped($0) } ?? ""
        let answer = try await connection.request(.POST, Self.apiPrefix + "prepare-upload" + query, body: .bytes(Array(body), type: "application/json"))
        await proved()
        switch answer.status {
        case 200:
            do {
                return try LocalSendUploadTokens.decode(answer.body)
            } catch {
                throw HandoffError.localSend(.badAnswer(device: name))
            }
        case 204: return nil
        case 401: throw pin == nil ? HandoffError.localSend(.pinRequired(device: name)) : HandoffError.localSend(.pinWrong(device: name))
        case 403: throw HandoffError.transfer(.declinedFiles(device: name))
        case 409: throw HandoffError.localSend(.busy(device: name))
        case 429: throw HandoffError.localSend(.tooManyAttempts(device: name))
        default: throw HandoffError.localSend(.answered(device: name, status: answer.status))
        }
    }

    /// The names of the top-level items, as the device gets them.
    private static func topLevelNames(_ tree: LocalTree) -> [String] {
        tree.items.map(\.entry.path).filter { !$0.contains("/") }
    }

    /// A file's MIME type as LocalSend apps use it (for the icon they show): by its
    /// extension, for the common kinds.
    static func fileType(_ name: String) -> String {
        let known = [
            "txt": "text/plain", "md": "text/markdown", "pdf": "application/pdf", "png": "image/png", "jpg": "image/jpeg",
            "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "heic": "image/heic", "mp4": "video/mp4",
            "mov": "video/quicktime", "mp3": "audio/mpeg", "ogg": "audio/ogg", "zip": "application/zip", "apk": "application/vnd.android.package-archive",
        ]
        let base = FileSystem.baseName(name)
        guard let dot = base.lastIndex(of: ".") else { return "application/octet-stream" }
        return known[base[base.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// `text` with everything but unreserved characters percent-encoded (RFC 3986).
    static func queryEscaped(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return escaped
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
