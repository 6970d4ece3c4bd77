import Foundation
import TestSupport
import Testing
import ActShareCore
import CActShareSystem
@testable import ActShareHost

/// A helper's start (``ProviderProcess``, through `cactshare_spawn`, waiting for the
/// child's exec or not): what the started program is given, and an exec that fails after
/// the start returned.
@Suite struct ProviderProcessTests {
    let root = NSTemporaryDirectory() + "actshare-process-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// The program's path once it has exec'd (`/proc/PID/exe`): waited for until the exec
    /// has set up the new program's environment too (a start that waits for the exec
    /// returns as the old memory is let go, before that).
    private func executable(of pid: pid_t, becoming path: String) -> String? {
        var found: String?
        eventually(every: 0.01) {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"), target == path,
                  !environment(of: pid).isEmpty else { return false }
            found = target
            return true
        }
        return found
    }

    /// Whether `pid` is in its sleep: past sleep(1)'s start, where it opens and closes
    /// its locale's files (a descriptor seen then is sleep's, not one it inherited).
    private func isAsleep(_ pid: pid_t) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? "").contains("nanosleep")
    }

    /// `/proc/PID/environ`, read to its end (its size says 0, so a read by size gets nothing).
    private func environment(of pid: pid_t) -> [UInt8] {
        let file = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return [] }
        defer { close(file) }
        return (try? FileSystem.readToEnd(file, limit: 4096)) ?? []
    }

    /// A line of `/proc/PID/status` (`SigBlk:` and the like) as a number.
    private func mask(_ name: String, of pid: pid_t) throws -> UInt64 {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("\(name):") })
        return try #require(UInt64(line.split(separator: "\t").last ?? "", radix: 16))
    }

    @Test(arguments: [false, true])
    func aHelperHasOnlyItsDescriptorsAGroupOfItsOwnAndNoSignalBlockedOrIgnored(concurrently: Bool) throws {
        let sleep = try #require(["/usr/bin/sleep", "/bin/sleep"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let real = try #require(URL(fileURLWithPath: sleep).resolvingSymlinksInPath().path as String?)
        // What the helper must not inherit: this process ignores SIGPIPE (as actshare does),
        // this thread blocks SIGUSR2, and more descriptors are open.
        signal(SIGPIPE, SIG_IGN)
        var blocked = sigset_t(), before = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR2)
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        let extra = open("/dev/null", O_RDONLY)
        defer { close(extra) }
        let started = Result { try ProviderProcess(helper: sleep, provider: "org.test.sleep", arguments: ["5"], environment: ["A=1"], concurrently: concurrently) }
        pthread_sigmask(SIG_SETMASK, &before, nil)
        let process = try started.get()
        let pid = process.pid
        #expect(executable(of: pid, becoming: real) != nil, "the helper did not exec")
        #expect(eventually(every: 0.01) { isAsleep(pid) }, "sleep did not start sleeping")
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap { Int($0) }.sorted()
        #expect(descriptors == [0, 1, 2, 3, 4])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/0") == "/dev/null")
        let output = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/1")
        #expect(output.hasPrefix("pipe:"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/2") == output)
        #expect(getpgid(pid) == pid)
        #expect(try mask("SigBlk", of: pid) == 0)
        let ignored = try mask("SigIgn", of: pid)
        for signal in [SIGINT, SIGTERM, SIGUSR1, SIGPIPE] {
            #expect(ignored & (1 << UInt64(signal - 1)) == 0, "signal \(signal) is ignored in the helper")
        }
        #expect(environment(of: pid) == Array("A=1\0".utf8))
    }

    /// A descriptor that must move to a place another one takes first (here the test's own
    /// standard output, 1, to become 5, while 1 becomes a pipe): each arrives where it must.
    @Test(arguments: [false, true]) func aDescriptorThatIsAlsoATargetIsCopiedFirst(concurrently: Bool) throws {
        let sleep = try #require(["/usr/bin/sleep", "/bin/sleep"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let real = URL(fileURLWithPath: sleep).resolvingSymlinksInPath().path
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let descriptors = [ends[1], ends[1], ends[0], ends[1], 1]
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(sleep), strdup("5"), nil]
        defer { argv.forEach { free($0) } }
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("A=1"), nil]
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        var started: OpaquePointer?
        let result = environment.withUnsafeBufferPointer {
            cactshare_spawn(sleep, argv, $0.baseAddress, descriptors, Int32(descriptors.count), concurrently ? 1 : 0, &pid, &started)
        }
        #expect(result == 0)
        defer {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            cactshare_spawned_free(started)
        }
        #expect(executable(of: pid, becoming: real) != nil, "the program did not exec")
        let link = { (path: String) in try FileManager.default.destinationOfSymbolicLink(atPath: path) }
        #expect(try link("/proc/\(pid)/fd/5") == link("/proc/self/fd/1"))
        #expect(try link("/proc/\(pid)/fd/1") == link("/proc/self/fd/\(ends[1])"))
        #expect(try link("/proc/\(pid)/fd/3") == link("/proc/self/fd/\(ends[0])"))
    }

    @Test func anExecThatFailsAfterTheStartIsSaidAsSuch() throws {
        // Executable by its mode, not a program: the start returns, and the exec fails.
        let path = "\(root)/not-a-program"
        try Data("not a program\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        // Waiting for the exec, the start itself fails.
        #expect(throws: ProviderProcess.Fault.self) { _ = try ProviderProcess(helper: path, provider: "org.test.broken") }
        let process = try ProviderProcess(helper: path, provider: "org.test.broken", concurrently: true)
        do {
            let deadline = ProviderProcess.now() + 5_000_000_000
            _ = try process.receive(deadline: { deadline }, timeout: "5s")
            Issue.record("a program that could not be started answered")
        } catch let fault as ProviderProcess.Fault {
            #expect(fault.description == "could not be started (Exec format error)", "\(fault.description)")
        }
    }

    @Test(arguments: [false, true]) func aHelperThatIsNotThereIsSaidAtItsStart(concurrently: Bool) throws {
        #expect(throws: ProviderProcess.Fault.self) {
            _ = try ProviderProcess(helper: "\(root)/no-such-helper", provider: "org.test.missing", concurrently: concurrently)
        }
    }
}
