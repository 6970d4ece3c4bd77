import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Multicast DNS service discovery on every IPv4 interface: answers for one service
/// (if given one) and browses one service type, on a thread of its own.
///
/// It is a responder of its own, not a client of Avahi: it shares UDP port 5353 with
/// Avahi where that runs (both set SO_REUSEPORT, and multicast reaches every socket), and
/// works where Avahi does not. Its host name is its own (`actshare-ID.local`), so it never
/// competes with the system's for the machine's name.
public final class ServiceDiscovery: Sendable {
    private struct Shared {
        var services: [DiscoveredService] = []
        var queryRequested = false
        var stopRequested = false
        var stopped = false
    }

    private let socket: MulticastSocket
    /// A socket on a port of its own, for one-shot queries (RFC 6762 §5.1) at the start of
    /// a look: a responder answers one at once, unicast, to this socket alone. An answer to
    /// a query from port 5353 may be held back (python-zeroconf aggregates for up to 500 ms
    /// and repeats nothing it multicast within the second), and a unicast one would reach
    /// only one of the sockets that share port 5353. Nil where it cannot be opened.
    private let oneShot: MulticastSocket?
    private let port: UInt16
    /// Written to wake the thread from poll(2).
    private let wakePipe: WakePipe
    private let shared = Mutex(Shared())
    private let advertisement: ServiceAdvertisement?
    private let browsed: DNSName
    private let advertisedAddress: UInt32?
    private let onChange: @Sendable ([DiscoveredService]) -> Void
    /// How often the interfaces are looked at again: an address that changed is announced.
    static let interfaceSeconds = 2.0

    /// Opens the socket; nothing is sent before ``start()``.
    public init(advertising advertisement: ServiceAdvertisement?, browsing browsed: DNSName, advertisedAddress: String? = nil, port: UInt16 = MulticastDNS.port,
                onChange: @escaping @Sendable ([DiscoveredService]) -> Void = { _ in }) throws(DiscoveryError) {
        socket = try MulticastSocket(group: MulticastDNS.group, port: port, maximumDatagram: MulticastDNS.maximumMessageSize)
        do {
            wakePipe = try WakePipe()
        } catch {
            socket.close()
            throw error
        }
        oneShot = try? MulticastSocket(group: MulticastDNS.group, port: 0, maximumDatagram: MulticastDNS.maximumMessageSize)
        self.port = port
        self.advertisement = advertisement
        self.browsed = browsed
        self.advertisedAddress = advertisedAddress.flatMap(NetworkInterface.address).flatMap { $0 == 0 ? nil : $0 }
        self.onChange = onChange
    }

    /// Starts answering and browsing.
    public func start() {
        // A plain pthread (Foundation's Thread would bring all of Foundation, and its ICU).
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<ServiceDiscovery>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<ServiceDiscovery>.fromOpaque(context).release()
        }
    }

    /// The instances of the browsed type found so far.
    public var services: [DiscoveredService] { shared.withLock { $0.services } }

    /// Asks the link again now.
    public func queryNow() {
        shared.withLock { $0.queryRequested = true }
        wake()
    }

    /// Says goodbye for the advertised service and stops, waiting at most a second.
    public func stop() {
        shared.withLock { $0.stopRequested = true }
        wake()
        for _ in 0..<100 {
            if shared.withLock({ $0.stopped }) { return }
            usleep(10_000)
        }
    }

    deinit { wakePipe.close() }

    private func wake() { wakePipe.wake() }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func send(_ outgoing: [MulticastDNSEngine.Outgoing]) {
        for item in outgoing {
            guard let bytes = item.message.encoded() else { continue }
            socket.send(bytes, to: item.address, port: item.port, on: item.interfaceIndex)
        }
    }

    private func run() {
        var engine = MulticastDNSEngine(advertisement: advertisement, browsing: browsed, advertisedAddress: advertisedAddress)
        var nextInterfaceCheck = 0.0
        // The one-shot query asked at the start and at each queryNow(), and its id: an
        // answer must echo it.
        var askOnce = true, oneShotID: UInt16 = 0
        while true {
            let now = Self.now()
            let (stop, query) = shared.withLock { shared in
                defer { shared.queryRequested = false }
                return (shared.stopRequested, shared.queryRequested)
            }
            if stop { break }
            if now >= nextInterfaceCheck {
                let current = NetworkInterface.current()
                for interface in current where !engine.interfaces.contains(interface) { _ = socket.join(interface) }
                engine.setInterfaces(current, now: now)
                nextInterfaceCheck = now + Self.interfaceSeconds
            }
            if query { engine.queryNow(now: now) }
            if askOnce || query, let oneShot {
                askOnce = false
                oneShotID = UInt16.random(in: 1...UInt16.max)
                if let bytes = DNSMessage(isResponse: false, id: oneShotID, questions: [DNSQuestion(name: browsed, type: .pointer)]).encoded() {
                    for interface in engine.interfaces { oneShot.send(bytes, port: port, on: interface.index) }
                }
            }
            let (due, wakeAt) = engine.due(now: now)
            send(due)
            publish(engine)
            let milliseconds = Int32(max(0, min(wakeAt, nextInterfaceCheck) - Self.now()) * 1000) + 1
            var descriptors = [pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: oneShot?.descriptor ?? -1, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 3, milliseconds)
            if descriptors[1].revents != 0 { wakePipe.drain() }
            // At most 256 datagrams a turn, so that a flood cannot starve the timers.
            var changed = false
            for _ in 0..<256 {
                guard let datagram = socket.receive() else { break }
                let (reply, didChange) = engine.receive(datagram.bytes, from: datagram.from, fromPort: datagram.fromPort,
                                                        interfaceIndex: datagram.interfaceIndex, now: Self.now())
                send(reply)
                changed = changed || didChange
            }
            // Answers to the one-shot query: responses echoing its id, nothing else (this
            // socket answers no one).
            for _ in 0..<256 {
                guard let oneShot, let datagram = oneShot.receive() else { break }
                guard datagram.bytes.count >= 4, datagram.bytes[2] & 0x80 != 0,
                      UInt16(datagram.bytes[0]) << 8 | UInt16(datagram.bytes[1]) == oneShotID else { continue }
                let (_, didChange) = engine.receive(datagram.bytes, from: datagram.from, fromPort: datagram.fromPort,
                                                    interfaceIndex: datagram.interfaceIndex, now: Self.now())
                changed = changed || didChange
            }
            if changed { onChange(publish(engine)) }
        }
        send(engine.goodbyes())
        socket.close()
        oneShot?.close()
        shared.withLock { $0.stopped = true }
    }

    @discardableResult
    private func publish(_ engine: MulticastDNSEngine) -> [DiscoveredService] {
        let services = engine.cache.services(of: browsed)
        shared.withLock { $0.services = services }
        return services
    }
}
