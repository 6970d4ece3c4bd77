import Foundation
import Glibc
import TestSupport
import Testing
@testable import ActShareCore

@Suite struct ChildProcessTests {
    /// A child that outlives its starter must not hold a pipe that another thread opened
    /// without close-on-exec; that pipe's reader would otherwise wait for the child's end.
    @Test func aLongLivedChildKeepsNoOtherDescriptor() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let child = try ChildProcess.start(["sleep", "30"], quiet: true)
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        close(fds[1])
        defer { close(fds[0]) }
        // With no writer left, the read end reports its end at once (poll, so a regression
        // fails in a second instead of hanging the run).
        var reader = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        let ready = poll(&reader, 1, 1000)
        #expect(ready == 1)
        var byte: UInt8 = 0
        if ready == 1 { #expect(read(fds[0], &byte, 1) == 0) }
    }

    @Test func runCollectsTheOutputAndTheStatus() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "printf hello; exit 3"])
        #expect(outcome.status == 3)
        #expect(outcome.output == Array("hello".utf8))
    }

    /// Past its time limit a child is killed with everything it started.
    @Test func aTimeLimitStopsTheWholeGroup() throws {
        // Stopped by the limit (`timedOut`, SIGKILL), not by its end: the shell would wait 30 s.
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "sleep 30 & echo $!; sleep 30"], timeLimit: .milliseconds(200))
        #expect(outcome.timedOut)
        #expect(outcome.status == 128 + SIGKILL)
        let background = try #require(Int32(String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Killed too (a zombie until init reaps it, so its state rather than its existence).
        let gone = eventually(every: 0.02) {
            let stat = (try? String(contentsOfFile: "/proc/\(background)/stat", encoding: .utf8)) ?? ""
            return stat.isEmpty || stat.contains(") Z ")
        }
        #expect(gone, "the shell's background child was stopped too")
    }
}
