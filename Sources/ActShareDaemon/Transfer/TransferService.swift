import ActShareCore
import ActShareHandoff
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// Files between paired devices: sending them (now, or from the queue when a device is
/// back), and receiving them into the receive directory. It owns the queue; the transfer
/// itself is ``TransferSender`` and ``TransferReceiver``.
struct TransferService: Sendable {
    let device: LocalDevice
    let peers: PeerDirectory
    let queue: TransferQueue
    let group: MultiThreadedEventLoopGroup
    let clientContext: NIOSSLContext
    let receiveDirectory: String
    /// LocalSend devices, which `send-files` may name too.
    let localSend: LocalSendService
    /// Phones that advertise Quick Share, which `send-files` may name too.
    let quickShare: QuickShareService

    /// `send-files`: the paths to each device chosen, all at once: paired devices, and
    /// LocalSend devices named by the name they announce (with `pin` when they ask for
    /// one). Progress goes to the control connection as `progress` events; its closing
    /// (Ctrl-C in `handoff send`) cancels, and the receivers then keep nothing.
    /// `grants`: a sandboxed provider's items (its restricted connection): the files are
    /// found from them, and go only to a device trusted for providers, now or not at all.
    func sendFiles(paths: [String], devices: [String], all: Bool, copy: Bool, pin: String?, grants: ItemGrants? = nil,
                   closed: EventLoopFuture<Void>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async -> ControlResponse {
        let tree: LocalTree
        do {
            tree = try LocalTree(paths: paths, grants: grants)
        } catch {
            return .failure(HandoffError(error))
        }
        guard !tree.items.isEmpty else { return .failure(.transfer(.nothingToSend)) }
        let chosen: [PeerDirectory.Target], localSendDevices: [LocalSendDiscovery.Seen], phones: [QuickShareService.Seen]
        do {
            (chosen, localSendDevices, phones) = try await targets(named: devices, all: all, forProvider: grants != nil)
        } catch {
            return .failure(HandoffError(error))
        }

        let total = tree.totalBytes * UInt64(chosen.count + localSendDevices.count + phones.count)
        let sent = NIOLockedValueBox<[String: UInt64]>([:])
        let work = Task {
            await withTaskGroup(of: Delivery.self) { group in
                for (entry, addresses) in chosen {
                    group.addTask {
                        let sender = TransferSender(tree: tree, deviceName: entry.name) { bytes in
                            sent.withLockedValue { $0[entry.pin] = bytes }
                        }
                        let (delivery, retry) = await self.deliver(sender, to: entry, addresses: addresses)
                        // A provider's send is not kept: later, its files would be found by
                        // path again, with no sandbox and no item to hold them to.
                        guard retry != nil, !Task.isCancelled, grants == nil else { return delivery }
                        // Off or away, or gone mid-way: the files wait, and go when it is back
                        // (resuming from what it kept). A send that broke off says so and how
                        // much went; one that never started says nothing more.
                        do {
                            let id = try await self.queue.add(paths: paths, to: entry, copy: copy)
                            DaemonLog.line("\(retry == .brokeOff ? delivery.error ?? "" : "\(entry.name) is not reachable"): the files wait as \(id)")
                            var queued = retry == .brokeOff ? delivery : Delivery(device: entry.name)
                            queued.queued = id
                            return queued
                        } catch let failure as HandoffError {
                            return Delivery(device: entry.name, error: "\(delivery.phrase ?? Phrase(verbatim: delivery.error ?? "")) (and \(failure))")
                        } catch {
                            return delivery
                        }
                    }
                }
                for seen in localSendDevices {
                    group.addTask {
                        await self.deliver(tree, toLocalSend: seen, pin: pin) { bytes in
                            sent.withLockedValue { $0["localsend:" + seen.info.fingerprint] = bytes }
                        }
                    }
                }
                for phone in phones {
                    group.addTask {
                        // The PIN both screens show, said to the sender to compare.
                        let shown: @Sendable (String) -> Void = { code in
                            var event = ControlResponse.success(event: "pin")
                            event.device = Device(id: phone.endpointID, name: phone.name, host: phone.address, port: phone.port)
                            event.code = code
                            Task { try? await outbound.write(try Wire.line(event)) }
                        }
                        return await self.quickShare.send(tree, to: phone, group: self.group, pin: shown) { bytes in
                            sent.withLockedValue { $0["quickshare:" + phone.endpointID] = bytes }
                        }
                    }
                }
                var deliveries: [Delivery] = []
                for await delivery in group { deliveries.append(delivery) }
                return deliveries.sorted { $0.device < $1.device }
            }
        }
        // The user gave up (Ctrl-C closed the control connection): stop sending.
        closed.whenComplete { _ in work.cancel() }
        let reporter = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                var event = ControlResponse.success(event: "progress")
                let each = sent.withLockedValue { $0 }
                event.bytes = each.values.reduce(0, +)
                event.total = total
                event.progress = chosen.map { TransferProgress(device: $0.entry.name, bytes: each[$0.entry.pin] ?? 0, total: tree.totalBytes) }
                    + localSendDevices.map { TransferProgress(device: $0.info.alias, bytes: each["localsend:" + $0.info.fingerprint] ?? 0, total: tree.totalBytes) }
                    + phones.map { TransferProgress(device: $0.name, bytes: each["quickshare:" + $0.endpointID] ?? 0, total: tree.totalBytes) }
                try? await outbound.write(try Wire.line(event))
                DaemonLog.debug("send: progress reported, \(event.bytes ?? 0) of \(total) bytes")
            }
        }
        let deliveries = await work.value
        reporter.cancel()
        _ = await reporter.result
        for delivery in deliveries where delivery.queued == nil {
            if let error = delivery.error {
                DaemonLog.line("files not sent to \(delivery.device): \(error)")
            } else {
                DaemonLog.line("sent \(delivery.delivered.count) file\(delivery.delivered.count == 1 ? "" : "s") to \(delivery.device)")
            }
        }
        var response = ControlResponse.success(deliveries: deliveries)
        if work.isCancelled {
            response = .failure(.transfer(.cancelled))
            response.deliveries = deliveries
        } else if let failed = deliveries.first(where: { $0.error != nil && $0.queued == nil }) {
            // A send that broke off and waits in the queue is not a failure: it goes on.
            response = deliveries.count == 1 ? .failure(failed.phrase ?? Phrase(verbatim: failed.error ?? ""), exitCode: .failed) : .failure(.transfer(.notEveryDeviceGotFiles))
            response.deliveries = deliveries
        }
        return response
    }

    /// The paired devices and the LocalSend devices `names` name: a name no paired device
    /// has may be a LocalSend device's — unless an actshare device nearby has it, which is
    /// to be paired (and so said), not asked over LocalSend.
    /// The devices `names` name; `forProvider`: a LocalSend device only if the user trusts it
    /// with what providers send (``LocalSendService/trustsForProviders(_:)``).
    /// After LocalSend, a name may be a phone's that advertises Quick Share; never for a
    /// provider (a phone proves nothing of itself).
    private func targets(named names: [String], all: Bool, forProvider: Bool) async throws
        -> ([PeerDirectory.Target], [LocalSendDiscovery.Seen], [QuickShareService.Seen]) {
        var pairedNames: [String] = [], localSendDevices: [LocalSendDiscovery.Seen] = [], phones: [QuickShareService.Seen] = []
        for name in names {
            guard await peers.entry(named: name) == nil, !(await peers.isUnpairedNearby(name)) else {
                pairedNames.append(name)
                continue
            }
            if let seen = await localSend.device(named: name) {
                if forProvider, !(await localSend.trustsForProviders(seen)) { throw HandoffError.control(.notTrustedForProvider(device: name)) }
                if !localSendDevices.contains(where: { $0.info.fingerprint == seen.info.fingerprint }) { localSendDevices.append(seen) }
            } else if !forProvider, let phone = await quickShare.device(named: name) {
                if !phones.contains(where: { $0.endpointID == phone.endpointID }) { phones.append(phone) }
            } else {
                pairedNames.append(name)
            }
        }
        guard localSendDevices.isEmpty && phones.isEmpty || !pairedNames.isEmpty else { return ([], localSendDevices, phones) }
        do {
            return (try await peers.targets(named: pairedNames, all: all, howToChoose: "choose with --device NAME, or --all"), localSendDevices, phones)
        } catch HandoffError.peer(.noDeviceNamed(let name)) where !forProvider && quickShare.sendsToPhones {
            // Perhaps a phone whose Quick Share is closed: said, with the way that needs no Bluetooth.
            throw HandoffError.peer(.noDeviceOrPhoneNamed(name))
        }
    }

    /// One LocalSend device's delivery; its certificate pinned when it is met the first time.
    private func deliver(_ tree: LocalTree, toLocalSend seen: LocalSendDiscovery.Seen, pin: String?,
                         progress: @escaping @Sendable (UInt64) -> Void) async -> Delivery {
        do {
            var (sender, firstContact) = try await localSend.sender(to: seen, pin: pin)
            sender.progress = progress
            if firstContact { sender.proved = { await localSend.proved(seen) } }
            var delivery = try await sender.send(tree)
            if firstContact { delivery.pinned = seen.info.fingerprint.uppercased() }
            return delivery
        } catch {
            let failure = error is CancellationError || Task.isCancelled ? HandoffError.transfer(.cancelled) : HandoffError(error)
            return Delivery(device: seen.info.alias, error: failure.phrase)
        }
    }

    /// Why a delivery is worth trying again later.
    enum Retry {
        /// No address of the device answered.
        case unreachable
        /// The connection broke while the files went: what arrived is kept there, and a
        /// later attempt resumes from it.
        case brokeOff
    }

    /// One device's delivery: the first of its addresses that answers; with why it is
    /// worth trying again, when it is.
    private func deliver(_ sender: TransferSender, to entry: PairedDevices.Entry,
                         addresses: [(host: String, port: Int)]) async -> (delivery: Delivery, retry: Retry?) {
        var sender = sender
        let went = NIOLockedValueBox<UInt64>(0)
        let report = sender.progress
        sender.progress = { bytes in
            went.withLockedValue { $0 = bytes }
            report(bytes)
        }
        var reason = HandoffError.peer(.unreachable(device: entry.name))
        for address in addresses {
            let link: PeerLink
            do {
                link = try await Wire.within(3) {
                    try await PeerLink.connect(host: address.host, port: address.port, group: self.group, context: self.clientContext) { $0 == entry.pin }
                }
            } catch {
                reason = HandoffError(error, reaching: PeerAddress(host: address.host, port: address.port))
                continue
            }
            await peers.reached(entry, at: address.host, port: address.port)
            do {
                return (try await sender.send(over: link), nil)
            } catch {
                let failure = error is CancellationError || Task.isCancelled
                    ? HandoffError.transfer(.cancelled) : HandoffError(error, reaching: PeerAddress(host: address.host, port: address.port))
                guard failure.isBrokenLink else { return (Delivery(device: entry.name, error: failure.phrase), nil) }
                let bytes = went.withLockedValue { $0 }
                let brokeOff = HandoffError.transfer(.brokeOff(device: entry.name, sent: bytes, total: sender.tree.totalBytes, why: failure.description))
                return (Delivery(device: entry.name, transferred: bytes, error: brokeOff.phrase), .brokeOff)
            }
        }
        return (Delivery(device: entry.name, error: reason.phrase), .unreachable)
    }

    /// Tries each queued send that is due: delivered, it leaves the queue; its device
    /// still away, it waits longer; its device unpaired or its files gone, it is dropped.
    func runQueue() async {
        for item in await queue.due() {
            guard let (entry, addresses) = await peers.targets().first(where: { $0.entry.device.id == item.deviceID }) else {
                await queue.remove(item.id)
                DaemonLog.line("dropped the queued send \(item.id): \(item.deviceName) is no longer paired")
                continue
            }
            let tree: LocalTree
            do {
                tree = try LocalTree(paths: item.paths)
            } catch {
                await queue.remove(item.id)
                DaemonLog.line("dropped the queued send \(item.id) to \(item.deviceName): \(HandoffError(error))")
                continue
            }
            let (delivery, retry) = await deliver(TransferSender(tree: tree, deviceName: entry.name), to: entry, addresses: addresses)
            if let error = delivery.error {
                await queue.failed(item.id, reason: error)
                if retry != .unreachable { DaemonLog.line("the queued send \(item.id) to \(entry.name) failed, to be tried again: \(error)") }
            } else {
                await queue.remove(item.id)
                DaemonLog.line("delivered the queued send \(item.id) to \(entry.name): \(delivery.delivered.count) files, \(delivery.transferred) bytes sent")
            }
        }
    }

    /// A paired device's transfer, received and recorded.
    /// `paths` to one paired device now, without progress or a queue (files copied to the
    /// clipboard, fetched when pasted there): what it received, or why not.
    func deliver(paths: [String], grants: ItemGrants? = nil, to entry: PairedDevices.Entry) async -> Delivery {
        let tree: LocalTree
        do {
            tree = try LocalTree(paths: paths, grants: grants)
        } catch {
            return Delivery(device: entry.name, error: HandoffError(error).phrase)
        }
        guard let addresses = await peers.targets().first(where: { $0.entry.pin == entry.pin })?.addresses else {
            return Delivery(device: entry.name, error: HandoffError.peer(.noDeviceNamed(entry.name)).phrase)
        }
        return await deliver(TransferSender(tree: tree, deviceName: entry.name), to: entry, addresses: addresses).delivery
    }

    func receiveFiles(_ offer: PeerMessage, from entry: PairedDevices.Entry,
                      frames: inout PeerFrames,
                      outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async {
        let receiver = TransferReceiver(directory: receiveDirectory, senderName: entry.name, senderID: entry.device.id, ownName: device.name)
        guard let received = try? await receiver.receive(offer, frames: &frames, outbound: outbound) else { return }
        record(received)
    }

    /// What arrived, said in the log and a notice, and kept for `handoff received`.
    func record(_ received: ReceivedTransfer) {
        let count = received.files.count
        DaemonLog.line("received \(count) file\(count == 1 ? "" : "s") (\(ByteCount.describe(received.bytes))) from \(received.from): "
            + received.paths.map(FileSystem.abbreviatingHome).joined(separator: ", "))
        ReceivedNotice.show(received, in: receiveDirectory)
        do {
            try ReceivedLog(file: device.paths.receivedLog).append(received)
        } catch {
            DaemonLog.line("cannot record what arrived in \(device.paths.receivedLog): \(error)")
        }
    }

    /// The sends waiting for their devices.
    func queued() async -> [QueuedTransfer] { await queue.items }

    /// The queued send `id` dropped: what it was, or nil if there is none.
    func cancelQueued(_ id: String) async -> QueuedTransfer? { await queue.remove(id) }

    /// A paired device is here: what waits for it is tried now.
    func hurry(deviceID: String) async { await queue.hurry(deviceID: deviceID) }
}
