import CActShareSystem
#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper program and collects its standard output.
///
/// `posix_spawn` rather than `fork`: forking a multithreaded Swift process is unsafe.
/// A child keeps no descriptor but its standard three: in the daemon another thread may
/// hold a pipe open at that moment, and a long-lived child holding its write end would
/// keep that pipe's reader from ever seeing its end. The child's standard input is
/// `/dev/null` and its standard error is ours, so what it says about itself reaches the user.
public enum ChildProcess {
    /// How a child ended, with what it wrote to standard output.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        public var output: [UInt8]
        /// Whether it was stopped for running past its time limit.
        public var timedOut = false
    }

    /// Runs `executable` to its end and returns what it wrote to standard output.
    ///
    /// With a `timeLimit`, the child runs in a process group of its own, and the whole group
    /// is killed when the limit passes (a shell's children too): a command the daemon runs
    /// for an app must not hold the daemon up.
    public static func run(_ executable: String, _ arguments: [String], timeLimit: Duration? = nil) throws -> Outcome {
        var fds: [Int32] = [0, 0]
        guard cactshare_pipe_cloexec(&fds) == 0 else { throw FileSystem.ioError("cannot make a pipe", errno) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        cactshare_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if timeLimit != nil {
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, cactshare_environ())
        close(writeEnd)
        guard spawned == 0 else { throw FileSystem.ioError("cannot run \(executable)", spawned) }

        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        var timedOut = false
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                var reader = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let milliseconds = max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
                let ready = left <= .zero ? 0 : poll(&reader, 1, Int32(clamping: milliseconds))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 {
                    kill(-pid, SIGKILL)
                    timedOut = true
                    break
                }
            }
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: chunk[0..<count])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7F) == 0
        return Outcome(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output: output, timedOut: timedOut)
    }

    /// Starts `argv` (searched in PATH) and returns at once: standard input from `input`
    /// (else /dev/null), standard output to /dev/null when `quiet`, in a session of its own
    /// when `detached` (it outlives actshare and its terminal).
    @discardableResult
    public static func start(_ argv: [String], input: Int32? = nil, quiet: Bool = false, detached: Bool = false) throws -> pid_t {
        guard let program = argv.first else { throw ActShareError(.io, "no program to start") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if quiet { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
        cactshare_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if detached { posix_spawnattr_setflags(&attributes, 0x80) } // POSIX_SPAWN_SETSID
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, &attributes, cArguments, cactshare_environ())
        guard spawned == 0 else { throw FileSystem.ioError("cannot start \(program)", spawned) }
        return pid
    }
}
