import ActShareCore
import ActShareHandoff
import CActShareSystem
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The control socket's side of the daemon: one connection of this user's CLI, apps
/// (ActShareKit) or providers at a time, a JSON request per line, each answered by the
/// daemon's part it concerns (docs/PROTOCOL.md, "The control socket").
///
/// The socket is the user's (0600), but a sandboxed provider runs as the user too: a
/// caller the kernel names (SO_PEERCRED) as confined is answered with a refusal and let
/// go, whatever it asks. A provider that may hand off gets a connection actshare opened
/// and restricted (`restrict`) to the items it was given.
struct ControlServer {
    let device: LocalDevice
    let peers: PeerDirectory
    let relay: ActivityRelay
    let transfers: TransferService
    let pairing: PairingFlow
    let clipboard: ClipboardService
    let localSend: LocalSendService
    let quickShare: QuickShareService

    /// The refusal a confined caller gets.
    static func refusal(pid: Int32) -> ControlResponse { .failure(.control(.sandboxedCaller(pid: pid))) }

    /// The process at the other end, as the kernel says; nil if it cannot say.
    static func caller(of channel: any Channel) async -> cactshare_peer_credentials? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<cactshare_peer_credentials> = provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return try? await future.get()
    }

    func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        var linked: [String] = []
        let caller = await Self.caller(of: connection.channel)
        // Unknown counts as confined: refusing a real caller is the safe mistake.
        let confined = caller.map { ProcessConfinement.isConfined(pid: $0.pid) } ?? true
        try? await connection.executeThenClose { inbound, outbound in
            var lines = inbound.makeAsyncIterator()
            if confined {
                // Its request is read first, so that it reads the refusal rather than a
                // socket closed under its write.
                guard try await lines.next() != nil else { return }
                let pid = caller?.pid ?? 0
                DaemonLog.line("refused a request from pid \(pid): it runs sandboxed")
                try await outbound.write(try Wire.line(Self.refusal(pid: pid)))
                return
            }
            let link = AppLink(outbound: outbound)
            var restriction: [String]?, grants: ItemGrants?
            while let line = try await lines.next() {
                let request: ControlRequest
                do {
                    request = try Wire.decode(ControlRequest.self, from: line)
                } catch {
                    try await outbound.write(try Wire.line(ControlResponse.failure(.control(.notAControlRequest))))
                    continue
                }
                let command: ControlCommand
                do throws(ControlRequestError) {
                    command = try ControlCommand(request)
                } catch {
                    try await outbound.write(try Wire.line(ControlResponse.failure(.control(.badRequest(error.message)))))
                    continue
                }
                if case .restrict(let paths) = command {
                    let response: ControlResponse
                    if restriction == nil {
                        restriction = paths
                        grants = ItemGrants(paths: paths)
                        response = .success()
                    } else {
                        response = .failure(.control(.restrictedAlready))
                    }
                    try await outbound.write(try Wire.line(response))
                    continue
                }
                if let restriction, !command.isAllowed(within: restriction) {
                    try await outbound.write(try Wire.line(ControlResponse.failure(.control(.notAllowedWhenRestricted(operation: request.op.rawValue)))))
                    continue
                }
                let response: ControlResponse
                switch command {
                case .pair(let host, let port, let expect):
                    DaemonLog.debug("control: pair with \(host):\(port ?? 0)")
                    response = await pairing.pairAsInitiator(host: host, port: port, expect: expect, outbound: outbound, lines: &lines)
                case .pairWait(let expect):
                    response = await pairing.pairAsResponder(expect: expect, closed: connection.channel.closeFuture, outbound: outbound, lines: &lines)
                case .sendFiles(let paths, let devices, let all, let copy, let pin):
                    response = await transfers.sendFiles(paths: paths, devices: devices, all: all, copy: copy, pin: pin, grants: grants,
                                                      closed: connection.channel.closeFuture, outbound: outbound)
                case .sendQR(let paths, let text, let background):
                    response = await quickShare.sendByQRCode(paths: paths, text: text, background: background, grants: grants, group: transfers.group,
                                                             closed: connection.channel.closeFuture, outbound: outbound)
                case .send(let activity, let device, let pin):
                    response = await send(activity, to: device, pin: pin, grants: grants, outbound: outbound)
                case .visible:
                    do {
                        let name = try quickShare.becomeVisible()
                        try await outbound.write(try Wire.line(ControlResponse.success(device: Device(id: "", name: name, host: "", port: quickShare.port ?? 0))))
                        // Visible until the asker closes the connection; what else it sends is not read.
                        while try await lines.next() != nil {}
                        quickShare.endVisible()
                        return
                    } catch let error as HandoffError {
                        response = .failure(error)
                    }
                case .update(let userInfo):
                    // An app's answer to will-save: no response of its own.
                    link.answer(userInfo)
                    continue
                case .becomeCurrent(_, let watch):
                    response = await answer(command, op: request.op, grants: grants)
                    if watch, let id = response.id {
                        await relay.link(id, to: link)
                        linked.append(id)
                    }
                default:
                    response = await answer(command, op: request.op, grants: grants)
                }
                try await outbound.write(try Wire.line(response))
            }
        }
        // The app is gone: so are the activities it kept current.
        await relay.forget(linked)
    }

    /// `send`: a URL or text to a paired device; to a LocalSend device (a name no paired
    /// device has) as a message; after LocalSend, to a phone that advertises Quick Share
    /// under that name (never for a provider), with a `pin` event first.
    private func send(_ activity: UserActivity, to device: String?, pin: String?, grants: ItemGrants?,
                      outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async -> ControlResponse {
        var text = activity.webpageURL
        if case .string(let said)? = activity.userInfo["text"] { text = said }
        if let device, let text, await peers.entry(named: device) == nil, !(await peers.isUnpairedNearby(device)) {
            if let seen = await localSend.device(named: device) {
                if grants != nil, !(await localSend.trustsForProviders(seen)) { return .failure(.control(.notTrustedForProvider(device: device))) }
                return await localSend.sendMessage(text, to: seen, pin: pin)
            }
            if grants == nil, let phone = await quickShare.device(named: device) {
                let delivery = await quickShare.send(text: text, to: phone, group: transfers.group) { digits in
                    var event = ControlResponse.success(device: Device(id: phone.endpointID, name: phone.name, host: phone.address, port: phone.port),
                                                        event: "pin")
                    event.code = digits
                    Task { try? await outbound.write(try Wire.line(event)) }
                }
                guard let error = delivery.error else { return .success(deliveries: [delivery]) }
                var response = ControlResponse.failure(delivery.phrase ?? Phrase(verbatim: error), exitCode: .failed)
                response.deliveries = [delivery]
                return response
            }
        }
        return await relay.send(activity, to: device)
    }

    /// The answer to a one-shot control request; `grants`, the items of a restricted
    /// connection (a sandboxed provider's).
    private func answer(_ command: ControlCommand, op: ControlRequest.Operation, grants: ItemGrants?) async -> ControlResponse {
        do {
            switch command {
            case .becomeCurrent(let activity, _):
                return await relay.publish(activity)
            case .invalidate(let id):
                return await relay.invalidate(id)
            case .list:
                return .success(activities: await relay.current())
            case .devices(let timeout):
                return .success(devices: timeout == 0 ? await peers.knownDevices() : await peers.devices())
            case .unpair(let device):
                guard let entry = await peers.entry(named: device) else {
                    // A LocalSend device's pinned certificate is forgotten the same way.
                    let forgotten = try await localSend.forget(device)
                    guard let pin = forgotten.first else { return .failure(.peer(.noDeviceNamed(device))) }
                    DaemonLog.line("forgot the certificate pinned for LocalSend device \(pin.alias): \(pin.fingerprint)")
                    return .success(device: Device(id: String(pin.fingerprint.prefix(16)), name: pin.alias, host: "", port: 0))
                }
                try await peers.unpair(entry)
                return .success(device: entry.device)
            case .handoffList:
                return .success(activities: await relay.remoteActivities())
            case .fetch(let id):
                return await relay.fetch(id: id)
            case .continued(let id, let device):
                // Something handed to this device is gone once it was handled here; an
                // activity of another device is told to that device.
                if await relay.takeHandedOff(id) { return .success() }
                guard let device else { return .failure(.control(.continuedNeedsDevice)) }
                try await relay.tellContinued(id: id, device: device)
                return .success()
            case .discover(let timeout):
                let seconds = min(max(timeout ?? HandoffDefaults.discoverSeconds, 0), 10)
                async let localSendNearby = localSend.nearby(waiting: seconds)
                async let phonesNearby = quickShare.nearby(waiting: seconds)
                let actshareNearby = await peers.nearby(waiting: seconds)
                let localSendFound = await localSendNearby
                let phones = await phonesNearby
                guard actshareNearby != nil || localSendFound != nil else { return .failure(.control(.discoveryOff)) }
                // An actshare daemon answers LocalSend too: listed once, as itself.
                let actshareAddresses = Set((actshareNearby ?? []).map(\.address))
                var response = ControlResponse.success()
                response.nearby = (actshareNearby ?? []) + (localSendFound ?? []).filter { !($0.model == "actshare" && actshareAddresses.contains($0.address)) }
                    + (phones ?? []).map { DiscoveredDevice(quickShare: $0.endpointID, name: $0.name, kind: $0.info.deviceType.name, address: $0.address, port: $0.port) }
                if phones != nil { response.bluetooth = quickShare.bluetooth.lastSignal }
                return response
            case .status:
                return .success(device: Device(id: device.identity.deviceID, name: device.name, host: "", port: device.port))
            case .needsSave(let id, let yes):
                return await relay.markNeedsSave(id, yes)
            case .received:
                return .success(transfers: ReceivedLog(file: device.paths.receivedLog).all())
            case .queue:
                return .success(queued: await transfers.queued())
            case .queueCancel(let id):
                guard let dropped = await transfers.cancelQueued(id) else {
                    return .failure(.transfer(.noQueuedSend(id: id)))
                }
                DaemonLog.line("cancelled the queued send \(dropped.id) to \(dropped.deviceName)")
                return .success(id: dropped.id)
            case .clipboardPush(let devices, let content):
                return await clipboard.push(to: devices, content: content, grants: grants)
            case .clipboardStatus:
                var response = ControlResponse.success()
                response.clipboard = await clipboard.status()
                return response
            case .requests:
                var response = ControlResponse.success()
                response.requests = await localSend.pendingRequests()
                return response
            case .answer(let id, let accept, let always):
                if await localSend.answer(id, accept ? .accepted(always: always) : .declined) { return .success(id: id) }
                // Declined once accepted: the transfer under way stops.
                if !accept, await localSend.cancelSession(requestID: id) || quickShare.cancel(requestID: id) { return .success(id: id) }
                return .failure(.localSend(.noRequest(id: id)))
            case .update:
                return .failure(.control(.updateWithoutWillSave))
            case .pair, .pairWait, .confirm, .sendFiles, .restrict, .visible, .send, .sendQR:
                return .failure(.control(.notExpectedHere(operation: op.rawValue)))
            }
        } catch {
            return .failure(HandoffError(error))
        }
    }
}
