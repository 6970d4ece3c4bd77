import ActShareCore
import ActShareHandoff
import ActShareYAML

/// An application that continues user activities (schema `actshare/handler@1`):
///
///     schema: actshare/handler@1
///     id: org.example.notes
///     team: org.example
///     continues: [org.example.notes.editing]
///     exec: "notes --continue {activity-file}"
///     max-version: 2
struct HandlerManifest: Sendable {
    var schema: String
    var id: String
    var team: String?
    var continues: [String]
    var exec: String
    var maxVersion: Int?

    /// The manifest in `text`, read from `file`; an error names the file, line and column.
    static func decode(_ text: String, file: String) throws -> HandlerManifest {
        let what = "a handler manifest"
        guard let root = try YAMLValue.parse(text, file: file, kind: .badManifest) else {
            throw ActShareError(.badManifest, Phrase(verbatim: "the file holds no manifest"), at: SourceLocation(file: file, line: 1, column: 1))
        }
        let keys = try root.mapping(kind: .badManifest)
        try keys.checkKeys(["schema", "id", "team", "continues", "exec", "max-version"], in: what)
        return HandlerManifest(
            schema: try keys.require("schema", in: what).string(kind: .badManifest),
            id: try keys.require("id", in: what).string(kind: .badManifest),
            team: try keys["team"]?.string(kind: .badManifest),
            continues: try keys.require("continues", in: what).stringList(kind: .badManifest),
            exec: try keys.require("exec", in: what).string(kind: .badManifest),
            maxVersion: try keys["max-version"]?.int(kind: .badManifest))
    }

    /// Every readable handler manifest in `directories`; broken ones are reported and skipped.
    static func load(from directories: [String], report: (String) -> Void) -> [HandlerManifest] {
        var handlers: [HandlerManifest] = []
        for directory in directories {
            for name in FileSystem.contents(ofDirectory: directory) ?? [] where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                let file = FileSystem.join(directory, name)
                do {
                    let manifest = try decode(
                        String(decoding: try FileSystem.readRegularFile(file, limit: YAMLValue.maximumFileSize), as: UTF8.self), file: file)
                    guard manifest.schema == "actshare/handler@1" else {
                        report("\(file): schema must be actshare/handler@1, not '\(manifest.schema)'")
                        continue
                    }
                    // Inside a word (`sh -c 'x {activity-file}'`) a path would become shell text.
                    guard manifest.argv.allSatisfy({ $0 == HandlerPlaceholder.activityFile || !$0.contains(HandlerPlaceholder.activityFile) }) else {
                        report("\(file): exec: \(HandlerPlaceholder.activityFile) must be a whole argument; for a shell, write sh -c '… \"$0\"' \(HandlerPlaceholder.activityFile)")
                        continue
                    }
                    handlers.append(manifest)
                } catch {
                    report("\(file): not a handler manifest: \(error)")
                }
            }
        }
        return handlers
    }

    /// The command line, split as a shell would split plain words and quotes.
    var argv: [String] { CommandWords.split(exec) }

    /// How `activity` continues here: a handler, the browser, or why not (exit 3).
    static func continuation(for activity: UserActivity, handlers: [HandlerManifest]) -> Result<Continuation, HandoffError> {
        let candidates = handlers.filter { $0.continues.contains(activity.type) && $0.team == activity.team }
        if let handler = candidates.first(where: { ($0.maxVersion ?? Int.max) >= activity.version }) {
            return .success(Continuation(exec: handler.argv, handler: handler.id))
        }
        if let url = activity.webpageURL, ActivityChecks.isWebURL(url) {
            return .success(Continuation(url: url))
        }
        if candidates.isEmpty, let other = handlers.first(where: { $0.continues.contains(activity.type) }) {
            return .failure(.relay(.handlerOfAnotherTeam(handler: other.id, type: activity.type, handlerTeam: other.team, activityTeam: activity.team)))
        }
        if let newest = candidates.map({ ($0, $0.maxVersion ?? Int.max) }).max(by: { $0.1 < $1.1 }) {
            return .failure(.relay(.activityTooNew(type: activity.type, version: activity.version, handler: newest.0.id, maxVersion: newest.1)))
        }
        return .failure(.relay(.noHandler(type: activity.type, team: activity.team)))
    }
}
