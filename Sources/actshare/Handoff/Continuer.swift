import ActShareCore
import ActShareHandoff
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Continues a fetched activity here: its handler with the activity in a JSON file, or the
/// browser with its webpage URL.
struct Continuer {
    let browser: String?

    /// The file a handler gets: type, title, user_info, webpage_url, version, origin_device.
    struct ActivityFile: Encodable {
        struct Origin: Encodable {
            var id: String
            var name: String
        }

        var type: String
        var title: String
        var userInfo: [String: JSONValue]
        var webpageURL: String?
        var version: Int
        var originDevice: Origin

        enum CodingKeys: String, CodingKey {
            case type, title, version
            case userInfo = "user_info"
            case webpageURL = "webpage_url"
            case originDevice = "origin_device"
        }
    }

    static func file(for activity: UserActivity) -> ActivityFile {
        ActivityFile(type: activity.type, title: activity.title, userInfo: activity.userInfo, webpageURL: activity.webpageURL,
                     version: activity.version, originDevice: .init(id: activity.origin ?? "", name: activity.originName ?? ""))
    }

    /// Starts what continues `activity`; returns a line saying what that was.
    func start(_ activity: UserActivity, _ continuation: Continuation) throws -> String {
        if let exec = continuation.exec {
            // The name is made here: nothing a peer sent reaches a path or a command line.
            let directory = HandoffPaths.fromEnvironment().runtimeDirectory
            let path = FileSystem.join(directory, "activity-\(Self.randomName()).json")
            do {
                try FileSystem.createDirectories(directory)
                try FileSystem.writeAtomically(Array(try HandoffOutput.json(Self.file(for: activity)).utf8), to: path)
            } catch let error as ActShareError {
                throw CommandFailure(error)
            }
            // Substituted as one whole argument, never into shell text (the handler manifest
            // may use the placeholder only as a word of its own).
            try Self.launch(exec.map { $0 == HandlerPlaceholder.activityFile ? path : $0 })
            return "continued \(activity.title) from \(activity.originName ?? "?") in \(continuation.handler ?? exec[0])"
        }
        if let text = continuation.text {
            // Handed-off text goes onto the clipboard, through the Copy activity.
            guard let actshare = FileSystem.executablePath else { throw CommandFailure(.failed, "cannot tell where actshare is") }
            let copied = try ChildProcess.run(actshare, ["perform", CopyActivity.type, "--text", text])
            guard copied.status == 0 else { throw CommandFailure(.failed, "could not put the text from \(activity.originName ?? "?") on the clipboard") }
            return "copied the text from \(activity.originName ?? "?") to the clipboard"
        }
        guard let url = continuation.url else { throw CommandFailure(.noActivity, "nothing here continues \(activity.type)") }
        // Whatever the daemons checked: a browser is only ever given http and https.
        guard ActivityChecks.isWebURL(url) else {
            throw CommandFailure(.noActivity, "\(activity.originName ?? "the other device") sent a URL that is not http or https; it is not opened")
        }
        let command = browser.map { FileSystem.pathList($0, separator: " ") } ?? ["xdg-open"]
        try Self.launch(command + [url])
        return "opened \(url) from \(activity.originName ?? "?") in \(command[0])"
    }

    /// 16 random hex digits.
    static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<8).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
    }

    /// Starts `argv` in a session of its own, not waiting for it.
    static func launch(_ argv: [String]) throws {
        guard !argv.isEmpty else { throw CommandFailure(.failed, "the handler's exec is empty") }
        do {
            try ChildProcess.start(argv, detached: true)
        } catch let error as ActShareError {
            throw CommandFailure(.failed, error.phrase)
        }
    }
}
