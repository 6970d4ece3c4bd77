import ActShareCore
import ActShareDNSSD
import ActShareHandoff
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// LocalSend's discovery (protocol v2, "Multicast UDP"): this device announced to
/// 224.0.0.167:53317 on every IPv4 interface, announcements answered there
/// (`announce: false`), and the HTTPS devices heard kept for two minutes, on a thread of
/// its own.
///
/// What a datagram claims is kept only as ``LocalSendDeviceInfo/decode(_:limit:)`` checks
/// it, and is a hint: the fingerprint is proved by the device's certificate when it is
/// connected to (``LocalSendPins``). Plain-HTTP devices are not kept (docs/PROTOCOL.md
/// says why). At most 64 devices are kept, and one address is answered at most once a
/// second, so a flood of datagrams costs a bounded table and no flood back.
final class LocalSendDiscovery: Sendable {
    static let group: UInt32 = 0xE000_00A7
    static let port = UInt16(LocalSendSettings.defaultPort)
    static let maximumDevices = 64
    /// A device not heard for this long is gone (LocalSend apps announce every 30 s or
    /// answer ours).
    static let keepSeconds = 120.0
    static let answerSeconds = 1.0
    /// How often the interfaces are looked at again (one that came up is joined).
    static let interfaceSeconds = 2.0

    /// A device heard: what it said, where from, and when (monotonic seconds).
    struct Seen: Sendable {
        var info: LocalSendDeviceInfo
        var address: String
        var seenAt: Double
    }

    private struct Shared {
        var devices: [String: Seen] = [:]
        var announceRequested = true
        var stopRequested = false
    }

    private let socket: MulticastSocket
    /// Written to wake the thread from poll(2).
    private let wakePipe: WakePipe
    private let shared = Mutex(Shared())
    private let own: LocalSendDeviceInfo

    /// Opens the socket on port 53317; nothing is sent before ``start()``.
    init(announcing own: LocalSendDeviceInfo) throws(DiscoveryError) {
        socket = try MulticastSocket(group: Self.group, port: Self.port, maximumDatagram: LocalSendDeviceInfo.datagramLimit)
        do {
            wakePipe = try WakePipe()
        } catch {
            socket.close()
            throw error
        }
        self.own = own
    }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, nil, { context in
            Unmanaged<LocalSendDiscovery>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context) == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<LocalSendDiscovery>.fromOpaque(context).release()
        }
    }

    /// Announces this device again: every LocalSend device on the link answers.
    func announceNow() {
        shared.withLock { $0.announceRequested = true }
        wake()
    }

    func stop() {
        shared.withLock { $0.stopRequested = true }
        wake()
    }

    /// The devices heard since `since` (monotonic seconds; default: the last two minutes),
    /// by name.
    func devices(heardSince since: Double? = nil) -> [Seen] {
        let oldest = since ?? (Self.now() - Self.keepSeconds)
        return shared.withLock { $0.devices.values.filter { $0.seenAt >= oldest } }
            .sorted { ($0.info.alias.lowercased(), $0.address) < ($1.info.alias.lowercased(), $1.address) }
    }

    /// A device that said who it is otherwise (its `register`), at `address`.
    func heard(_ info: LocalSendDeviceInfo, at address: String) {
        guard info.scheme == .https, !info.sameFingerprint(as: own.fingerprint) else { return }
        remember(Seen(info: info, address: address, seenAt: Self.now()))
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func wake() { wakePipe.wake() }

    private func message(announce: Bool) -> [UInt8] {
        var info = own
        info.announce = announce
        return (try? Array(JSONEncoder().encode(info))) ?? []
    }

    private func run() {
        var interfaces: [NetworkInterface] = []
        var nextInterfaceCheck = 0.0
        var answered: [UInt32: Double] = [:]
        while true {
            let (stop, announce) = shared.withLock { shared in
                defer { shared.announceRequested = false }
                return (shared.stopRequested, shared.announceRequested)
            }
            if stop { break }
            var now = Self.now()
            if now >= nextInterfaceCheck {
                let current = NetworkInterface.current()
                for interface in current where !interfaces.contains(interface) {
                    _ = socket.join(interface)
                    // A new interface is announced on at once.
                    socket.send(message(announce: true), on: interface.index)
                }
                interfaces = current
                nextInterfaceCheck = now + Self.interfaceSeconds
            }
            if announce {
                let bytes = message(announce: true)
                for interface in interfaces { socket.send(bytes, on: interface.index) }
            }
            var descriptors = [pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, Int32(max(0, nextInterfaceCheck - now) * 1000) + 1)
            if descriptors[1].revents != 0 { wakePipe.drain() }
            now = Self.now()
            // At most 256 datagrams a turn, so that a flood cannot starve the rest.
            for _ in 0..<256 {
                guard let datagram = socket.receive() else { break }
                guard let info = try? LocalSendDeviceInfo.decode(datagram.bytes), info.scheme == .https,
                      !info.sameFingerprint(as: own.fingerprint)
                else { continue }
                remember(Seen(info: info, address: NetworkInterface.dotted(datagram.from), seenAt: now))
                if info.announce == true, (answered[datagram.from] ?? -.infinity) + Self.answerSeconds <= now {
                    if answered.count >= 1024 { answered = answered.filter { $0.value + Self.answerSeconds > now } }
                    answered[datagram.from] = now
                    socket.send(message(announce: false), on: datagram.interfaceIndex)
                }
            }
        }
        socket.close()
        wakePipe.close()
    }

    /// Keeps `seen` under its fingerprint: another device claiming the same address and
    /// port replaced it (a reinstalled app), and the table stays within its bound.
    private func remember(_ seen: Seen) {
        shared.withLock { shared in
            let key = seen.info.fingerprint.uppercased()
            shared.devices = shared.devices.filter { $0.key == key || $0.value.address != seen.address || $0.value.info.port != seen.info.port }
            if shared.devices[key] == nil, shared.devices.count >= Self.maximumDevices,
               let oldest = shared.devices.min(by: { $0.value.seenAt < $1.value.seenAt }) {
                shared.devices[oldest.key] = nil
            }
            shared.devices[key] = seen
        }
    }
}
