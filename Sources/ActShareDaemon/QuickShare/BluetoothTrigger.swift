import ActShareCore
import ActShareHandoff
import NIOCore
import NIOPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Quick Share's Bluetooth LE signal (docs/PROTOCOL.md, "Quick Share"), sent by the helper
/// `actshare-bluetooth-trigger` through BlueZ while someone looks for phones: phones with
/// Quick Share nearby then advertise themselves on the network, where the daemon finds
/// them. Held by each look (``hold()``, ``release()``), it stays on the air for
/// ``lingers`` after the last one (a phone takes seconds to answer, and the next look
/// comes soon); the helper withdraws it when its standard input ends, so a daemon that
/// dies takes it down too.
final class BluetoothTrigger: Sendable {
    /// The helper; nil where it is not installed (the signal is then unavailable).
    let executable: String?
    let group: EventLoopGroup
    let threadPool: NIOThreadPool
    private let state = Mutex(State())

    private struct State {
        var holders = 0
        /// The helper running, with its first answer to come or come.
        var running: Running?
        /// The last "unavailable", kept for ``unavailableLasts``: not a process a look.
        var unavailable: (at: ContinuousClock.Instant, signal: BluetoothSignal)?
        /// Bumped by each hold: a stop scheduled before it is void.
        var generation = 0
        /// What the last hold was told.
        var last: BluetoothSignal?
    }

    /// Whether the signal was sent at the last look; nil before any.
    var lastSignal: BluetoothSignal? { state.withLock { $0.last } }

    private struct Running: Sendable {
        let status: EventLoopFuture<BluetoothSignal>
        var channel: Channel?
    }

    /// How long the signal stays after the last look.
    static let lingers = Duration.seconds(10)
    /// How long an unavailable signal is not asked again.
    static let unavailableLasts = Duration.seconds(30)
    /// How long the helper may take to answer (BlueZ's two calls, 5 s each at most).
    static let answerSeconds: Int64 = 12
    /// The helper's own limit, whatever the daemon does.
    static let helperSeconds = 300

    init(executable: String?, group: EventLoopGroup, threadPool: NIOThreadPool) {
        self.executable = executable
        self.group = group
        self.threadPool = threadPool
    }

    /// Holds the signal on the air (started if it is not) until as many ``release()``
    /// calls; whether it is sent.
    func hold() async -> BluetoothSignal {
        let now = ContinuousClock.now
        let (status, start) = state.withLock { state -> (EventLoopFuture<BluetoothSignal>?, EventLoopPromise<BluetoothSignal>?) in
            state.holders += 1
            state.generation += 1
            if let running = state.running { return (running.status, nil) }
            if let unavailable = state.unavailable, now - unavailable.at < Self.unavailableLasts {
                return (group.next().makeSucceededFuture(unavailable.signal), nil)
            }
            let promise = group.next().makePromise(of: BluetoothSignal.self)
            state.running = Running(status: promise.futureResult)
            return (promise.futureResult, promise)
        }
        if let start { await launch(answering: start) }
        let signal = (try? await status?.get()) ?? BluetoothSignal(unavailable: .failed)
        state.withLock { state in
            state.last = signal
            if signal.adapter == nil { state.unavailable = (ContinuousClock.now, signal) }
        }
        return signal
    }

    /// One look ended; after the last, the signal goes off once ``lingers`` has passed
    /// without another.
    func release() {
        let generation = state.withLock { state -> Int? in
            state.holders = max(0, state.holders - 1)
            return state.holders == 0 ? state.generation : nil
        }
        guard let generation else { return }
        Task {
            try? await Task.sleep(for: Self.lingers)
            let channel = state.withLock { state -> Channel? in
                guard state.holders == 0, state.generation == generation else { return nil }
                defer { state.running = nil }
                return state.running?.channel
            }
            // Closing its standard input is what stops the helper.
            try? await channel?.close()
        }
    }

    /// Starts the helper; its first line answers `promise`, a later `released` or its end
    /// takes it off the list.
    private func launch(answering promise: EventLoopPromise<BluetoothSignal>) async {
        let mine = promise.futureResult
        func fail(_ reason: BluetoothSignal.Unavailable) {
            state.withLock { state in
                if state.running?.status === mine { state.running = nil }
            }
            promise.succeed(BluetoothSignal(unavailable: reason))
        }
        guard let executable, FileSystem.exists(executable) else { return fail(.noHelper) }
        guard let (ours, theirs) = ChildProcess.socketPair() else { return fail(.failed) }
        let pid: pid_t
        do {
            pid = try ChildProcess.start([executable, "--seconds", String(Self.helperSeconds)], conversation: theirs)
        } catch {
            close(ours)
            close(theirs)
            DaemonLog.line("Quick Share's Bluetooth signal: cannot start \(executable): \(error)")
            return fail(.noHelper)
        }
        close(theirs)
        let channel: Channel
        do {
            channel = try await NIOPipeBootstrap(group: group)
                .takingOwnershipOfDescriptor(inputOutput: ours) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                        try channel.pipeline.syncOperations.addHandler(TriggerLineHandler(answer: promise))
                        return channel
                    }
                }
        } catch {
            close(ours)
            kill(pid, SIGTERM)
            _ = try? await threadPool.runIfActive { ChildProcess.wait(pid) }
            return fail(.failed)
        }
        // Kept, unless the last look already let it go while it started: then stopped now.
        let kept = state.withLock { state -> Bool in
            guard state.running?.status === mine else { return false }
            state.running?.channel = channel
            return true
        }
        if !kept { channel.close(promise: nil) }
        // An answer that does not come in time is a failure; the helper is stopped.
        let late = channel.eventLoop.scheduleTask(in: .seconds(Self.answerSeconds)) {
            promise.succeed(BluetoothSignal(unavailable: .failed))
            channel.close(promise: nil)
        }
        promise.futureResult.whenComplete { _ in late.cancel() }
        channel.closeFuture.whenComplete { _ in
            promise.succeed(BluetoothSignal(unavailable: .failed))  // no answer before its end
            self.state.withLock { state in
                if state.running?.channel === channel { state.running = nil }
            }
            Task {
                let status = (try? await self.threadPool.runIfActive { ChildProcess.wait(pid) }) ?? 1
                if status != 0 && status != 3 { DaemonLog.line("Quick Share's Bluetooth signal: its helper ended with status \(status)") }
            }
        }
        if let signal = try? await promise.futureResult.get() {
            DaemonLog.line(signal.adapter.map { "Quick Share's Bluetooth signal sent from \($0)" }
                ?? "Quick Share's Bluetooth signal not sent: \(signal.unavailable?.rawValue ?? "?")")
        }
    }
}

/// The helper's lines: the first answers (`advertising ADAPTER`, `unavailable REASON`);
/// `released` (BlueZ took the signal back) closes. Anything else ends it as a failure.
private final class TriggerLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let answer: EventLoopPromise<BluetoothSignal>
    private var answered = false

    init(answer: EventLoopPromise<BluetoothSignal>) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = String(buffer: unwrapInboundIn(data))
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard !answered else {
            if line == "released" { DaemonLog.line("Quick Share's Bluetooth signal: BlueZ took it back") }
            context.close(promise: nil)
            return
        }
        answered = true
        switch (words.first, words.count == 2 ? words[1] : nil) {
        case ("advertising", let adapter?) where adapter.count <= 64 && adapter.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }):
            answer.succeed(BluetoothSignal(adapter: adapter))
        case ("unavailable", let reason?):
            answer.succeed(BluetoothSignal(unavailable: BluetoothSignal.Unavailable(rawValue: reason) ?? .failed))
        default:
            answer.succeed(BluetoothSignal(unavailable: .failed))
            context.close(promise: nil)
        }
    }
}
