import ActShareCore
import ActShareHandoff
import NIOCore
import NIOPosix
import NIOSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Pairing two devices (docs/PROTOCOL.md, Pairing): `handoff pair HOST` on this side
/// (the initiator), `handoff pair --wait` (the responder's window), and a peer's request
/// while that window is open. It owns the window (``PairingGate``) and adds what it pairs
/// to the paired devices.
struct PairingFlow: Sendable {
    let device: LocalDevice
    let paired: PairedDeviceStore
    let gate: PairingGate
    let discovery: any PeerDiscovery
    let group: MultiThreadedEventLoopGroup
    let clientContext: NIOSSLContext

    /// How long a user has to compare codes and confirm, and to start the other side.
    static let pairingSeconds = 120.0

    /// `handoff pair HOST[:PORT]`: this side connects, commits to its nonce, shows the code.
    func pairAsInitiator(host: String, port: Int?, expect: String?, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
                         lines: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) async -> ControlResponse {
        var host = host, expect = expect
        let givenPort = port
        var port = port ?? HandoffDefaults.port
        // A name (or id) found nearby: its address, and only the device of that id.
        switch await nearbyDevice(named: host) {
        case .found(let device):
            DaemonLog.debug("pairing: \(host) is \(device.id) at \(device.address):\(device.port)")
            host = device.address
            port = givenPort ?? device.port
            expect = expect ?? device.id
        case .ambiguous(let devices):
            return .failure(.pairing(.ambiguousNearbyName(host, ids: devices.map(\.id))))
        case .none:
            break
        }
        let address = PeerAddress(host: host, port: port)
        var connected = false
        do {
            let link = try await PeerLink.connect(host: host, port: port, group: group, context: clientContext) { _ in true }
            connected = true
            DaemonLog.debug("pairing: connected to \(host):\(port)")
            let ownKey = try Identity.spki(of: device.identity.certificate)
            return try await link.channel.executeThenClose { inbound, peerOut in
                var frames = inbound.makeAsyncIterator()
                let nonce = Pairing.nonce()
                try await peerOut.write(try Wire.encode(PeerMessage(.pairRequest, name: device.name, port: device.port, commitment: Pairing.commitment(nonce))))
                DaemonLog.debug("pairing: request sent")
                guard let frame = try await frames.next() else { throw HandoffError.pairing(.notAnswered(address)) }
                let response = try Wire.decode(PeerMessage.self, from: frame)
                guard response.type == .pairResponse, let theirNonce = response.nonce.flatMap(Hex.bytes), let name = response.name,
                      let peer = link.peer.value
                else { throw HandoffError.pairing(.refused(address, reason: Daemon.quoted(response.message))) }
                // Only attempts that reached a waiting device count against the limit:
                // a typo in the address does not use one up.
                guard await gate.mayAttempt() else { throw HandoffError.pairing(.tooManyAttempts) }
                guard ActivityChecks.isDeviceName(name), Self.isPort(response.port) else {
                    throw HandoffError.pairing(.refusedNameOrPort(address))
                }
                try await peerOut.write(try Wire.encode(PeerMessage(.pairReveal, nonce: Hex.string(nonce))))
                let code = Pairing.code(initiatorKey: ownKey, responderKey: peer.spki, initiatorNonce: nonce, responderNonce: theirNonce)
                let entry = PairedDevices.Entry(name: name, pin: peer.pin, host: host, port: response.port ?? port)
                let expected = Self.isExpected(entry, expect)
                if expected { try await outbound.write(try Wire.line(ControlResponse.success(code: code, device: entry.device))) }
                var accepted = false
                if expected { accepted = try await userAnswer(&lines) }
                try await peerOut.write(try Wire.encode(PeerMessage(.pairConfirm, accepted: accepted)))
                guard let confirmFrame = try await frames.next() else { throw HandoffError.pairing(.leftBeforeConfirming(device: name)) }
                let theirs = try Wire.decode(PeerMessage.self, from: confirmFrame)
                guard expected else { throw Self.unexpected(entry, expect) }
                return try await conclude(entry, accepted: accepted, theirs: theirs.accepted == true)
            }
        } catch let error as HandoffError {
            return .failure(error)
        } catch {
            let meaning = HandoffError(error, reaching: address, pairing: true)
            switch meaning {
            case .peer(.noAnswer) where connected, .peer(.connectionFailed) where connected:
                // A daemon answered, then cut the connection: it refused this device's
                // certificate, as one not waiting to pair does. TLS 1.3 checks the
                // client's certificate last, so its alert races the close.
                return .failure(.pairing(.failed(.peer(.notWaitingToPair(address)))))
            default:
                return .failure(.pairing(.failed(meaning)))
            }
        }
    }

    enum NearbyMatch {
        case found(DiscoveredDevice), ambiguous([DiscoveredDevice]), none
    }

    /// The device nearby whose name is `name`, or whose id starts with it (4 digits or
    /// more); quickly, from what discovery already saw.
    func nearbyDevice(named name: String) async -> NearbyMatch {
        // An address is one: no need to ask the network.
        if name.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }), name.contains(where: { $0 == "." || $0 == ":" }) { return .none }
        guard let nearby = await discovery.nearby(waiting: 0.3) else { return .none }
        var matches = nearby.filter { $0.name == name }
        if matches.isEmpty, name.count >= 4 { matches = nearby.filter { $0.id.hasPrefix(name.lowercased()) } }
        switch matches.count {
        case 0: return .none
        case 1: return .found(matches[0])
        default: return .ambiguous(matches)
        }
    }

    /// `handoff pair --wait`: opens the window and answers the first device that asks.
    func pairAsResponder(expect: String?, closed: EventLoopFuture<Void>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
                         lines: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) async -> ControlResponse {
        guard let window = await gate.open() else { return .failure(.pairing(.alreadyWaiting)) }
        let timer = Task {
            try await Task.sleep(for: .seconds(Self.pairingSeconds))
            window.eventSink.yield(.failure(.pairing(.noRequest(seconds: Int(Self.pairingSeconds)))))
        }
        defer { timer.cancel() }
        // The user gave up (Ctrl-C closes the control connection): the window closes now,
        // not when the two minutes are over.
        closed.whenComplete { _ in window.eventSink.yield(.failure(.pairing(.cancelled))) }
        var events = window.events.makeAsyncIterator()
        while let event = await events.next() {
            timer.cancel()
            guard event.code != nil, let device = event.device else {
                await gate.close(window)
                return event
            }
            // With --expect-device, another device is refused without asking anyone.
            guard Self.isExpected(device, expect) else {
                window.answerSink.yield(false)
                await gate.close(window)
                return .failure(Self.unexpected(device, expect))
            }
            do {
                try await outbound.write(try Wire.line(event))
                window.answerSink.yield(try await userAnswer(&lines))
            } catch {
                window.answerSink.yield(false)
            }
        }
        await gate.close(window)
        return .failure(.pairing(.unanswered))
    }

    /// The responding side of the exchange, on the peer connection that asked.
    func respondToPairing(_ request: PeerMessage, window: PairingWindow, peer: PeerIdentity, host: String,
                          frames: inout PeerFrames,
                          outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        defer { window.eventSink.finish() }
        guard let commitment = request.commitment, let name = request.name, let theirKey = peer.value else {
            window.eventSink.yield(.failure(.pairing(.anonymousRequest)))
            return
        }
        guard ActivityChecks.isDeviceName(name), Self.isPort(request.port) else {
            window.eventSink.yield(.failure(.pairing(.refusedRequestNameOrPort)))
            return
        }
        let nonce = Pairing.nonce()
        DaemonLog.debug("pairing: responding to \(name)")
        try await outbound.write(try Wire.encode(PeerMessage(.pairResponse, name: device.name, port: device.port, nonce: Hex.string(nonce))))
        DaemonLog.debug("pairing: response sent to \(name)")
        guard let frame = try await frames.next(),
              let reveal = try? Wire.decode(PeerMessage.self, from: frame), reveal.type == .pairReveal,
              let theirNonce = reveal.nonce.flatMap(Hex.bytes), Pairing.commitment(theirNonce) == commitment
        else {
            window.eventSink.yield(.failure(.pairing(.brokenCommitment(device: name))))
            return
        }
        let code = Pairing.code(initiatorKey: theirKey.spki, responderKey: try Identity.spki(of: device.identity.certificate),
                                initiatorNonce: theirNonce, responderNonce: nonce)
        let entry = PairedDevices.Entry(name: name, pin: theirKey.pin, host: host, port: request.port ?? HandoffDefaults.port)
        window.eventSink.yield(.success(code: code, device: entry.device))
        var answers = window.answers.makeAsyncIterator()
        let accepted = await answers.next() ?? false
        try await outbound.write(try Wire.encode(PeerMessage(.pairConfirm, accepted: accepted)))
        guard let confirmFrame = try await frames.next(), let theirs = try? Wire.decode(PeerMessage.self, from: confirmFrame) else {
            window.eventSink.yield(.failure(.pairing(.leftBeforeConfirming(device: name))))
            return
        }
        do {
            window.eventSink.yield(try await conclude(entry, accepted: accepted, theirs: theirs.accepted == true))
        } catch {
            window.eventSink.yield(.failure(HandoffError(error)))
        }
    }

    static func isPort(_ port: Int?) -> Bool { port.map { (1...65535).contains($0) } ?? true }

    /// Whether `device` is the one `handoff pair --expect-device` named (any, if none).
    static func isExpected(_ device: Device, _ expected: String?) -> Bool {
        guard let expected, !expected.isEmpty else { return true }
        return device.id == expected.lowercased()
    }

    static func isExpected(_ entry: PairedDevices.Entry, _ expected: String?) -> Bool { isExpected(entry.device, expected) }

    static func unexpected(_ device: Device, _ expected: String?) -> HandoffError {
        .pairing(.unexpectedDevice(name: device.name, id: device.id, expected: expected))
    }

    static func unexpected(_ entry: PairedDevices.Entry, _ expected: String?) -> HandoffError { unexpected(entry.device, expected) }

    /// The user's `confirm` line on the control socket (a closed socket is a no).
    private func userAnswer(_ lines: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) async throws -> Bool {
        guard let line = try await lines.next(), let request = try? Wire.decode(ControlRequest.self, from: line),
              case .confirm(let yes)? = try? ControlCommand(request)
        else { return false }
        return yes
    }

    /// Stores the pairing when both users accepted.
    private func conclude(_ entry: PairedDevices.Entry, accepted: Bool, theirs: Bool) async throws -> ControlResponse {
        guard accepted else { return .failure(.pairing(.declinedHere(device: entry.name))) }
        guard theirs else { return .failure(.pairing(.declinedThere(device: entry.name))) }
        try await paired.add(entry)
        return .success(device: entry.device)
    }

    /// The open pairing window, for a device asking to pair: nil when none is open, or
    /// when too many have tried lately.
    func takeWindow() async -> PairingWindow? {
        guard await gate.mayAttempt() else { return nil }
        return await gate.take()
    }
}
