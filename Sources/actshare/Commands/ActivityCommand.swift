import ActShareCore
import ActShareHandoff
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `actshare activity`: publish what the user is doing, for their other devices.
struct ActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Publish the user activity of an app (NSUserActivity), withdraw it, or list it.",
        subcommands: [BecomeCurrent.self, Invalidate.self, List.self])

    struct BecomeCurrent: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "become-current", abstract: "Publish an activity; prints its id.")

        @Option(help: "The activity type, reverse-DNS (what a handler's continues: names).") var type: String
        @Option(help: "What the user sees in handoff list.") var title: String
        @Option(name: .customLong("user-info"), help: "A JSON object, at most 64 KiB.") var userInfo: String = "{}"
        @Option(name: .customLong("webpage-url"), help: "An http or https URL, opened where no handler continues the type.") var webpageURL: String?
        @Option(help: "The team of the apps that may continue it.") var team: String?
        @Option(help: "The activity's version (a handler's max-version must be no lower).") var version: Int = 1
        @Option(name: .customLong("needs-save-command"), help: "A program and its arguments, run here (without a shell) before another device fetches it; a JSON object it prints becomes the userInfo.") var needsSaveCommand: String?
        @Option(name: .customLong("on-continued"), help: "A program and its arguments, run here (without a shell) once another device continued it (ACTSHARE_CONTINUED_BY names it).") var onContinued: String?

        func run() throws {
            guard ReverseDNS.isValid(type) else { throw CommandFailure(.badInput, "--type \(type) is not a reverse-DNS type such as org.example.app.editing") }
            if let webpageURL, !(webpageURL.hasPrefix("http://") || webpageURL.hasPrefix("https://")) {
                throw CommandFailure(.badInput, "--webpage-url must be an http or https URL, not '\(webpageURL)'")
            }
            guard userInfo.utf8.count <= UserActivity.maximumUserInfoSize else {
                throw CommandFailure(.badInput, "--user-info is \(userInfo.utf8.count) bytes; at most \(UserActivity.maximumUserInfoSize) are allowed")
            }
            guard let info = try? JSONDecoder().decode([String: JSONValue].self, from: Data(userInfo.utf8)) else {
                throw CommandFailure(.badInput, "--user-info must be a JSON object, not '\(userInfo.prefix(60))'")
            }
            guard version >= 1 else { throw CommandFailure(.badInput, "--version must be 1 or more") }
            let activity = UserActivity(type: type, title: title, userInfo: info, webpageURL: webpageURL, team: team, version: version,
                                        needsSaveCommand: try needsSaveCommand.map { try Self.command($0, option: "--needs-save-command") },
                                        onContinued: try onContinued.map { try Self.command($0, option: "--on-continued") })
            let response = try DaemonConnection().call(ControlRequest(.becomeCurrent, activity: activity))
            StandardStreams.out("\(response.id ?? "")\n")
        }

        /// A command line as the words the daemon runs (no shell), its program found on PATH.
        static func command(_ line: String, option: String) throws -> [String] {
            var words = CommandWords.split(line)
            guard let program = words.first else { throw CommandFailure(.badInput, "\(option) names no program") }
            if !program.contains("/") {
                guard let found = FileSystem.programOnPath(program) else {
                    throw CommandFailure(.badInput, "\(option): \(program) is not a program on PATH (the command is run without a shell; for one, write sh -c '…')")
                }
                words[0] = found
            } else {
                words[0] = FileSystem.absolute(program)
            }
            if let problem = ActivityChecks.commandProblem(words) { throw CommandFailure(.badInput, "\(option) \(problem)") }
            return words
        }
    }

    struct Invalidate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Withdraw a published activity.")
        @Argument(help: "The id become-current printed.") var id: String

        func run() throws {
            _ = try DaemonConnection().call(ControlRequest(.invalidate, id: id))
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The activities published here, and who continued them.")
        @Flag(help: "Print machine-readable JSON on standard output.") var json = false

        func run() throws {
            let activities = try DaemonConnection().call(ControlRequest(.list)).activities ?? []
            if json {
                StandardStreams.out(try HandoffOutput.json(activities) + "\n")
                return
            }
            for activity in activities {
                let continued = activity.continuedBy.isEmpty ? "" : "  continued by \(activity.continuedBy.joined(separator: ", "))"
                StandardStreams.out("\(activity.id)  \(activity.type)  \(activity.title)\(continued)\n")
            }
        }
    }
}

enum HandoffOutput {
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
