import ActShareCore
import ActShareHandoff
import NIOCore
import NIOPosix
import NIOSSL

/// LocalSend in the daemon, beside the actshare peer protocol (docs/PROTOCOL.md,
/// "LocalSend"): the devices announced on the link, the certificates pinned to their
/// names, and sending to them.
struct LocalSendService: Sendable {
    let settings: LocalSendSettings
    /// Nil when off, or when port 53317 cannot be listened on (the log says why).
    let discovery: LocalSendDiscovery?
    let pins: LocalSendPins
    /// This device as LocalSend devices see it.
    let own: LocalSendDeviceInfo
    let group: MultiThreadedEventLoopGroup
    let clientContext: NIOSSLContext?
    /// Transfers asking the user, and those accepted and being received.
    let requests = LocalSendRequests()
    let sessions = LocalSendSessions()
    /// Wrong PINs, by address.
    let pinAttempts = PinAttempts()

    /// How long a send waits for a device named but not heard yet to answer an
    /// announcement.
    static let lookupSeconds = 1.5

    init(settings: LocalSendSettings, device: LocalDevice, group: MultiThreadedEventLoopGroup) {
        self.settings = settings
        self.group = group
        pins = LocalSendPins(file: device.paths.localSendDevices)
        own = LocalSendDeviceInfo(alias: String(device.name.prefix(LocalSendDeviceInfo.nameLimit)), deviceModel: "actshare", deviceType: .desktop,
                                  fingerprint: TLS.localSendFingerprint(device.identity.certificate) ?? "", port: settings.port,
                                  download: false)
        clientContext = try? TLS.localSendClientContext(device.identity)
        var discovery: LocalSendDiscovery?
        if settings.mode != .off {
            do {
                discovery = try LocalSendDiscovery(announcing: own)
                discovery?.start()
            } catch {
                DaemonLog.line("LocalSend discovery is off: \(error)")
            }
        }
        self.discovery = discovery
    }

    func stop() { discovery?.stop() }

    /// The LocalSend devices heard: within the last two minutes, or, after announcing and
    /// waiting `seconds`, those that answered. Nil when LocalSend is off.
    func nearby(waiting seconds: Double) async -> [DiscoveredDevice]? {
        guard let discovery else { return nil }
        var since: Double?
        if seconds > 0 {
            since = LocalSendDiscovery.now()
            discovery.announceNow()
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        }
        var found: [DiscoveredDevice] = []
        for seen in discovery.devices(heardSince: since) {
            let pin = await pins.pin(fingerprint: seen.info.fingerprint)
            found.append(DiscoveredDevice(localSend: seen.info, address: seen.address, pinned: pin != nil))
        }
        return found
    }

    /// The LocalSend device called `name` (case-insensitive), asking the link when none is
    /// heard yet; nil when none answers.
    func device(named name: String) async -> LocalSendDiscovery.Seen? {
        guard let discovery else { return nil }
        func find() -> LocalSendDiscovery.Seen? {
            discovery.devices().first { $0.info.alias == name } ?? discovery.devices().first { $0.info.alias.lowercased() == name.lowercased() }
        }
        if let seen = find() { return seen }
        discovery.announceNow()
        for _ in 0..<Int(Self.lookupSeconds * 10) {
            try? await Task.sleep(for: .milliseconds(100))
            if let seen = find() { return seen }
        }
        return nil
    }

    /// A sender to `seen`, once its announced certificate is pinned under its name or is
    /// the first met under that name; `firstContact` when it is to be pinned once it
    /// proved it holds that certificate.
    func sender(to seen: LocalSendDiscovery.Seen, pin: String?) async throws -> (sender: LocalSendSender, firstContact: Bool) {
        guard let clientContext, settings.mode != .off else { throw HandoffError.localSend(.off) }
        guard settings.mode == .on else { throw HandoffError.localSend(.sendingOff) }
        let announced = seen.info.fingerprint.uppercased()
        var firstContact = false
        if await pins.pin(fingerprint: announced) == nil {
            if let earlier = await pins.pins(named: seen.info.alias).first {
                throw HandoffError.localSend(.certificateChanged(device: seen.info.alias, pinned: earlier.fingerprint, announced: announced))
            }
            firstContact = true
        }
        return (LocalSendSender(device: seen, own: own, pin: pin, group: group, context: clientContext), firstContact)
    }

    /// `text` (a URL, a message) to `seen`, as the control protocol answers it.
    func sendMessage(_ text: String, to seen: LocalSendDiscovery.Seen, pin: String?) async -> ControlResponse {
        do {
            var (sender, firstContact) = try await sender(to: seen, pin: pin)
            if firstContact { sender.proved = { await proved(seen) } }
            var delivery = try await sender.send(text: text)
            if firstContact { delivery.pinned = seen.info.fingerprint.uppercased() }
            return .success(deliveries: [delivery])
        } catch {
            return .failure(HandoffError(error))
        }
    }

    /// Whether a sandboxed provider's restricted connection may send to `seen`: only when
    /// the user pinned the certificate it announces with "always" (`handoff accept
    /// --always`), never on first contact. The connection then checks that certificate.
    func trustsForProviders(_ seen: LocalSendDiscovery.Seen) async -> Bool {
        await pins.pin(fingerprint: seen.info.fingerprint)?.always == true
    }

    /// `seen` proved its certificate (a request went through): pinned under its name.
    func proved(_ seen: LocalSendDiscovery.Seen) async {
        do {
            try await pins.learn(alias: seen.info.alias, fingerprint: seen.info.fingerprint)
            DaemonLog.line("LocalSend device \(seen.info.alias) pinned to its certificate \(seen.info.fingerprint.uppercased())")
        } catch {
            DaemonLog.line("cannot pin LocalSend device \(seen.info.alias) in \(pins.fileName): \(error)")
        }
    }

    /// The LocalSend devices' requests waiting for this user's answer.
    func pendingRequests() async -> [LocalSendRequest] { await requests.list }

    /// This user's answer to request `id`: whether one waited for it.
    func answer(_ id: String, _ answer: LocalSendRequests.Answer) async -> Bool { await requests.answer(id, answer) }

    /// The transfer under way for request `id` stopped: whether there was one.
    func cancelSession(requestID id: String) async -> Bool { await sessions.cancel(requestID: id) }

    /// The certificates pinned for the device `name` forgotten: which they were.
    func forget(_ name: String) async throws -> [LocalSendPins.Pin] { try await pins.forget(name) }
}
