import ActShareCore
import ActShareCrypto
import ActShareDNSSD
import ActShareHandoff
import ActShareQuickShare
import NIOCore
import NIOPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Phones that advertise, and sending files to them. A phone advertises only while its
/// Quick Share looks for receivers (after a sender's Bluetooth LE signal, or the QR way),
/// so finding one is asking the link for a moment.
extension QuickShareService {
    /// Whether phones are looked for and sent to (`on`, with multicast DNS).
    var sendsToPhones: Bool { settings.mode == .on && multicast }

    /// A Quick Share receiver that advertised itself: where, and what it says it is.
    struct Seen: Sendable {
        var endpointID: String
        var info: QuickShareEndpointInfo
        var address: String
        var port: Int
        /// The name to show: the one it gives (a hidden one's, opened with a QR code's
        /// key), or its kind.
        var name: String
    }

    /// The receivers advertising on the link, asked for `seconds` (less once `enough` says
    /// so); nil when Quick Share sends nothing here (off, receive-only, or without multicast).
    /// `seconds` 0: at once, the receivers heard in the last minute (the share sheet's
    /// question at every list), and the link asked again behind for the next one.
    func nearby(waiting seconds: Double, enough: ([Seen]) -> Bool = { _ in false }) async -> [Seen]? {
        guard sendsToPhones else { return nil }
        if seconds <= 0 {
            let (heard, look) = state.withLock { state -> ([Seen], Bool) in
                let recent = state.heard.flatMap { ContinuousClock.now - $0.at < Self.heardLasts ? $0.receivers : nil } ?? []
                defer { state.looking = true }
                return (recent, !state.looking)
            }
            if look {
                Task {
                    _ = await self.nearby(waiting: Self.lookBehindSeconds)
                    self.state.withLock { $0.looking = false }
                }
            }
            return heard
        }
        // Phones advertise once they heard the Bluetooth signal: on the air during the look.
        async let signal = bluetooth.hold()
        defer { bluetooth.release() }
        guard let browser = try? ServiceDiscovery(advertising: nil, browsing: Self.serviceType) else {
            _ = await signal
            return nil
        }
        browser.start()
        browser.queryNow()
        var found: [Seen] = []
        for _ in 0..<max(2, Int(seconds * 10)) {
            try? await Task.sleep(for: .milliseconds(100))
            found = browser.services.compactMap { seen($0) }
            if enough(found) { break }
        }
        browser.stop()
        _ = await signal
        state.withLock { $0.heard = (ContinuousClock.now, found) }
        return found
    }

    /// How long a receiver heard is still offered without asking: a phone advertises only
    /// while its Quick Share is open.
    static let heardLasts = Duration.seconds(60)
    /// How long the look behind a question that does not wait asks the link.
    static let lookBehindSeconds = 2.0

    /// What a stranger advertises, read within bounds: its endpoint name and TXT `n`, or nil
    /// (this device's own, a hidden one, one that does not read right). With `code`: only
    /// the device that scanned it, hidden or not.
    func seen(_ service: DiscoveredService, scanning code: QuickShareQRCode? = nil) -> Seen? {
        guard let endpoint = try? QuickShareEndpoint(serviceName: service.instance), endpoint != self.endpoint,
              let text = service.text["n"], let info = try? QuickShareEndpointInfo(textRecord: text),
              let address = service.addresses.first
        else { return nil }
        let name: String
        if let code {
            guard let scanned = code.scannedName(by: info) else { return nil }
            name = scanned
        } else {
            guard !info.isHidden else { return nil }
            name = info.shownName
        }
        return Seen(endpointID: String(decoding: endpoint.id, as: UTF8.self), info: info, address: address, port: Int(service.port), name: name)
    }

    /// The receiver called `name` (case-insensitive), asking the link for up to 1.5 s; not
    /// heard then, the one heard in the last minute (what the share sheet offered).
    func device(named name: String) async -> Seen? {
        func named(_ seen: [Seen]) -> Seen? { seen.first { $0.name == name } ?? seen.first { $0.name.lowercased() == name.lowercased() } }
        let before = state.withLock { state in state.heard.flatMap { ContinuousClock.now - $0.at < Self.heardLasts ? $0.receivers : nil } ?? [] }
        guard let seen = await nearby(waiting: 1.5, enough: { named($0) != nil }) else { return nil }
        return named(seen) ?? named(before)
    }

    /// The files of `tree` sent to `seen`; `pin` is given the PIN both screens show,
    /// `progress` the bytes sent so far. Folders are refused: Quick Share sends files.
    /// To a phone that scanned `qrCode`, the handshake is signed with its key.
    func send(_ tree: LocalTree, to seen: Seen, qrCode: QuickShareQRCode? = nil, group: EventLoopGroup, pin: @escaping @Sendable (String) -> Void,
              progress: @escaping @Sendable (UInt64) -> Void) async -> Delivery {
        guard settings.mode == .on else { return Delivery(device: seen.name, error: HandoffError.quickShare(.sendingOff).phrase) }
        let files = tree.items.filter { $0.entry.kind == .file }
        guard files.count == tree.items.count, !files.contains(where: { $0.entry.path.contains("/") }) else {
            return Delivery(device: seen.name, error: HandoffError.quickShare(.filesOnly).phrase)
        }
        var descriptors: [Int64: Int32] = [:]
        defer { descriptors.values.forEach { close($0) } }
        var offers: [SharingFrame.FileOffer] = []
        for (index, item) in files.enumerated() {
            do {
                descriptors[Int64(index + 1)] = try item.openListedFile()
            } catch {
                return Delivery(device: seen.name, error: error.phrase)
            }
            offers.append(SharingFrame.FileOffer(name: Array(item.entry.path.utf8), mimeType: Array(LocalSendSender.fileType(item.entry.path).utf8),
                                                 payloadID: Int64(index + 1), size: Int64(item.entry.size)))
        }
        let total = files.reduce(UInt64(0)) { $0 + $1.entry.size }
        var delivery = await send(files: offers, texts: [], descriptors: descriptors, to: seen, qrCode: qrCode, group: group, pin: pin, progress: progress)
        if delivery.error == nil {
            delivery.delivered = files.map { Delivery.File(name: $0.entry.path, bytes: $0.entry.size, sha256: "") }
            delivery.received = files.map(\.entry.path)
            delivery.transferred = total
        }
        return delivery
    }

    /// A text or a URL sent to `seen` (as its Introduction says which), with its PIN.
    func send(text: String, to seen: Seen, qrCode: QuickShareQRCode? = nil, group: EventLoopGroup,
              pin: @escaping @Sendable (String) -> Void) async -> Delivery {
        guard settings.mode == .on else { return Delivery(device: seen.name, error: HandoffError.quickShare(.sendingOff).phrase) }
        let kind: SharingFrame.TextOffer.Kind = ActivityChecks.isWebURL(text) ? .url : .text
        var delivery = await send(files: [], texts: [QuickShareSender.Text(kind: kind, text: Array(text.utf8))], descriptors: [:], to: seen,
                                  qrCode: qrCode, group: group, pin: pin, progress: { _ in })
        if delivery.error == nil { delivery.transferred = UInt64(text.utf8.count) }
        return delivery
    }

    /// One connection to `seen` offering `files` (read from `descriptors` by payload id)
    /// or `texts`; its delivery says only whether it went.
    private func send(files offered: [SharingFrame.FileOffer], texts: [QuickShareSender.Text], descriptors: [Int64: Int32], to seen: Seen,
                      qrCode: QuickShareQRCode?, group: EventLoopGroup, pin: @escaping @Sendable (String) -> Void,
                      progress: @escaping @Sendable (UInt64) -> Void) async -> Delivery {
        let source = QuickShareOutbound(descriptors: descriptors, pin: pin, progress: progress, promise: group.next().makePromise())
        let sender: QuickShareSender
        do {
            sender = QuickShareSender(keyPair: try P256KeyPair(), endpointID: String(decoding: endpoint.id, as: UTF8.self),
                                      info: QuickShareEndpointInfo(deviceType: .laptop, name: name), files: offered, texts: texts, qrCode: qrCode)
        } catch {
            return Delivery(device: seen.name, error: HandoffError.quickShare(.off).phrase)
        }
        let channel: Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(10))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(QuickShareFrameDecoder()))
                        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(QuickShareFrameEncoder()))
                        try channel.pipeline.syncOperations.addHandler(QuickShareSenderHandler(sender: sender, files: offered, delegate: source))
                    }
                }
                .connect(host: seen.address, port: seen.port).get()
        } catch {
            return Delivery(device: seen.name, error: HandoffError.quickShare(.failed(device: seen.name, why: "\(error)")).phrase)
        }
        let (failure, response) = await withTaskCancellationHandler {
            (try? await source.promise.futureResult.get()) ?? (.peerRefused, nil)
        } onCancel: {
            // The phone is told the sender cancelled (it then says so and keeps nothing);
            // the handler closes once that is written.
            channel.triggerUserOutboundEvent(QuickShareSenderHandler.Cancel()).whenFailure { _ in channel.close(promise: nil) }
        }
        if Task.isCancelled { return Delivery(device: seen.name, error: HandoffError.transfer(.cancelled).phrase) }
        if response != nil { return Delivery(device: seen.name, error: HandoffError.transfer(.declinedFiles(device: seen.name)).phrase) }
        if let failure { return Delivery(device: seen.name, error: HandoffError.quickShare(.failed(device: seen.name, why: "\(failure)")).phrase) }
        return Delivery(device: seen.name)
    }
}

/// One send's files, read for its connection (on its event loop) at the offsets it asks.
final class QuickShareOutbound: QuickShareSenderDelegate, Sendable {
    private let descriptors: [Int64: Int32]
    private let pin: @Sendable (String) -> Void
    private let progress: @Sendable (UInt64) -> Void
    let promise: EventLoopPromise<(QuickShareSessionError?, SharingFrame.Response?)>
    private let sent = Mutex<[Int64: Int64]>([:])

    init(descriptors: [Int64: Int32], pin: @escaping @Sendable (String) -> Void, progress: @escaping @Sendable (UInt64) -> Void,
         promise: EventLoopPromise<(QuickShareSessionError?, SharingFrame.Response?)>) {
        self.descriptors = descriptors
        self.pin = pin
        self.progress = progress
        self.promise = promise
    }

    func quickShare(pin: String) { self.pin(pin) }

    func quickShareAccepted() {}

    func quickShare(read payloadID: Int64, offset: Int64, limit: Int) throws -> [UInt8] {
        guard let fd = descriptors[payloadID] else { throw HandoffError.transfer(.sourceGone(path: "", errno: EBADF)) }
        var bytes = [UInt8](repeating: 0, count: limit)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, limit, off_t(offset)) }
        guard count >= 0 else { throw HandoffError.transfer(.unreadable(path: "", errno: errno)) }
        bytes.removeLast(limit - count)
        return bytes
    }

    func quickShare(sent payloadID: Int64, bytes: Int64) {
        let total = sent.withLock { sent in
            sent[payloadID] = bytes
            return sent.values.reduce(0, +)
        }
        progress(UInt64(total))
    }

    func quickShareEnded(_ error: QuickShareSessionError?, response: SharingFrame.Response?) {
        promise.succeed((error, response))
    }
}
