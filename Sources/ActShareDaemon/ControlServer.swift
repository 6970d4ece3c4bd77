import ActShareCore
import ActShareHandoff
import NIOCore

/// The control socket's side of the daemon: one connection of this user's CLI, apps
/// (ActShareKit) or providers at a time, a JSON request per line, each answered from the
/// shared ``Daemon`` (docs/PROTOCOL.md, "The control socket").
struct ControlServer {
    let daemon: Daemon

    func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        var linked: [String] = []
        try? await connection.executeThenClose { inbound, outbound in
            var lines = inbound.makeAsyncIterator()
            let link = AppLink(outbound: outbound)
            while let line = try await lines.next() {
                let request: ControlRequest
                do {
                    request = try Wire.decode(ControlRequest.self, from: line)
                } catch {
                    try await outbound.write(try Wire.line(ControlResponse.failure("not a control request", exitCode: .badInput)))
                    continue
                }
                let response: ControlResponse
                switch request.op {
                case .pair:
                    DaemonLog.debug("control: pair with \(request.host ?? "?"):\(request.port ?? 0)")
                    response = await daemon.pairAsInitiator(request, outbound: outbound, lines: &lines)
                case .pairWait:
                    response = await daemon.pairAsResponder(request, closed: connection.channel.closeFuture, outbound: outbound, lines: &lines)
                case .sendFiles:
                    response = await daemon.sendFiles(request, closed: connection.channel.closeFuture, outbound: outbound)
                case .update:
                    // An app's answer to will-save: no response of its own.
                    link.answer(request.activity?.userInfo)
                    continue
                default:
                    response = await answer(request)
                    if request.op == .becomeCurrent, request.watch == true, let id = response.id {
                        await daemon.state.link(id, to: link)
                        linked.append(id)
                    }
                }
                try await outbound.write(try Wire.line(response))
            }
        }
        // The app is gone: so are the activities it kept current.
        for id in linked { _ = await daemon.state.invalidate(id) }
    }

    /// The answer to a one-shot control request.
    private func answer(_ request: ControlRequest) async -> ControlResponse {
        do {
            switch request.op {
            case .becomeCurrent:
                guard let activity = request.activity else { return .failure("no activity given", exitCode: .badInput) }
                if let problem = ActivityChecks.problem(with: activity, fromPeer: false) {
                    return .failure("the activity is refused: \(problem)", exitCode: .badInput)
                }
                return .success(id: await daemon.state.becomeCurrent(activity))
            case .invalidate:
                guard let id = request.id, await daemon.state.invalidate(id) else {
                    return .failure("no current activity has the id \(request.id ?? "")", exitCode: .badInput)
                }
                return .success()
            case .list:
                return .success(activities: await daemon.state.currentActivities)
            case .devices:
                return .success(devices: await daemon.devices())
            case .unpair:
                let paired = await daemon.state.paired
                guard let device = request.device, let entry = paired.entry(named: device) else {
                    return .failure("no paired device is called \(request.device ?? "")", exitCode: .badInput)
                }
                try await daemon.state.removePaired(pin: entry.pin)
                return .success(device: entry.device)
            case .handoffList:
                return .success(activities: await daemon.remoteActivities())
            case .fetch:
                return await daemon.fetch(id: request.id)
            case .continued:
                // Something handed to this device is gone once it was handled here; an
                // activity of another device is told to that device.
                if let id = request.id, await daemon.state.takeReceived(id) != nil { return .success() }
                guard let id = request.id, let device = request.device else { return .failure("continued: id and device needed", exitCode: .badInput) }
                try await daemon.tellContinued(id: id, device: device)
                return .success()
            case .discover:
                guard let nearby = await daemon.nearby(waiting: min(max(request.timeout ?? HandoffDefaults.discoverSeconds, 0), 10)) else {
                    return .failure("discovery is off here (config handoff.discovery: static, or the daemon's log says why)", exitCode: .badInput)
                }
                var response = ControlResponse.success()
                response.nearby = nearby
                return response
            case .status:
                return .success(device: Device(id: daemon.state.identity.deviceID, name: daemon.state.name, host: "", port: daemon.state.port))
            case .send:
                return await daemon.send(request)
            case .needsSave:
                guard let id = request.id, await daemon.state.activity(id) != nil else { return .failure("no current activity has the id \(request.id ?? "")", exitCode: .badInput) }
                await daemon.state.markNeedsSave(id, request.yes ?? true)
                return .success()
            case .update:
                return .failure("update answers a will-save event", exitCode: .badInput)
            case .received:
                return .success(transfers: ReceivedLog(file: daemon.state.paths.receivedLog).all())
            case .queue:
                return .success(queued: await daemon.queue.items)
            case .queueCancel:
                guard let id = request.id, let dropped = await daemon.queue.remove(id) else {
                    return .failure("no queued send has the id \(request.id ?? "")", exitCode: .badInput)
                }
                DaemonLog.line("cancelled the queued send \(dropped.id) to \(dropped.deviceName)")
                return .success(id: dropped.id)
            case .pair, .pairWait, .confirm, .sendFiles:
                return .failure("\(request.op.rawValue) is not expected here", exitCode: .badInput)
            }
        } catch let failure as HandoffFailure {
            return .failure(failure.message, exitCode: failure.exitCode)
        } catch {
            return .failure("\(error)")
        }
    }
}
