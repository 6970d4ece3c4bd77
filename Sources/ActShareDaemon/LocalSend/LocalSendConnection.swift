import ActShareCore
import ActShareHandoff
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

/// One HTTPS request to a LocalSend device, on a connection of its own: the device must
/// present the certificate it announced, or nothing is sent.
///
/// Bounded like the peer port: 3 s to connect, the answer's body at most `limit` bytes,
/// and a connection on which nothing moves for `idleSeconds` is closed (a device that
/// waits for its user to accept sends nothing meanwhile, hence the long default).
struct LocalSendConnection {
    /// What a request carries.
    enum Body {
        case none
        /// Bytes of a MIME type.
        case bytes([UInt8], type: String)
        /// `size` bytes read from `fd`; `sent` is told how many have gone, as they go.
        case file(fd: Int32, size: UInt64, path: String, sent: @Sendable (UInt64) -> Void)
    }

    struct Answer {
        var status: Int
        var body: [UInt8]
    }

    static let idleSeconds: Int64 = 150

    let host: String
    let port: Int
    let fingerprint: String
    let deviceName: String
    let group: EventLoopGroup
    let context: NIOSSLContext

    func request(_ method: HTTPMethod, _ path: String, body: Body = .none, limit: Int = 64 << 10) async throws -> Answer {
        let presented = NIOLockedValueBox<String?>(nil)
        do {
            let (channel, handshake) = try await Wire.within(3) { [host, port, context, group, fingerprint] in
                try await ClientBootstrap(group: group)
                    .connectTimeout(.seconds(3))
                    .connect(host: host, port: port) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            let tls = try NIOSSLClientHandler(
                                context: context, serverHostname: nil,
                                customVerificationCallback: TLS.localSendVerifier(expecting: fingerprint, presented: presented))
                            try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: .seconds(Self.idleSeconds)))
                            try channel.pipeline.syncOperations.addHandler(CloseWhenIdle())
                            try channel.pipeline.syncOperations.addHandler(tls)
                            let handshake = channel.eventLoop.makePromise(of: Void.self)
                            try channel.pipeline.syncOperations.addHandler(TLSHandshakeWatcher(done: handshake))
                            try channel.pipeline.syncOperations.addHTTPClientHandlers()
                            return (try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel),
                                    handshake.futureResult)
                        }
                    }
            }
            return try await channel.executeThenClose { inbound, outbound in
                var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
                head.headers.add(name: "Host", value: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
                head.headers.add(name: "User-Agent", value: "actshare")
                head.headers.add(name: "Connection", value: "close")
                switch body {
                case .none:
                    head.headers.add(name: "Content-Length", value: "0")
                case .bytes(let bytes, let type):
                    head.headers.add(name: "Content-Type", value: type)
                    head.headers.add(name: "Content-Length", value: String(bytes.count))
                case .file(_, let size, _, _):
                    head.headers.add(name: "Content-Type", value: "application/octet-stream")
                    head.headers.add(name: "Content-Length", value: String(size))
                }
                try await outbound.write(.head(head))
                switch body {
                case .none:
                    try await outbound.write(.end(nil))
                case .bytes(let bytes, _):
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: bytes))))
                    try await outbound.write(.end(nil))
                case .file(let fd, let size, let path, let sent):
                    // Queued on the loop behind the head the writer handed it, once TLS
                    // writes through.
                    try await handshake.get()
                    try await Self.stream(fd, size: size, path: path, on: channel.channel, sent: sent)
                }
                return try await Self.answer(from: inbound, limit: limit)
            }
        } catch {
            DaemonLog.debug("LocalSend: \(method) \(path.prefix { $0 != "?" }) at \(host):\(port): \(error)")
            if let seen = presented.withLockedValue({ $0 }), seen != fingerprint.uppercased() {
                throw HandoffError.localSend(.certificateNotAnnounced(device: deviceName, announced: fingerprint.uppercased(), presented: seen))
            }
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            let address = PeerAddress(host: host, port: port)
            switch HandoffError(error, reaching: address) {
            case .peer(.noAnswer), .peer(.connectionFailed), .peer(.timedOut): throw HandoffError.localSend(.noAnswer(device: deviceName, address))
            case let other: throw other
            }
        }
    }

    /// Exactly `size` bytes of `fd` and the request's end, or an error: the body's length
    /// was promised. Cancelled, the connection is closed.
    private static func stream(_ fd: Int32, size: UInt64, path: String, on channel: any Channel, sent: @escaping @Sendable (UInt64) -> Void) async throws {
        let done = channel.eventLoop.makePromise(of: Void.self)
        try await withTaskCancellationHandler {
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(FileBodyStreamer(fd: fd, size: size, path: path, sent: sent, done: done))
            }.get()
            try await done.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    private static func answer(from inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>, limit: Int) async throws -> Answer {
        var status: Int?
        var body: [UInt8] = []
        for try await part in inbound {
            switch part {
            case .head(let head):
                status = Int(head.status.code)
            case .body(let buffer):
                guard body.count + buffer.readableBytes <= limit else { throw LocalSendError.tooLarge(limit: limit) }
                body += buffer.readableBytesView
            case .end:
                guard let status else { throw LocalSendError.malformed }
                return Answer(status: status, body: body)
            }
        }
        throw LocalSendError.malformed
    }
}
