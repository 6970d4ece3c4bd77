import ActShareCore
import Logging

/// The daemon's lines on stderr (the journal, under systemd), through swift-log: the
/// daemon's events at `info`, and with ACTSHARE_DEBUG set its tracing at `debug`.
enum DaemonLog {
    static let debugging = Environment.value("ACTSHARE_DEBUG").map { !$0.isEmpty && $0 != "0" } ?? false

    static let logger: Logger = {
        var logger = Logger(label: "org.actshare.daemon") { _ in DaemonLogHandler() }
        logger.logLevel = debugging ? .debug : .info
        return logger
    }()

    /// One line, `actshare daemon: MESSAGE`.
    static func line(_ message: String) {
        logger.info("\(message)")
    }

    /// A line when ACTSHARE_DEBUG is set.
    static func debug(_ message: @autoclosure () -> String) {
        logger.debug("\(message())")
    }
}
