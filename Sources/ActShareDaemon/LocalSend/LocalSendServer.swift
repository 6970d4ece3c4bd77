import ActShareCore
import ActShareCrypto
import ActShareHandoff
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// LocalSend's HTTPS API on its own port (53317 unless configured), with the daemon's own
/// certificate: `register` and `info` (who this device is), and receiving —
/// `prepare-upload` asks the user (``LocalSendRequests``), `upload` writes one file of an
/// accepted session (``LocalSendSession``), `cancel` drops a session. Nothing else is
/// served: LocalSend's download API (5.x) is not offered.
///
/// Bounded like the peer port: a connection budget per address (``ConnectionBudget``),
/// the request's head and JSON body whole within ``wholeSeconds``, JSON bodies of at most
/// 4 MiB (`prepare-upload`) or 4 KiB (`register`), an upload's body exactly its file's
/// promised size and kept at ``UploadPace``, and nothing read for ``idleSeconds`` closes
/// the connection. One request per connection (`Connection: close`).
struct LocalSendServer: Sendable {
    let service: LocalSendService
    let transfers: TransferService
    let ownName: String

    static let wholeSeconds: Int64 = 10
    /// Longer than a request waits for its user's answer.
    static let idleSeconds: Int64 = 75
    static let registerLimit = 4096
    /// What is read and dropped of a body too large, so that its sender hears the 413.
    static let drainLimit = 16 << 20
    /// PIN failures from one address before it is refused for a minute.
    static let pinAttempts = 3

    enum Accepted: Sendable {
        case refused(any Channel)
        case admitted(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, address: String, whole: NIOLockedValueBox<Bool>,
                      presented: NIOLockedValueBox<String?>)
    }

    /// Listens until the daemon ends; a port in use is said in the log, and LocalSend then
    /// receives nothing (sending still works).
    func run(group: MultiThreadedEventLoopGroup, context: NIOSSLContext, listenAddress: String) async {
        let budget = ConnectionBudget(limits: ConnectionBudget.Limits(strangers: 32, perStranger: 4, perPairedAddress: 0, proven: 0),
                                      pairedAddresses: NIOLockedValueBox([]))
        let admission = AdmissionHandler(budget: budget)
        let server: NIOAsyncChannel<Accepted, Never>
        do {
            server = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(admission) }
                }
                // An upload read 64 KiB at a time: TLS decrypts each read into a buffer
                // that is copied whole whenever the piece before is still on its way to
                // the disk, so reads of up to 1 MiB made it copy cold megabytes (perf: a
                // quarter of the receiving; Benchmarks/localsend-transfer 2.42 → 2.2 s).
                .childChannelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 64 << 10))
                .bind(host: listenAddress, port: service.settings.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        guard let ticket = admission.take(channel) else { return .refused(channel) }
                        channel.closeFuture.whenComplete { _ in ticket.release() }
                        // The request whole in time, or closed: a slow client holds nothing long.
                        let whole = NIOLockedValueBox(false)
                        channel.eventLoop.scheduleTask(in: .seconds(Self.wholeSeconds)) {
                            guard channel.isActive, !whole.withLockedValue({ $0 }) else { return }
                            DaemonLog.line("LocalSend: closed the connection from \(ClientAddress.unmapped(channel.remoteAddress?.ipAddress ?? "")): "
                                + "its request was not whole within \(Self.wholeSeconds) s")
                            channel.close(promise: nil)
                        }
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .seconds(Self.idleSeconds)))
                        try channel.pipeline.syncOperations.addHandler(CloseWhenIdle())
                        let presented = NIOLockedValueBox<String?>(nil)
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLServerHandler(context: context, customVerificationCallback: TLS.localSendRecorder(presented)))
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: true)
                        let address = ClientAddress.unmapped(channel.remoteAddress?.ipAddress ?? "")
                        // At most 16 pieces read ahead of the disk: a few MiB a connection.
                        let configuration = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>.Configuration(
                            backPressureStrategy: .init(lowWatermark: 4, highWatermark: 16))
                        return .admitted(try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: configuration),
                                         address: address, whole: whole, presented: presented)
                    }
                }
        } catch {
            let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
            DaemonLog.line("LocalSend receives nothing: cannot listen on port \(service.settings.port): \(reason)")
            return
        }
        DaemonLog.line("LocalSend: \(service.own.alias) on port \(service.settings.port), certificate \(service.own.fingerprint)")
        try? await server.executeThenClose { inbound in
            try await withThrowingDiscardingTaskGroup { connections in
                for try await accepted in inbound {
                    switch accepted {
                    case .refused(let channel): channel.close(promise: nil)
                    case .admitted(let connection, let address, let whole, let presented):
                        connections.addTask { await self.serve(connection, from: address, whole: whole, presented: presented) }
                    }
                }
            }
        }
    }

    /// One request and its answer.
    /// `presented`: the fingerprint of the certificate the client presented, if any.
    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, from address: String,
                       whole: NIOLockedValueBox<Bool>, presented: NIOLockedValueBox<String?>) async {
        let closed = connection.channel.closeFuture
        try? await connection.executeThenClose { inbound, outbound in
            var parts = inbound.makeAsyncIterator()
            guard case .head(let head)? = try await parts.next() else { return }
            let (path, query) = Self.split(head.uri)
            let reply = Reply(outbound: outbound)
            switch (head.method, path) {
            case (.GET, "/api/localsend/v2/info"):
                whole.withLockedValue { $0 = true }
                try await reply.json(200, service.own)
            case (.POST, "/api/localsend/v2/register"):
                try await reply.letContinue(head)
                guard let body = try await Self.body(&parts, limit: Self.registerLimit) else { return try await reply.tooLarge(&parts) }
                whole.withLockedValue { $0 = true }
                guard let info = try? LocalSendDeviceInfo.decode(body) else { return try await reply.empty(400) }
                service.discovery?.heard(info, at: address)
                try await reply.json(200, service.own)
            case (.POST, "/api/localsend/v2/prepare-upload"):
                try await reply.letContinue(head)
                guard let body = try await Self.body(&parts, limit: LocalSendPrepareUpload.maximumBytes) else { return try await reply.tooLarge(&parts) }
                whole.withLockedValue { $0 = true }
                let (status, tokens) = await prepare(body, pin: query["pin"], from: address, presenting: presented.withLockedValue { $0 },
                                                     closed: closed)
                if let tokens { try await reply.json(status, tokens) } else { try await reply.empty(status) }
            case (.POST, "/api/localsend/v2/upload"):
                whole.withLockedValue { $0 = true }
                try await reply.empty(await upload(head, query: query, parts: &parts, reply: reply, from: address, on: connection.channel))
            case (.POST, "/api/localsend/v2/cancel"):
                whole.withLockedValue { $0 = true }
                if let id = query["sessionId"], let session = await service.sessions.session(id), session.address == address {
                    session.discard()
                    await service.sessions.remove(id)
                    DaemonLog.line("\(session.sender) cancelled its LocalSend transfer: nothing of it is kept")
                }
                try await reply.empty(200)
            default:
                whole.withLockedValue { $0 = true }
                try await reply.empty(404)
            }
        }
    }

    /// `prepare-upload`: the status, and the session's tokens when accepted.
    private func prepare(_ body: [UInt8], pin: String?, from address: String, presenting presented: String?,
                         closed: EventLoopFuture<Void>) async -> (Int, LocalSendUploadTokens?) {
        guard service.settings.mode != .off else { return (403, nil) }
        if let required = service.settings.pin {
            guard await service.pinAttempts.mayTry(address) else { return (429, nil) }
            guard pin == required else {
                await service.pinAttempts.failed(address)
                return (401, nil)
            }
        }
        let offer: LocalSendPrepareUpload
        do {
            offer = try LocalSendPrepareUpload.decode(body)
        } catch {
            DaemonLog.line("refused a LocalSend transfer from \(address): \(error)")
            return (400, nil)
        }
        let sender = offer.info.alias
        guard await service.requests.hasRoom(from: address), await service.sessions.hasRoom(for: address) else { return (409, nil) }
        let files = offer.files.values.sorted { $0.fileName < $1.fileName }
        do {
            try LocalSendSession.check(files, from: sender, directory: transfers.receiveDirectory, ownName: ownName)
        } catch {
            DaemonLog.line("refused files from LocalSend device \(sender): \(HandoffError(error))")
            if case .transfer(.diskFull)? = error as? HandoffError { return (507, nil) }
            return (400, nil)
        }
        let fingerprint = offer.info.fingerprint.uppercased()
        let pinned = await service.pins.pin(fingerprint: fingerprint)
        // Its own claim proves nothing, nor does a certificate served at an address or port
        // it names (a relay there reaches the real device): only the certificate presented
        // on this very connection does.
        let proved = pinned != nil && presented == fingerprint
        let request = LocalSendRequest(id: String(LocalSendSession.randomToken().prefix(8)), device: sender, address: address, fingerprint: fingerprint,
                                       pinned: proved, files: files.map { LocalSendRequest.File(name: $0.fileName, size: $0.size) },
                                       bytes: files.reduce(0) { $0 &+ $1.size }, message: Self.message(files), expires: LocalSendRequests.answerSeconds)
        let answer: LocalSendRequests.Answer
        if proved, pinned?.always == true {
            DaemonLog.line("accepted \(files.count) files from LocalSend device \(sender) without asking (always, its certificate proved)")
            answer = .accepted(always: true)
        } else {
            DaemonLog.line("LocalSend device \(sender) at \(address) asks to send \(files.count) file\(files.count == 1 ? "" : "s"): request \(request.id)")
            let waiting = Task { await service.requests.ask(request) { LocalSendPrompt.show(request, requests: service.requests) } }
            // The device gave up (its user cancelled): the question goes.
            closed.whenComplete { _ in waiting.cancel() }
            answer = await waiting.value
        }
        guard case .accepted(let always) = answer else {
            DaemonLog.line("the LocalSend transfer from \(sender) was \(answer == .declined ? "declined" : "not answered")")
            return (403, nil)
        }
        if always {
            if proved {
                try? await service.pins.learn(alias: sender, fingerprint: fingerprint, always: true)
            } else {
                DaemonLog.line("\(sender)'s certificate could not be proved (it must present it when it connects): accepted this once, not always")
            }
        }
        let session: LocalSendSession
        do {
            session = try LocalSendSession(id: LocalSendSession.randomToken(), requestID: request.id, files: files, from: sender, senderID: "ls" + String(fingerprint.prefix(14)).lowercased(),
                                           address: address, directory: transfers.receiveDirectory, ownName: ownName)
        } catch {
            DaemonLog.line("files from LocalSend device \(sender) not received: \(HandoffError(error))")
            if case .transfer(.diskFull)? = error as? HandoffError { return (507, nil) }
            return (500, nil)
        }
        await service.sessions.add(session)
        return (200, LocalSendUploadTokens(sessionId: session.id, files: session.slots.mapValues(\.token)))
    }

    /// The text of a message: LocalSend sends text as one `text/plain` file whose
    /// `preview` is the text.
    static func message(_ files: [LocalSendFile]) -> String? {
        guard files.count == 1, let file = files.first, file.fileType.lowercased().hasPrefix("text/plain") else { return nil }
        return file.preview
    }

    /// `upload`: one file's bytes, exactly as many as promised; the status.
    private func upload(_ head: HTTPRequestHead, query: [String: String], parts: inout NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator, reply: Reply,
                        from address: String, on channel: any Channel) async -> Int {
        guard let id = query["sessionId"], let fileID = query["fileId"], let token = query["token"] else { return 400 }
        guard let session = await service.sessions.session(id), session.address == address else { return 403 }
        let upload: LocalSendSession.Upload
        do {
            upload = try session.beginUpload(fileID, token: token)
        } catch .busy {
            return 409
        } catch .cannotWrite {
            return 500
        } catch {
            return 403
        }
        guard case .write(let fd, let size, let expected) = upload else { return 200 }
        // Hashed only when the sender promised a SHA-256 to check: on two cores, hashing
        // what no one compares costs a fifth of the receiving (Benchmarks/localsend-transfer).
        var hasher = expected.map { _ in SHA256() }
        var written: UInt64 = 0
        var whole = false
        let pace = UploadPace(closing: channel)
        do {
            defer {
                pace.stop()
                close(fd)
            }
            // A length other than the promised size is refused before a byte is written.
            guard head.headers["Content-Length"].first.flatMap(UInt64.init) == size else { throw LocalSendSessionError.forbidden }
            // Asked for, the body is let come only now that the upload is accepted.
            try await reply.letContinue(head)
            receiving: while let part = try await parts.next() {
                switch part {
                case .body(let buffer):
                    // Stopped here (`handoff decline ID`) or by the sender: no more is written.
                    guard !session.hasEnded else { throw LocalSendSessionError.forbidden }
                    guard written + UInt64(buffer.readableBytes) <= size else { throw LocalSendSessionError.forbidden }
                    try buffer.withUnsafeReadableBytes { bytes in
                        hasher?.update(bufferPointer: bytes)
                        var done = 0
                        while done < bytes.count {
                            let count = write(fd, bytes.baseAddress! + done, bytes.count - done)
                            if count < 0 && errno == EINTR { continue }
                            guard count > 0 else { throw LocalSendSessionError.cannotWrite }
                            done += count
                        }
                    }
                    written += UInt64(buffer.readableBytes)
                    pace.add(buffer.readableBytes)
                case .end:
                    break receiving
                case .head:
                    throw LocalSendSessionError.forbidden
                }
            }
            let digest = hasher.map { Hex.string($0.finalize()) }
            whole = written == size && digest?.lowercased() == expected?.lowercased()
            if whole { fchmod(fd, TransferReceiver.fileMode(0o644)) }
            if let received = try session.endUpload(fileID, sha256: whole ? digest ?? "" : nil) {
                await service.sessions.remove(session.id)
                transfers.record(received)
            }
        } catch {
            _ = try? session.endUpload(fileID, sha256: nil)
            DaemonLog.line("a file from LocalSend device \(session.sender) did not arrive whole (\(written) of \(size) bytes): it may be sent again")
            return 400
        }
        return whole ? 200 : 400
    }

    /// The body, or nil when it is longer than `limit`.
    private static func body(_ parts: inout NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator, limit: Int) async throws -> [UInt8]? {
        var bytes: [UInt8] = []
        while let part = try await parts.next() {
            switch part {
            case .body(let buffer):
                guard bytes.count + buffer.readableBytes <= limit else { return nil }
                bytes += buffer.readableBytesView
            case .end: return bytes
            case .head: return nil
            }
        }
        return nil
    }

    /// `/path?a=1&b=2` as its path and its query's fields (percent-decoded).
    static func split(_ uri: String) -> (String, [String: String]) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, [:]) }
        var fields: [String: String] = [:]
        for pair in uri[uri.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = parts.first.map(String.init), fields[key] == nil else { continue }
            fields[key] = parts.count > 1 ? percentDecoded(parts[1]) : ""
        }
        return (String(uri[..<mark]), fields)
    }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = [], utf8 = Array(text.utf8), index = 0
        while index < utf8.count {
            if utf8[index] == 0x25, index + 2 < utf8.count, let byte = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                bytes.append(byte)
                index += 3
            } else {
                bytes.append(utf8[index] == 0x2B ? 0x20 : utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes one answer, then the connection closes.
    private struct Reply {
        let outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>

        func empty(_ status: Int) async throws { try await send(status, body: [], type: nil) }

        /// `100 Continue`, when the client waits for it before it sends the body it is about
        /// to have read (RFC 9110, 10.1.1): curl waits a second for it on bodies over 1 MiB,
        /// which was half the time of a 1 GiB upload (Benchmarks/localsend-transfer).
        func letContinue(_ head: HTTPRequestHead) async throws {
            guard head.headers[canonicalForm: "Expect"].contains(where: { $0.lowercased() == "100-continue" }) else { return }
            try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .continue)))
        }

        /// 413, then the rest of the body read and dropped (at most ``drainLimit`` more
        /// bytes, within the request's ``wholeSeconds``): closed at once, the client that is
        /// still sending would be reset and lose the answer with it.
        func tooLarge(_ parts: inout NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator) async throws {
            try await empty(413)
            var dropped = 0
            while dropped < LocalSendServer.drainLimit, case .body(let buffer)? = try await parts.next() { dropped += buffer.readableBytes }
        }

        func json(_ status: Int, _ value: some Encodable) async throws {
            try await send(status, body: Array(try JSONEncoder().encode(value)), type: "application/json")
        }

        private func send(_ status: Int, body: [UInt8], type: String?) async throws {
            var head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status))
            head.headers.add(name: "Content-Length", value: String(body.count))
            head.headers.add(name: "Connection", value: "close")
            if let type { head.headers.add(name: "Content-Type", value: type) }
            try await outbound.write(.head(head))
            if !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            try await outbound.write(.end(nil))
        }
    }
}
