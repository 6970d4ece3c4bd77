import NIOConcurrencyHelpers
import NIOCore

/// The least pace an upload's body must keep: in every ``windowSeconds`` at least
/// ``minimumBytes`` arrive, or the body ends; otherwise its connection is closed (the file
/// stays unfinished and may be sent again). Without it a client that trickles a byte now
/// and then — never idle long enough for the idle timer — would hold a session, a
/// connection and an open file for as long as it liked.
///
/// 256 KiB in 15 s is 17 KB/s: a phone on the weakest Wi-Fi that still carries a call
/// sends far more.
final class UploadPace: Sendable {
    static let windowSeconds: Int64 = 15
    static let minimumBytes: UInt64 = 256 << 10

    /// Bytes arrived in all, and at the last look.
    private let counted = NIOLockedValueBox<(total: UInt64, looked: UInt64)>((0, 0))
    private let task: NIOLockedValueBox<RepeatedTask?> = NIOLockedValueBox(nil)

    /// Starts watching `channel`'s upload.
    init(closing channel: any Channel) {
        let counted = counted
        let repeated = channel.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(Self.windowSeconds), delay: .seconds(Self.windowSeconds)) { task in
            let window = counted.withLockedValue { counted in
                defer { counted.looked = counted.total }
                return counted.total - counted.looked
            }
            if window < Self.minimumBytes {
                task.cancel()
                DaemonLog.line("LocalSend: closed a slow upload from \(ClientAddress.unmapped(channel.remoteAddress?.ipAddress ?? "")): "
                    + "\(window) bytes in the last \(Self.windowSeconds) s, under \(Self.minimumBytes)")
                channel.close(promise: nil)
            }
        }
        task.withLockedValue { $0 = repeated }
    }

    /// `bytes` more arrived.
    func add(_ bytes: Int) { counted.withLockedValue { $0.total += UInt64(bytes) } }

    /// The body ended (whole or not): no more watching.
    func stop() { task.withLockedValue { $0?.cancel() } }
}
