import CActShareSystem
#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper program and collects its standard output.
///
/// `posix_spawn` rather than `fork`: forking a multithreaded Swift process is unsafe.
/// The child's standard input is `/dev/null` and its standard error is ours, so what it
/// says about itself reaches the user.
public enum ChildProcess {
    /// How a child ended, with what it wrote to standard output.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        public var output: [UInt8]
    }

    public static func run(_ executable: String, _ arguments: [String]) throws -> Outcome {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw FileSystem.ioError("cannot make a pipe", errno) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, cactshare_environ())
        close(writeEnd)
        guard spawned == 0 else { throw FileSystem.ioError("cannot run \(executable)", spawned) }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: chunk[0..<count])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7F) == 0
        return Outcome(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output: output)
    }
}
