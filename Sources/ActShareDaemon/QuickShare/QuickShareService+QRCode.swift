import ActShareCore
import ActShareDNSSD
import ActShareHandoff
import ActShareQuickShare
import NIOConcurrencyHelpers
import NIOCore

/// The QR way (docs/PROTOCOL.md, "Quick Share"): a phone that has no Bluetooth LE signal
/// from here scans a code this side shows, and then advertises a token only the code's
/// owner knows; the share goes to that phone and no other, whatever else advertises.
extension QuickShareService {
    /// How long a shown code waits for its phone.
    static let scanSeconds = 120.0
    /// Codes shown for providers that wait at once; more are refused until one lapses.
    static let maximumCodesWaiting = 4

    /// The receiver advertising that it scanned `code`, waited for up to `seconds` (the
    /// link asked again every few seconds); nil when none did, or the wait was cancelled.
    /// The Bluetooth signal is on the air meanwhile, and whether it is is told to `tell`.
    func scanner(of code: QuickShareQRCode, waiting seconds: Double,
                 tell: @escaping @Sendable (BluetoothSignal) async -> Void = { _ in }) async -> Seen? {
        async let told: Void = tell(await bluetooth.hold())
        let found = await look(for: code, waiting: seconds)
        await told
        bluetooth.release()
        return found
    }

    private func look(for code: QuickShareQRCode, waiting seconds: Double) async -> Seen? {
        guard let browser = try? ServiceDiscovery(advertising: nil, browsing: Self.serviceType) else { return nil }
        browser.start()
        defer { browser.stop() }
        for tick in 0..<Int(seconds * 10) {
            if tick % 30 == 0 { browser.queryNow() }
            if let found = browser.services.lazy.compactMap({ self.seen($0, scanning: code) }).first { return found }
            do { try await Task.sleep(for: .milliseconds(100)) } catch { return nil }
        }
        return nil
    }

    /// `send-qr`: the code's URL first (an event the asker draws), then the files of
    /// `paths` or `text` to the phone that scans it, with `found`, `pin` and `progress`
    /// events; the asker closing its connection (Ctrl-C) stops the wait or the share.
    /// `background` (a provider's, whose window shows the code): answered at once with the
    /// URL, the rest going on alone and said in the log; at most
    /// ``maximumCodesWaiting`` at once. `grants`: a restricted connection's items.
    func sendByQRCode(paths: [String], text: String?, background: Bool, grants: ItemGrants?, group: EventLoopGroup,
                      closed: EventLoopFuture<Void>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async -> ControlResponse {
        guard settings.mode != .off else { return .failure(.quickShare(.off)) }
        guard settings.mode == .on else { return .failure(.quickShare(.sendingOff)) }
        guard multicast else { return .failure(.quickShare(.needsMulticast)) }
        var tree: LocalTree?
        if !paths.isEmpty {
            do {
                tree = try LocalTree(paths: paths, grants: grants)
            } catch {
                return .failure(HandoffError(error))
            }
            guard tree?.items.allSatisfy({ $0.entry.kind == .file && !$0.entry.path.contains("/") }) == true else {
                return .failure(.quickShare(.filesOnly))
            }
        }
        let code: QuickShareQRCode
        do { code = try QuickShareQRCode() } catch { return .failure(.quickShare(.off)) }
        if background {
            let admitted = state.withLock { state in
                guard state.codesWaiting < Self.maximumCodesWaiting else { return false }
                state.codesWaiting += 1
                return true
            }
            guard admitted else { return .failure(.quickShare(.codesWaiting(limit: Self.maximumCodesWaiting))) }
            let what = tree.map { "\($0.items.count) file\($0.items.count == 1 ? "" : "s")" } ?? "a text"
            Task {
                defer { self.state.withLock { $0.codesWaiting -= 1 } }
                guard let phone = await scanner(of: code, waiting: Self.scanSeconds) else {
                    return DaemonLog.line("Quick Share: no phone scanned the QR code for \(what) within \(Int(Self.scanSeconds)) s: nothing was sent")
                }
                DaemonLog.line("Quick Share: \(phone.name) scanned the QR code")
                let pin: @Sendable (String) -> Void = { DaemonLog.line("Quick Share PIN for \(phone.name): \($0)") }
                let delivery = if let tree { await send(tree, to: phone, qrCode: code, group: group, pin: pin) { _ in } } else {
                    await send(text: text ?? "", to: phone, qrCode: code, group: group, pin: pin)
                }
                DaemonLog.line(delivery.error.map { "Quick Share: nothing sent to \(phone.name): \($0)" } ?? "Quick Share: sent \(what) to \(phone.name) by its QR code")
            }
            var response = ControlResponse.success()
            response.url = code.url
            return response
        }
        var shown = ControlResponse.success(event: "qr")
        shown.url = code.url
        do { try await outbound.write(try Wire.line(shown)) } catch { return .failure(.transfer(.cancelled)) }

        let sent = NIOLockedValueBox<UInt64>(0)
        let total = tree?.totalBytes ?? UInt64(text?.utf8.count ?? 0)
        let work = Task { () -> (Seen?, Delivery?) in
            let phone = await scanner(of: code, waiting: Self.scanSeconds) { signal in
                var event = ControlResponse.success(event: "bluetooth")
                event.bluetooth = signal
                try? await outbound.write(try Wire.line(event))
            }
            guard let phone else { return (nil, nil) }
            let device = Device(id: phone.endpointID, name: phone.name, host: phone.address, port: phone.port)
            try? await outbound.write(try Wire.line(ControlResponse.success(device: device, event: "found")))
            DaemonLog.line("Quick Share: \(phone.name) scanned the QR code")
            let pin: @Sendable (String) -> Void = { digits in
                var event = ControlResponse.success(event: "pin")
                event.device = device
                event.code = digits
                Task { try? await outbound.write(try Wire.line(event)) }
            }
            if let tree {
                return (phone, await send(tree, to: phone, qrCode: code, group: group, pin: pin) { bytes in sent.withLockedValue { $0 = bytes } })
            }
            return (phone, await send(text: text ?? "", to: phone, qrCode: code, group: group, pin: pin))
        }
        closed.whenComplete { _ in work.cancel() }
        // Progress once bytes go; before, while the code waits, a `waiting` event each
        // quarter second: the asker's Ctrl-C is seen between two lines.
        let reporter = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                let bytes = sent.withLockedValue { $0 }
                var event = ControlResponse.success(event: bytes > 0 ? "progress" : "waiting")
                if bytes > 0 {
                    event.bytes = bytes
                    event.total = total
                }
                try? await outbound.write(try Wire.line(event))
            }
        }
        let (phone, delivery) = await work.value
        reporter.cancel()
        _ = await reporter.result
        if work.isCancelled { return .failure(.transfer(.cancelled)) }
        guard let phone, let delivery else { return .failure(.quickShare(.notScanned(seconds: Int(Self.scanSeconds)))) }
        if let error = delivery.error {
            DaemonLog.line("Quick Share: nothing sent to \(phone.name): \(error)")
            var response = ControlResponse.failure(delivery.phrase ?? Phrase(verbatim: error), exitCode: .failed)
            response.deliveries = [delivery]
            return response
        }
        DaemonLog.line("Quick Share: sent to \(phone.name) by its QR code")
        return .success(deliveries: [delivery])
    }
}
