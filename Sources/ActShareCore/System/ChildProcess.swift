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
    /// for an app must not hold the daemon up. `input`, if given, is its standard input
    /// (written while it reads: it must read it all before it writes much). `name`, if
    /// given, is the child's `argv[0]` (actshare runs its YAML helper as itself under
    /// another name); else it is `executable`. `environment` (`NAME=value`) is added to ours.
    public static func run(_ executable: String, _ arguments: [String], name: String? = nil, input: [UInt8]? = nil,
                           environment: [String] = [], timeLimit: Duration? = nil) throws -> Outcome {
        var fds: [Int32] = [0, 0]
        guard cactshare_pipe_cloexec(&fds) == 0 else { throw FileSystem.ioError("cannot make a pipe", errno) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }
        var inputFDs: [Int32] = [-1, -1]
        if input != nil {
            guard cactshare_pipe_cloexec(&inputFDs) == 0 else {
                close(writeEnd)
                throw FileSystem.ioError("cannot make a pipe", errno)
            }
        }

        let spawned = Result {
            try spawn([name ?? executable] + arguments, program: executable, searchingPath: false,
                      input: input == nil ? nil : inputFDs[0], output: .into(writeEnd),
                      flags: timeLimit == nil ? 0 : Int16(POSIX_SPAWN_SETPGROUP), environment: environment, failure: "cannot run")
        }
        close(writeEnd)  // the child's copy is the only one left: its end is the pipe's end
        if let input {
            close(inputFDs[0])
            // A child that stops reading early (it failed) only shortens this write.
            _ = FileSystem.writeAll(input, to: inputFDs[1])
            close(inputFDs[1])
        }
        let pid = try spawned.get()

        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        var timedOut = false
        var output: [UInt8] = []
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
            let count = FileSystem.read(readEnd, appendingTo: &output, atMost: 65536)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
        }
        return Outcome(status: wait(pid), output: output, timedOut: timedOut)
    }

    /// Waits for the child `pid` to end: its exit status, or 128 + the signal that ended
    /// it (1 if it cannot be waited for).
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return 1 }
        }
        let exited = (status & 0x7F) == 0
        return exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// A connected pair of Unix stream sockets, close-on-exec, or nil: a conversation
    /// with a child, where writing after it has gone is an error (send with MSG_NOSIGNAL),
    /// not a SIGPIPE as with a pipe.
    public static func socketPair() -> (Int32, Int32)? {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
        return (fds[0], fds[1])
    }

    /// Starts `argv` (searched in PATH) and returns at once: standard input from `input`
    /// (else /dev/null), standard output to /dev/null when `quiet`, in a session of its own
    /// when `detached` (it outlives actshare and its terminal). `name`, if given, is its
    /// `argv[0]` instead of `argv[0]`'s path (the daemon restarts itself so).
    @discardableResult
    public static func start(_ argv: [String], name: String? = nil, input: Int32? = nil, quiet: Bool = false,
                             detached: Bool = false) throws -> pid_t {
        guard let program = argv.first else { throw ActShareError(.io, "no program to start") }
        return try spawn([name ?? program] + argv.dropFirst(), program: program, searchingPath: true, input: input,
                         output: quiet ? .discarded : .inherited, flags: detached ? 0x80 : 0,  // 0x80: POSIX_SPAWN_SETSID
                         failure: "cannot start")
    }

    /// Starts `argv` with both its standard input and output on `socket`: a program that
    /// talks with actshare in lines (the share sheet's window).
    public static func start(_ argv: [String], conversation socket: Int32) throws -> pid_t {
        try spawn(argv, searchingPath: false, input: socket, output: .into(socket), flags: 0, failure: "cannot start")
    }

    /// Where a child's standard output goes.
    private enum Output {
        case inherited, discarded
        case into(Int32)
    }

    /// Spawns `argv` with standard input from `input` (else /dev/null), no descriptor
    /// above standard error, and the posix_spawn `flags` (a process group or a session
    /// of its own: its number is the child's pid).
    /// `program` is what is run, if not `argv[0]`.
    private static func spawn(_ argv: [String], program: String? = nil, searchingPath: Bool, input: Int32?, output: Output,
                              flags: Int16, environment: [String] = [], failure: String) throws -> pid_t {
        guard let program = program ?? argv.first else { throw ActShareError(.io, "no program to start") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        switch output {
        case .inherited: break
        case .discarded: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .into(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 1)
        }
        cactshare_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // actshare ignores SIGPIPE (a provider's closed pipe is its failure, not ours), and
        // the daemon SIGTERM and SIGINT (it handles them); a child gets the defaults back,
        // as programs expect.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGTERM, SIGINT] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, flags | Int16(POSIX_SPAWN_SETSIGDEF))
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        var added: [UnsafeMutablePointer<CChar>?] = []
        if !environment.isEmpty {
            let names = Set(environment.map { $0.prefix { $0 != "=" } })
            var pointer = cactshare_environ()
            while let entry = pointer?.pointee {
                if !names.contains(String(cString: entry).prefix { $0 != "=" }) { added.append(strdup(entry)) }
                pointer = pointer?.advanced(by: 1)
            }
            added += environment.map { strdup($0) }
            added.append(nil)
        }
        defer { added.forEach { free($0) } }
        func spawn(with envp: UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
            searchingPath
                ? posix_spawnp(&pid, program, &actions, &attributes, cArguments, envp)
                : posix_spawn(&pid, program, &actions, &attributes, cArguments, envp)
        }
        let spawned = added.isEmpty ? spawn(with: cactshare_environ()) : added.withUnsafeBufferPointer { spawn(with: $0.baseAddress) }
        guard spawned == 0 else { throw FileSystem.ioError("\(failure) \(program)", spawned) }
        return pid
    }
}
