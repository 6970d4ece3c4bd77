import ActShareCore
import CActShareSystem
#if canImport(Glibc)
import Glibc
#endif

/// One `actshare-provider-host` process and the two pipes to it.
///
/// Every wait has a deadline; what went wrong is told in words a user understands
/// (crashed with SIGSEGV, exited with status 3, did not answer within 5s).
final class ProviderProcess {
    /// Why the conversation with the helper ended.
    struct Fault: Error {
        var description: String
    }

    let pid: pid_t
    private let input: Int32   // we write
    private let output: Int32  // we read
    /// The provider's standard output and error, relayed by ``relay(_:)``.
    private let diagnostics: Int32
    /// The provider's id, for what is said about it.
    private let provider: String
    private var buffer: [UInt8] = []
    private var exited = false
    private var relayed = 0
    private var pendingLine: [UInt8] = []
    /// What the helper's start keeps until it is reaped (``cactshare_spawn``).
    private var started: OpaquePointer?

    /// What a provider may write to standard error (and output) in all; the rest is
    /// dropped with one line that says so.
    static let diagnosticsLimit = 64 * 1024

    /// Starts the helper with the protocol on its descriptors 3 (requests) and 4 (replies),
    /// and its standard output and error on a pipe that actshare reads: a provider cannot
    /// flood the terminal, write control sequences to it, or (through children left
    /// behind) hold the caller's own output open.
    /// `environment` (`NAME=value` entries) replaces actshare's own when given.
    /// `arguments` follow the helper's name on its command line. `grant`, if given, is
    /// also the helper's descriptor 5 (``HandoffGrant``). With `concurrently`, actshare goes
    /// on while the helper execs (for helpers started together; alone, one that runs at once
    /// while actshare waits starts sooner: docs/PACKAGING.md, "Taken").
    init(helper: String, provider: String, arguments: [String] = [], environment: [String]? = nil, grant: Int32? = nil,
         concurrently: Bool = false) throws {
        self.provider = provider
        var toHelper: [Int32] = [0, 0]
        var fromHelper: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard cactshare_pipe_cloexec(&toHelper) == 0 else { throw Fault(description: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        guard cactshare_pipe_cloexec(&fromHelper) == 0 else {
            close(toHelper[0]); close(toHelper[1])
            throw Fault(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        guard cactshare_pipe_cloexec(&errors) == 0 else {
            close(toHelper[0]); close(toHelper[1]); close(fromHelper[0]); close(fromHelper[1])
            throw Fault(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // Descriptors 1 and 2 the provider's output, 3 requests, 4 replies, 5 the grant;
        // nothing else: a provider is not given the host's other files and sockets. In a
        // process group of its own, so Ctrl-C on the terminal reaches actshare (which
        // cancels in order) and not the helper; with default signal handling, unblocked.
        var descriptors = [errors[1], errors[1], toHelper[0], fromHelper[1]]  // 1, 2, 3 and 4
        if let grant {
            assert(descriptors.count + 1 == HandoffGrant.descriptor)
            descriptors.append(grant)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([helper] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var started: OpaquePointer?
        let entries: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { entries?.forEach { free($0) } }
        let spawned = entries.map { entries in
            entries.withUnsafeBufferPointer {
                cactshare_spawn(helper, argv, $0.baseAddress, descriptors, Int32(descriptors.count), concurrently ? 1 : 0, &pid, &started)
            }
        } ?? cactshare_spawn(helper, argv, cactshare_environ(), descriptors, Int32(descriptors.count), concurrently ? 1 : 0, &pid, &started)
        close(toHelper[0])
        close(fromHelper[1])
        close(errors[1])
        guard spawned == 0 else {
            close(toHelper[1]); close(fromHelper[0]); close(errors[0])
            throw Fault(description: "cannot start \(helper): \(String(cString: strerror(spawned)))")
        }
        self.started = started
        self.pid = pid
        input = toHelper[1]
        output = fromHelper[0]
        diagnostics = errors[0]
        _ = fcntl(diagnostics, F_SETFL, fcntl(diagnostics, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        finish()
        relayAvailable()
        if !pendingLine.isEmpty { relay([10]) }
        if !inputClosed { close(input) }
        close(output)
        close(diagnostics)
        cactshare_spawned_free(started)  // reaped by finish()
    }

    private var inputClosed = false

    /// Ends the helper as at the end of a run: its input closes and it ends on its own,
    /// so a process its provider may leave running (`background: true`) stays; one that
    /// has not ended within 100 ms is stopped (``stop()``, which also reaps it).
    private func finish() {
        if !exited {
            close(input)
            inputClosed = true
            waitForExit()
        }
        stop()
    }

    /// Waits up to 100 ms for the helper to end (its guard ends within a fraction of a
    /// millisecond once it is told to), polling from 50 µs up.
    private func waitForExit() {
        var pause: UInt32 = 50
        var waited: UInt32 = 0
        while !hasExited() && waited < 100_000 {
            usleep(pause)
            waited += pause
            pause = min(pause * 2, 10_000)
        }
    }

    /// Sends a frame; a helper that went away is a fault.
    func send(_ frame: Frame) throws {
        guard FileSystem.writeAll(frame.encoded, to: input) else { throw Fault(description: ended(during: "a request")) }
    }

    /// The next frame, waiting until the deadline (CLOCK_MONOTONIC nanoseconds) that
    /// `deadline` gives, which is asked again every 50 ms (cancellation shortens it).
    func receive(deadline: () -> UInt64, timeout: String) throws -> Frame {
        while true {
            if buffer.count >= 4 {
                let length = Int(buffer[0]) | Int(buffer[1]) << 8 | Int(buffer[2]) << 16 | Int(buffer[3]) << 24
                guard length >= 1 else { throw malformed("an empty reply") }
                guard length <= Frame.maximumSize else {
                    throw malformed("a reply of \(length) bytes, more than the \(Frame.maximumSize >> 20) MiB allowed")
                }
                if buffer.count >= 4 + length {
                    guard let kind = Frame.Kind(rawValue: buffer[4]) else { throw malformed("a reply of unknown type \(buffer[4])") }
                    var frame = Frame(kind)
                    frame.payload = Array(buffer[5..<4 + length])
                    buffer.removeFirst(4 + length)
                    // What the provider wrote before this reply is in its pipe already:
                    // relayed now, before actshare goes on (and maybe exits).
                    relayAvailable()
                    return frame
                }
            }
            let now = Self.now()
            let deadline = deadline()
            // Past the deadline, what is in the pipe already is still taken: a reply read
            // late (while actshare read another helper's) came in time.
            var descriptors = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: diagnostics, events: Int16(POLLIN), revents: 0)]
            let wait = now < deadline ? Int32(min((deadline - now) / 1_000_000 + 1, 50)) : 0
            let ready = Glibc.poll(&descriptors, 2, wait)
            if ready < 0 && errno != EINTR { throw Fault(description: ended(during: "a reply")) }
            if descriptors[1].revents != 0 { relayAvailable() }
            // A helper that is gone while its pipe is still open (a child of the provider
            // holds it) has ended all the same: say how, rather than wait for the time limit.
            if descriptors[0].revents & Int16(POLLIN) == 0, hasExited() { throw Fault(description: ended(during: "the call")) }
            if descriptors[0].revents == 0 {
                guard now < deadline else {
                    stop()
                    throw Fault(description: "did not answer within \(timeout), and was stopped")
                }
                continue
            }
            let count = FileSystem.read(output, appendingTo: &buffer, atMost: 65536)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { throw Fault(description: ended(during: "the call")) }
        }
    }

    /// Raised when the user cancelled and the provider was stopped.
    struct CancellationError: Error {}

    /// Sends SIGUSR1: the provider's `is_cancelled` turns true.
    func requestCancel() {
        if !exited { kill(pid, SIGUSR1) }
    }

    /// Stops the helper (if it still runs) and everything it started, and reaps it: SIGTERM
    /// first, on which the helper kills what the provider started; after 100 ms, SIGKILL
    /// to the helper and to its whole process group.
    func stop() {
        guard !exited else { return }
        if !hasExited() { kill(pid, SIGTERM) }
        waitForExit()
        // By its id too: a helper without a guard runs the provider, which may ignore
        // SIGTERM and leave the group. Not reaped yet, the id is still the helper's.
        if !hasExited() { kill(pid, SIGKILL) }
        killGroup()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exited = true
    }

    /// Whether the helper has ended (it is left to be reaped, so its process group stays
    /// its own until then).
    private func hasExited() -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
    }

    /// SIGKILL to the helper's process group: what the provider started and did not move
    /// to a session of its own (the helper kills those itself, as their subreaper).
    private func killGroup() {
        kill(-pid, SIGKILL)
    }

    // MARK: The provider's standard output and error

    /// Relays what the provider wrote, line by line, with control characters made
    /// visible, up to ``diagnosticsLimit`` bytes.
    private func relayAvailable() {
        var chunk: [UInt8] = []
        while true {
            chunk.removeAll(keepingCapacity: true)
            let count = FileSystem.read(diagnostics, appendingTo: &chunk, atMost: 16384)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            relay(chunk[...])
        }
    }

    private func relay(_ bytes: ArraySlice<UInt8>) {
        let before = relayed
        relayed += bytes.count
        guard before < Self.diagnosticsLimit else { return }
        pendingLine += bytes.prefix(Self.diagnosticsLimit - before)
        if let end = pendingLine.lastIndex(of: 10) {
            FileSystem.writeAll(Array(TerminalText.visible(String(decoding: pendingLine[...end], as: UTF8.self)).utf8), to: 2)
            pendingLine.removeSubrange(...end)
        }
        if relayed >= Self.diagnosticsLimit {
            if !pendingLine.isEmpty { pendingLine.append(10) }
            pendingLine += Array("actshare: provider \(provider) wrote more than \(Self.diagnosticsLimit / 1024) KiB to standard error; the rest is dropped\n".utf8)
            FileSystem.writeAll(Array(TerminalText.visible(String(decoding: pendingLine, as: UTF8.self)).utf8), to: 2)
            pendingLine = []
        }
    }

    private func relay(_ bytes: [UInt8]) { relay(bytes[...]) }

    // MARK: Faults

    private func malformed(_ what: String) -> Fault {
        stop()
        return Fault(description: "sent \(what) (the pipe is corrupt), and was stopped")
    }

    /// Describes how the helper ended, after its pipe closed.
    private func ended(during phase: String) -> String {
        defer { relayAvailable() }
        var status: Int32 = 0
        // The pipe closed: the process is ending. Give it a moment, then make sure.
        var reaped = false
        for _ in 0..<100 {
            if hasExited() {
                // What it started goes with it (the group is still its own until reaped).
                killGroup()
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid { reaped = true; break }
            }
            usleep(10_000)
        }
        if !reaped {
            stop()
            return "closed the pipe during \(phase), and was stopped"
        }
        exited = true
        let signal = status & 0x7F
        if signal != 0 { return "crashed during \(phase) (\(Self.name(ofSignal: signal)))" }
        let code = (status >> 8) & 0xFF
        if code == 127, let started, case let error = cactshare_spawned_exec_error(started), error != 0 {
            return "could not be started (\(String(cString: strerror(error))))"
        }
        // actshare-provider-host exits 75 when its pipe fails: the provider closed it.
        if code == 75 { return "broke its pipe to actshare during \(phase)" }
        return "exited with status \(code) during \(phase)"
    }

    static func name(ofSignal signal: Int32) -> String {
        switch signal {
        case SIGSEGV: return "SIGSEGV, a bad memory access"
        case SIGABRT: return "SIGABRT, aborted"
        case SIGBUS: return "SIGBUS, a bad memory access"
        case SIGFPE: return "SIGFPE, an arithmetic fault"
        case SIGILL: return "SIGILL, an illegal instruction"
        case SIGKILL: return "SIGKILL"
        case SIGTERM: return "SIGTERM"
        default: return "signal \(signal)"
        }
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
