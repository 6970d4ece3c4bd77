import ActShareCore
import ActShareHost
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A zenity progress dialog fed by a provider's progress callbacks; its Cancel button
/// cancels the activity (the same flag Ctrl-C sets, so the provider sees `is_cancelled`).
final class DialogProgress: SessionObserver {
    private let pid: pid_t
    private var input: Int32
    private let watcher: BackgroundWork<Void>?

    init?(executable: String, title: String, cancellation: UnsafeMutablePointer<Int32>) {
        // A socket, not a pipe, for zenity's input: writing after Cancel closed it must be
        // an error (MSG_NOSIGNAL), not a SIGPIPE that ends actshare.
        guard let (theirs, ours) = ChildProcess.socketPair() else { return nil }
        let pid: pid_t
        do {
            pid = try ChildProcess.start(
                [executable, "--progress", "--title=\(title)", "--text=\(ZenityText.markup(title))…", "--percentage=0", "--auto-close", "--width=360"],
                input: theirs, quiet: true)
        } catch {
            close(theirs)
            close(ours)
            return nil
        }
        close(theirs)
        self.pid = pid
        input = ours
        // The dialog ends by itself only at 100% (auto-close) or when Cancel is pressed;
        // before we close its input, an exit means Cancel.
        let flag = UnsafeSendablePointer(cancellation)
        let finished = self.finished
        watcher = BackgroundWork {
            _ = ChildProcess.wait(pid)
            if !finished.value.load(ordering: .acquiring) { flag.pointer.pointee = 1 }
        }
    }

    /// Set once the activity ended, so that the dialog's exit is not taken for Cancel.
    private let finished = Flag()

    final class Flag: Sendable {
        let value = Atomic(false)
    }

    func progress(_ fraction: Double, activity: String) {
        guard input >= 0 else { return }
        // Below 100 until the end: zenity closes itself at 100 with --auto-close.
        let percent = min(99, max(0, Int(fraction * 100)))
        send(Array("\(percent)\n".utf8))
    }

    private func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(input, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func log(_ level: LogLevel, _ message: String, provider: String) {
        Self.logWarnings(level, message, provider: provider)
    }

    /// A provider's warnings and errors on standard error, when a window shows the progress
    /// (the window has no place for them; escapes shown, not sent to a terminal).
    static func logWarnings(_ level: LogLevel, _ message: String, provider: String) {
        guard level >= .warning else { return }
        StandardStreams.err(TerminalText.visible("actshare: \(provider): \(message)") + "\n")
    }

    /// Closes the dialog once the activity has ended.
    func finish() {
        guard input >= 0 else { return }
        finished.value.store(true, ordering: .releasing)
        send(Array("100\n".utf8))
        close(input)
        input = -1
        kill(pid, SIGTERM)
        _ = watcher?.wait()
    }

    deinit { finish() }
}

/// The host's cancellation flag (a C int) handed to the watcher thread, which sets it.
struct UnsafeSendablePointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int32>
    init(_ pointer: UnsafeMutablePointer<Int32>) { self.pointer = pointer }
}
