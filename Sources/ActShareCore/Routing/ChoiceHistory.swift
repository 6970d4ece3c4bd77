#if canImport(Glibc)
import Glibc
#endif

/// What the user chose in past shares, kept to put first what they pick for this kind of
/// item, as Apple's and Android's share sheets do.
///
/// Each completed share appends one line to `$XDG_STATE_HOME/actshare/choices.jsonl`: a
/// JSON object with the time, the items' ``family(of:)``, the activity type and the
/// target id (or null). Never an item's name, path or contents. At most ``limit`` lines
/// are kept, the newest; a line that cannot be read is skipped. `remember-choices: false`
/// in the config records nothing; `actshare forget` deletes the file.
public struct ChoiceHistory: Sendable {
    /// One completed share.
    public struct Choice: Sendable, Equatable {
        /// Seconds since the epoch.
        public var time: Int64
        public var family: Family
        public var activity: String
        public var target: String?

        public init(time: Int64, family: Family, activity: String, target: String?) {
            self.time = time
            self.family = family
            self.activity = activity
            self.target = target
        }
    }

    /// The kind of items a choice was made for: what is ranked together.
    public enum Family: String, Sendable, CaseIterable {
        case image, pdf, text, url, video, audio, folder, file
        /// Items of different families.
        case mixed
    }

    /// The most lines kept.
    public static let limit = 2000
    /// The most of the file read: far above 2,000 lines.
    static let readLimit = 1 << 20
    /// How fast a past choice fades: one a month old counts half as much as today's.
    static let halfLife: Double = 30 * 86_400

    public let file: String
    public private(set) var choices: [Choice]

    /// The choices in `stateDirectory`; a missing or unreadable file holds none.
    public init(stateDirectory: String) {
        file = FileSystem.join(stateDirectory, "choices.jsonl")
        let bytes = FileSystem.readHead(file, count: Self.readLimit) ?? []
        choices = bytes.split(separator: UInt8(ascii: "\n")).compactMap { Self.decode(Array($0)) }
    }

    /// The family of `items`: theirs when they share one, else ``Family/mixed``.
    public static func family(of items: [Item]) -> Family {
        let families = Set(items.map(family(of:)))
        return families.count == 1 ? families.first! : .mixed
    }

    static func family(of item: Item) -> Family {
        switch item.kind {
        case .url: return .url
        case .text: return .text
        case .file, .data:
            let type = item.contentType
            if type == "application/pdf" { return .pdf }
            if type == "inode/directory" { return .folder }
            if type.hasPrefix("image/") { return .image }
            if type.hasPrefix("text/") { return .text }
            if type.hasPrefix("video/") { return .video }
            if type.hasPrefix("audio/") { return .audio }
            return .file
        }
    }

    /// How much each activity, and each target of an activity, was chosen for `family`:
    /// every past choice counts, less the older it is (``halfLife``).
    public func scores(for family: Family, now: Int64) -> (activities: [String: Double], targets: [String: [String: Double]]) {
        var activities: [String: Double] = [:]
        var targets: [String: [String: Double]] = [:]
        for choice in choices where choice.family == family {
            let weight = pow(0.5, Double(max(0, now - choice.time)) / Self.halfLife)
            activities[choice.activity, default: 0] += weight
            if let target = choice.target { targets[choice.activity, default: [:]][target, default: 0] += weight }
        }
        return (activities, targets)
    }

    /// `offers` as the sheet shows them: pinned ones first, as always, then the most chosen
    /// for `family`, then the rest in their order; each activity's targets likewise.
    public func ranked(_ offers: [Offer], targets: [String: [ActivityTarget]], for family: Family, pins: [String],
                       now: Int64) -> (offers: [Offer], targets: [String: [ActivityTarget]]) {
        let (activityScores, targetScores) = scores(for: family, now: now)
        // What was used last for any kind of item does not count here: what was chosen
        // for this kind does.
        let offers = Router.order(offers, pins: pins, recents: [])
        func rank(_ offer: Offer) -> Double {
            pins.contains(offer.type) ? .infinity : activityScores[offer.type] ?? 0
        }
        // Sorted stably: equal scores keep the offer order.
        let order = offers.enumerated().sorted { left, right in
            let (l, r) = (rank(left.element), rank(right.element))
            if let pin = pins.firstIndex(of: left.element.type), let other = pins.firstIndex(of: right.element.type) { return pin < other }
            return l != r ? l > r : left.offset < right.offset
        }.map(\.element)
        var rankedTargets: [String: [ActivityTarget]] = [:]
        for (type, offered) in targets {
            let scores = targetScores[type] ?? [:]
            rankedTargets[type] = offered.enumerated().sorted { left, right in
                let (l, r) = (scores[left.element.id] ?? 0, scores[right.element.id] ?? 0)
                return l != r ? l > r : left.offset < right.offset
            }.map(\.element)
        }
        return (order, rankedTargets)
    }

    /// Appends `choice` to the file; past ``limit`` lines, the file is written anew with
    /// the newest ones. Through a descriptor opened without following a link.
    public mutating func record(_ choice: Choice) throws {
        try FileSystem.createDirectories(FileSystem.directoryName(file))
        choices.append(choice)
        if choices.count > Self.limit {
            choices.removeFirst(choices.count - Self.limit)
            try FileSystem.writeAtomically(choices.flatMap { Self.encode($0) }, to: file, mode: 0o600)
            return
        }
        let fd = PathName.withCString(file) { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600) }
        guard fd >= 0 else { throw FileSystem.ioError("cannot write \(file)", errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ActShareError(.io, "\(file) is not a regular file")
        }
        guard FileSystem.writeAll(Self.encode(choice), to: fd) else { throw FileSystem.ioError("cannot write \(file)", errno) }
    }

    /// Deletes the file: whether there was one.
    @discardableResult
    public func forget() throws -> Bool {
        try FileSystem.removeFile(file)
    }

    // MARK: Lines

    /// `{"time":…,"family":"…","activity":"…","target":…}` and a line feed.
    static func encode(_ choice: Choice) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("time", .number(UInt64(max(0, choice.time))))
        writer.member("family", .string(choice.family.rawValue))
        writer.member("activity", .string(choice.activity))
        writer.member("target", .string(choice.target))
        writer.endObject()
        return writer.bytes + [0x0A]
    }

    /// A line's choice, or nil when it is not one: not a JSON object of these members, an
    /// unknown family, an activity that is not a reverse-DNS type, a target id that is too
    /// long or holds a control character.
    static func decode(_ line: [UInt8]) -> Choice? {
        guard let members = JSONObjectLine.members(line), case .number(let time)? = members["time"],
              case .string(let familyName)? = members["family"], let family = Family(rawValue: familyName),
              case .string(let activity)? = members["activity"], ReverseDNS.isValid(activity)
        else { return nil }
        var target: String?
        switch members["target"] {
        case .string(let id)?:
            guard !id.isEmpty, id.utf8.count <= 128, !id.unicodeScalars.contains(where: TerminalText.isControl) else { return nil }
            target = id
        case .null?, nil: target = nil
        default: return nil
        }
        return Choice(time: time, family: family, activity: activity, target: target)
    }
}
