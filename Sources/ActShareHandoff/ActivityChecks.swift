import ActShareCore

/// The rules every user activity must keep, checked by each daemon on what it is given:
/// by a local app on the control socket, and by a paired device on the wire.
///
/// A paired device is not trusted with more than its own activities: its ids, types,
/// titles, URLs and names reach file names, terminals, browsers and handlers here, so each
/// is held to the narrowest form that serves (docs/SECURITY.md).
public enum ActivityChecks {
    /// An activity id: what a daemon's `becomeCurrent` gives, 16 lowercase hex digits.
    public static func isActivityID(_ id: String) -> Bool {
        id.utf8.count == 16 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// An http or https URL of at most ``maximumURLLength`` bytes, with no spaces or
    /// control characters: the only URLs a browser is ever given.
    public static func isWebURL(_ url: String) -> Bool {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), url.utf8.count <= maximumURLLength else { return false }
        let host = lowered.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
    }

    /// Text fit to show on a terminal or in a dialog: at most `limit` bytes, no control
    /// characters (which could move the cursor or rewrite what the user sees), and no
    /// bidirectional overrides (which could reverse it).
    public static func isDisplayText(_ text: String, limit: Int) -> Bool {
        text.utf8.count <= limit && !text.unicodeScalars.contains(where: TerminalText.isControl)
    }

    /// A device's name: 1 to ``maximumNameLength`` bytes of display text.
    public static func isDeviceName(_ name: String) -> Bool {
        !name.isEmpty && isDisplayText(name, limit: maximumNameLength)
    }

    public static let maximumURLLength = 8192
    public static let maximumTitleLength = 1024
    public static let maximumNameLength = 64
    public static let maximumTypeLength = 255

    /// What is wrong with `activity`, or nil. `fromPeer` also requires a valid id (a local
    /// app's activity gets its id from the daemon).
    public static func problem(with activity: UserActivity, fromPeer: Bool) -> String? {
        if fromPeer, !isActivityID(activity.id) { return "its id is not 16 hex digits" }
        guard activity.type.utf8.count <= maximumTypeLength, ReverseDNS.isValid(activity.type) else {
            return "its type is not a reverse-DNS type"
        }
        if let team = activity.team, team.utf8.count > maximumTypeLength || !team.unicodeScalars.allSatisfy(isTeamCharacter) {
            return "its team is not a reverse-DNS name"
        }
        guard isDisplayText(activity.title, limit: maximumTitleLength) else {
            return "its title is longer than \(maximumTitleLength) bytes or holds control characters"
        }
        if let url = activity.webpageURL, !isWebURL(url) { return "its webpage URL is not an http or https URL" }
        guard activity.version >= 1 else { return "its version is not 1 or more" }
        guard activity.created.isFinite else { return "its time is not a number" }
        guard JSONValue.object(activity.userInfo).encodedSize <= UserActivity.maximumUserInfoSize else {
            return "its user info is larger than \(UserActivity.maximumUserInfoSize) bytes"
        }
        // A peer's commands are dropped, never run (``fromPeer(_:)``): not worth a refusal.
        for (name, command) in [("needs_save_command", activity.needsSaveCommand), ("on_continued", activity.onContinued)] where !fromPeer {
            if let command, let problem = commandProblem(command) { return "its \(name) \(problem)" }
        }
        return nil
    }

    /// The most words, and bytes a word, of an activity's command.
    public static let maximumCommandWords = 64
    public static let maximumCommandWordLength = 4096

    /// What is wrong with a command's words, or nil: a program's absolute path first, then
    /// its arguments; it is run as it is, never by a shell.
    public static func commandProblem(_ words: [String]) -> String? {
        guard let program = words.first, program.hasPrefix("/") else {
            return "must be a program's absolute path and its arguments, as a list of words (it is not run by a shell)"
        }
        guard words.count <= maximumCommandWords,
              words.allSatisfy({ $0.utf8.count <= maximumCommandWordLength && !$0.utf8.contains(0) }) else {
            return "has more than \(maximumCommandWords) words, or a word longer than \(maximumCommandWordLength) bytes"
        }
        return nil
    }

    /// What a peer's activity may carry here: its own fields, checked; never commands,
    /// and never a claim of where it comes from or who continued it (the daemon says).
    public static func fromPeer(_ activity: UserActivity) -> Result<UserActivity, ActivityRefusal> {
        if let problem = problem(with: activity, fromPeer: true) { return .failure(ActivityRefusal(message: problem)) }
        var activity = activity
        activity.needsSaveCommand = nil
        activity.onContinued = nil
        activity.origin = nil
        activity.originName = nil
        activity.continuedBy = []
        return .success(activity)
    }

    private static func isTeamCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
    }
}
