import ActShareCore
import Foundation
import NIOCore
import NIOEmbedded
import NIOPosix
import Testing

@testable import ActShareDaemon
@testable import ActShareHandoff

/// The responding side of a pairing (``PairingFlow/respondToPairing(_:window:peer:host:frames:outbound:)``)
/// on an `NIOAsyncTestingChannel`, the asking device played by the test: its commitment
/// checked against its reveal before any code is shown, the code both sides compute, and
/// the device paired only when both say yes.
@Suite struct PairingResponderTests {
    /// This device ("desk") and the asking one ("laptop"), each with an identity of its own.
    struct Devices {
        let directory: String
        let flow: PairingFlow
        let group: MultiThreadedEventLoopGroup
        let laptop: PeerIdentity
        let laptopSPKI: [UInt8]

        init() throws {
            directory = NSTemporaryDirectory() + "actshare-pairing-" + UUID().uuidString
            let identity = try Identity.loadOrCreate(in: "\(directory)/desk", name: "desk")
            let paths = HandoffPaths(runtimeDirectory: "\(directory)/run", stateDirectory: "\(directory)/desk", handlerDirectories: [])
            group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            flow = PairingFlow(device: LocalDevice(name: "desk", port: 53840, identity: identity, paths: paths),
                               paired: PairedDeviceStore(file: paths.pairedDevices), gate: PairingGate(), discovery: StaticDiscovery(),
                               group: group, clientContext: try TLS.clientContext(identity))
            let theirs = try Identity.loadOrCreate(in: "\(directory)/laptop", name: "laptop")
            laptopSPKI = try Identity.spki(of: theirs.certificate)
            laptop = PeerIdentity()
            laptop.record(pin: try Identity.pin(of: theirs.certificate), spki: laptopSPKI)
        }

        func remove() {
            try? group.syncShutdownGracefully()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Runs the responder for `request` on a testing channel; `exchange` plays the asking
    /// device. The window's events come back.
    static func respond(_ devices: Devices, to request: PeerMessage,
                        _ exchange: @Sendable (NIOAsyncTestingChannel, PairingWindow) async throws -> Void) async throws {
        let channel = NIOAsyncTestingChannel()
        let peer = try await channel.eventLoop.submit { try PeerChannel(wrappingChannelSynchronously: channel) }.get()
        let window = PairingWindow()
        try await peer.executeThenClose { inbound, outbound in
            let responder = Task { [flow = devices.flow, laptop = devices.laptop] in
                var frames = inbound.makeAsyncIterator()
                try await flow.respondToPairing(request, window: window, peer: laptop, host: "10.0.0.2", frames: &frames, outbound: outbound)
            }
            try await exchange(channel, window)
            try await responder.value
        }
    }

    static func sent(_ channel: NIOAsyncTestingChannel) async throws -> PeerMessage {
        try Wire.decode(PeerMessage.self, from: try await channel.waitForOutboundWrite(as: ByteBuffer.self))
    }

    static func frame(_ message: PeerMessage) throws -> PeerFrame { .message(try Wire.encode(message)) }

    @Test func bothSidesComputeTheCodeAndBothYesesPair() async throws {
        let devices = try Devices()
        defer { devices.remove() }
        let nonce = Pairing.nonce()
        let request = PeerMessage(.pairRequest, name: "laptop", port: 53841, commitment: Pairing.commitment(nonce))
        let deskSPKI = try Identity.spki(of: devices.flow.device.identity.certificate)
        try await Self.respond(devices, to: request) { channel, window in
            let response = try await Self.sent(channel)
            #expect(response.type == .pairResponse && response.name == "desk" && response.port == 53840)
            let theirNonce = try #require(response.nonce.flatMap(Hex.bytes))
            try await channel.writeInbound(try Self.frame(PeerMessage(.pairReveal, nonce: Hex.string(nonce))))
            var events = window.events.makeAsyncIterator()
            let shown = try #require(await events.next())
            let code = Pairing.code(initiatorKey: devices.laptopSPKI, responderKey: deskSPKI, initiatorNonce: nonce, responderNonce: theirNonce)
            #expect(shown.code == code && shown.device?.name == "laptop", "the code both compute: \(String(describing: shown.code))")
            window.answerSink.yield(true)
            #expect(try await Self.sent(channel).accepted == true)
            try await channel.writeInbound(try Self.frame(PeerMessage(.pairConfirm, accepted: true)))
            let concluded = try #require(await events.next())
            #expect(concluded.device?.name == "laptop" && concluded.error == nil, "\(String(describing: concluded.error))")
        }
        #expect(await devices.flow.paired.list.entry(named: "laptop")?.host == "10.0.0.2")
    }

    @Test func aRevealThatIsNotTheCommittedNonceShowsNoCode() async throws {
        let devices = try Devices()
        defer { devices.remove() }
        let request = PeerMessage(.pairRequest, name: "laptop", port: 53841, commitment: Pairing.commitment(Pairing.nonce()))
        try await Self.respond(devices, to: request) { channel, window in
            _ = try await Self.sent(channel)
            // Another nonce than the one committed to: chosen after seeing ours.
            try await channel.writeInbound(try Self.frame(PeerMessage(.pairReveal, nonce: Hex.string(Pairing.nonce()))))
            var events = window.events.makeAsyncIterator()
            let shown = try #require(await events.next())
            #expect(shown.code == nil && shown.error?.contains("laptop") == true, "\(String(describing: shown.error))")
        }
        #expect(await devices.flow.paired.list.entry(named: "laptop") == nil)
    }

    @Test func aNoOnEitherSideLeavesItUnpaired() async throws {
        for (here, there) in [(false, true), (true, false)] {
            let devices = try Devices()
            defer { devices.remove() }
            let nonce = Pairing.nonce()
            let request = PeerMessage(.pairRequest, name: "laptop", port: 53841, commitment: Pairing.commitment(nonce))
            try await Self.respond(devices, to: request) { channel, window in
                _ = try await Self.sent(channel)
                try await channel.writeInbound(try Self.frame(PeerMessage(.pairReveal, nonce: Hex.string(nonce))))
                var events = window.events.makeAsyncIterator()
                _ = await events.next()
                window.answerSink.yield(here)
                #expect(try await Self.sent(channel).accepted == here)
                try await channel.writeInbound(try Self.frame(PeerMessage(.pairConfirm, accepted: there)))
                let concluded = try #require(await events.next())
                #expect(concluded.error != nil, "declined \(here ? "there" : "here"), not paired")
            }
            #expect(await devices.flow.paired.list.entry(named: "laptop") == nil)
        }
    }
}
