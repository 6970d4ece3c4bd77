import Foundation
import Testing

/// The helper's seccomp program (Sources/actshare-provider-host/syscall_filter.c), judged
/// outside the kernel: actshare-filter-check, built by meson (Tests/Fixtures/meson.build), runs it in a
/// classic-BPF interpreter for every permission set, system call number and argument its
/// rules look at, against the rules written out apart (docs/SECURITY.md). The end-to-end
/// SandboxTests then see the kernel enforce it on a real provider.
@Suite struct SyscallFilterTests {
    static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/bin/actshare-filter-check")

    @Test func everyCallGetsTheVerdictTheRulesGiveWithinAShortSearch() throws {
        let process = Process()
        process.executableURL = Self.checker
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        // One line per permission set (network, exec, Unix sockets, shared memory): 16.
        let judged = printed.split(separator: "\n").filter { $0.contains("calls judged") }
        #expect(judged.count == 16, "\(printed)")
    }
}
