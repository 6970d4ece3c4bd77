import ActShareCore
import Logging

/// Writes the daemon's log records to standard error, one line each, as
/// `actshare daemon: MESSAGE` (and its metadata as `key=value` after it): what a person
/// reads in `journalctl --user -u actshare` and what the tests read.
struct DaemonLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var text = "actshare daemon: \(event.message)"
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in all.sorted(by: { $0.key < $1.key }) { text += " \(key)=\(value)" }
        _ = FileSystem.writeAll(Array((text + "\n").utf8), to: 2)
    }
}
