import ActShareCore
import ActShareHandoff
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The commands activities name (`needs_save_command`, `on_continued`), run for the peers
/// on a thread pool of their own (they block), each bounded in time.
struct ActivityCommands: Sendable {
    let threadPool: NIOThreadPool

    /// How long an app's command may take: as long as an app linked through ActShareKit
    /// has to answer `will-save`.
    static let commandTimeLimit: Duration = .seconds(2)

    /// What `command` prints, if it is a JSON object small enough for userInfo.
    func refreshedUserInfo(_ command: [String]) async -> [String: JSONValue]? {
        guard let output = await runCommand(command, timeLimit: Self.commandTimeLimit),
              output.count <= UserActivity.maximumUserInfoSize else { return nil }
        return try? JSONDecoder().decode([String: JSONValue].self, from: Data(output))
    }

    /// Starts `command` in a session of its own and lets it go (util-linux `setsid --fork`
    /// ends at once, so nothing is left for the daemon to reap), with `environment` added.
    func startCommand(_ command: [String], environment: [String]) async {
        _ = await runCommand(["/usr/bin/setsid", "--fork"] + command, environment: environment, timeLimit: Self.commandTimeLimit)
    }

    /// Runs a command (words, no shell) on the thread pool (it blocks); its standard output
    /// when it exits 0 within `timeLimit`. A command stopped at the limit is said in the
    /// daemon's log.
    func runCommand(_ argv: [String], environment: [String] = [], timeLimit: Duration) async -> [UInt8]? {
        guard let program = argv.first else { return nil }
        let outcome = try? await threadPool.runIfActive {
            try ChildProcess.run(program, Array(argv.dropFirst()), environment: environment, timeLimit: timeLimit)
        }
        guard let outcome else { return nil }
        if outcome.timedOut { DaemonLog.line("stopped `\(argv.last ?? argv[0])` after \(timeLimit), the time an app's command may take") }
        return outcome.status == 0 && !outcome.timedOut ? outcome.output : nil
    }
}
