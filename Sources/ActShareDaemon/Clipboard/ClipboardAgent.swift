import ActShareCore
import NIOCore
import Synchronization
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// `actshare-clipboard-agent`, running: the daemon's hands on the session's clipboard (a
/// Wayland compositor's through data-control, else an X display's).
/// It is started with a socket on its standard input and output; frames go both ways
/// (``AgentFrame``). Stopping the daemon closes the socket, which ends the agent.
final class ClipboardAgent: Sendable {
    let pid: pid_t
    /// Frames in, whole; bytes out, a frame's lengths and header then its data as they are
    /// (a fetched image is not copied into one more buffer on its way).
    private let channel: NIOAsyncChannel<(header: ByteBuffer, data: ByteBuffer), ByteBuffer>
    private let writer = Mutex<NIOAsyncChannelOutboundWriter<ByteBuffer>?>(nil)

    private init(pid: pid_t, channel: NIOAsyncChannel<(header: ByteBuffer, data: ByteBuffer), ByteBuffer>) {
        self.pid = pid
        self.channel = channel
    }

    /// Starts the agent; `watch` reads every new owner's content (mode `auto`); `primary`
    /// handles the PRIMARY selection too.
    static func start(_ executable: String, watch: Bool, primary: Bool, maximumBytes: UInt64, group: EventLoopGroup) async throws -> ClipboardAgent {
        guard let (ours, theirs) = ChildProcess.socketPair() else { throw ActShareError(.io, "cannot make a socket for the clipboard agent") }
        let pid: pid_t
        do {
            pid = try ChildProcess.start([executable] + (watch ? ["--watch"] : []) + (primary ? ["--primary"] : []) + ["--max", String(maximumBytes)],
                                         conversation: theirs)
        } catch {
            close(ours)
            close(theirs)
            throw error
        }
        close(theirs)
        let limit = Int(min(maximumBytes + (1 << 20), UInt64(Int32.max)))
        // A copy is read whole, up to clipboard-max: reads of up to 4 MiB, not NIO's 64 KiB.
        let channel = try await NIOPipeBootstrap(group: group)
            .channelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64 << 10, initial: 1 << 20, maximum: 4 << 20))
            .takingOwnershipOfDescriptor(inputOutput: ours) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(AgentFrameDecoder(dataLimit: limit)))
                return try NIOAsyncChannel<(header: ByteBuffer, data: ByteBuffer), ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        return ClipboardAgent(pid: pid, channel: channel)
    }

    /// Hands each frame from the agent to `handle`, in order, until the agent ends; then
    /// reaps it and returns its exit status.
    func run(_ handle: @escaping @Sendable (AgentFrame) async -> Void) async -> Int32 {
        try? await channel.executeThenClose { inbound, outbound in
            writer.withLock { $0 = outbound }
            for try await (header, data) in inbound {
                guard let message = try? Wire.decode(AgentMessage.self, from: header) else { continue }
                await handle(AgentFrame(message, data: data))
            }
        }
        writer.withLock { $0 = nil }
        kill(pid, SIGTERM)
        return ChildProcess.wait(pid)
    }

    /// Sends a frame whose data is `frame.data` and then `more`, one after another; false if
    /// the agent is gone.
    @discardableResult
    func send(_ frame: AgentFrame, more: [ByteBuffer] = []) async -> Bool {
        guard let outbound = writer.withLock({ $0 }), let pieces = try? frame.wire(more: more) else { return false }
        return (try? await outbound.write(contentsOf: pieces)) != nil
    }

    func stop() { kill(pid, SIGTERM) }
}
