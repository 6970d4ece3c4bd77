import Foundation
import Testing

@testable import ActShareCore

/// actshare reads shared-mime-info's caches itself; GIO is the reference it must agree
/// with. Each test types thousands of files both ways: actshare's `ContentType.of` and
/// one `gio info` over all of them.
@Suite struct MimeDatabaseTests {
    /// Every glob of the system's database as a file name (and upper-cased), each with
    /// text, PNG and binary contents: names alone, names that conflict and are decided by
    /// the bytes, globs that are case-sensitive, fnmatch patterns.
    @Test func everyGlobIsTypedAsGioTypesIt() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        let globs = try String(contentsOfFile: "/usr/share/mime/globs2", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ":", omittingEmptySubsequences: false).dropFirst(2).first }
        #expect(globs.count > 500, "shared-mime-info's globs2 lists \(globs.count) globs")
        var names = Set<String>()
        for (index, glob) in globs.enumerated() {
            let name = Self.fileName(matching: String(glob))
            guard !name.isEmpty, !name.contains("/") else { continue }
            names.insert(name)
            if index % 3 == 0 { names.insert(name.uppercased()) }
        }
        let contents: [(String, [UInt8])] = [
            ("text", Array("hello, world\n".utf8)),
            ("png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
            ("binary", [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3E, 0]),
        ]
        var paths: [String] = []
        for (folder, bytes) in contents {
            try FileManager.default.createDirectory(atPath: "\(directory)/\(folder)", withIntermediateDirectories: false)
            for name in names.sorted() {
                let path = "\(directory)/\(folder)/\(name)"
                if FileManager.default.createFile(atPath: path, contents: Data(bytes)) { paths.append(path) }
            }
        }
        try Self.expectAgreement(paths)
    }

    /// The first 4 KiB of real files under /usr, once under their own name and once under
    /// a name without an extension, so that the magic rules decide.
    @Test func realFilesAndTheirBytesAreTypedAsGioTypesThem() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        var sources: [String] = []
        for root in ["/usr/share", "/usr/lib/x86_64-linux-gnu", "/usr/bin"] {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            var seen = 0
            while let relative = walker.nextObject() as? String, sources.count < 6000 {
                seen += 1
                // Every 11th file, so that many kinds are reached without reading them all.
                guard seen % 11 == 0 else { continue }
                let path = "\(root)/\(relative)"
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { continue }
                sources.append(path)
            }
        }
        #expect(sources.count > 1000)
        var paths: [String] = []
        for (index, source) in sources.enumerated() {
            guard let handle = FileHandle(forReadingAtPath: source) else { continue }
            let head = handle.readData(ofLength: 4096)
            try? handle.close()
            let name = (source as NSString).lastPathComponent
            for copy in ["\(directory)/\(index)-\(name)", "\(directory)/\(index)-unnamed"] {
                if FileManager.default.createFile(atPath: copy, contents: head) { paths.append(copy) }
            }
        }
        try Self.expectAgreement(paths)
    }

    /// A type the user installed (`~/.local/share/mime`, by update-mime-database) is read
    /// before the system's, glob and magic alike, as GIO reads it.
    /// Bytes with each control character GIO allows in text, and with one it does not,
    /// typed as `gio info` types them.
    @Test func controlCharactersDecideTextAsGioDecides() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        var paths: [String] = []
        for byte: UInt8 in [8, 9, 10, 11, 12, 13, 27, 127] {
            let path = "\(directory)/control-\(byte)"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(Array("hello".utf8) + [byte] + Array("world\n".utf8))))
            paths.append(path)
        }
        try Self.expectAgreement(paths)
    }

    @Test func theUsersOwnDatabaseComesFirst() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.cleanUp(directory) }
        try Fixtures.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
              <mime-type type="application/x-actshare-test">
                <comment>actshare test</comment>
                <sub-class-of type="text/plain"/>
                <glob pattern="*.actsharetest"/>
                <glob pattern="*.txt" weight="90"/>
                <magic priority="90"><match type="string" offset="0" value="ACTSHARE-TEST"/></magic>
              </mime-type>
            </mime-info>
            """, to: "\(directory)/data/mime/packages/actshare-test.xml")
        let update = try ChildProcess.run("/usr/bin/update-mime-database", ["\(directory)/data/mime"])
        #expect(update.status == 0, "update-mime-database exited with \(update.status)")
        var paths: [String] = []
        for (name, text) in [("a.actsharetest", "x"), ("b.txt", "x"), ("unnamed", "ACTSHARE-TEST and more"), ("c.py", "ACTSHARE-TEST")] {
            let path = "\(directory)/\(name)"
            try Fixtures.write(text, to: path)
            paths.append(path)
        }
        let database = MimeDatabase(dataDirectories: ["\(directory)/data", "/usr/share"])
        let ours = paths.map { path in
            let name = Array((path as NSString).lastPathComponent.utf8)
            let guess = database.guess(name: name, data: nil)
            return guess.uncertain ? database.guess(name: name, data: Array(FileManager.default.contents(atPath: path)!)).type : guess.type
        }
        #expect(ours == ["application/x-actshare-test", "application/x-actshare-test", "application/x-actshare-test", "application/x-actshare-test"])
        #expect(database.isSubclass("application/x-actshare-test", of: "text/plain"))
        #expect(try Self.gioTypes(paths, dataHome: "\(directory)/data") == ours)
    }

    /// A cache cut short or with bytes changed anywhere answers (any answer), and does
    /// not trap or run away: each corrupt copy types a few names and some bytes.
    @Test func aCorruptCacheNeitherTrapsNorLoops() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/mime/mime.cache")))
        var random = SystemRandomNumberGenerator()
        var corrupt: [[UInt8]] = stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)).map { Array(bytes.prefix($0)) }
        for _ in 0..<300 {
            var copy = bytes
            for _ in 0..<8 { copy[Int.random(in: 40..<copy.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            // Offsets in the header pointed anywhere, including at the header itself.
            let field = Int.random(in: 1..<10, using: &random) * 4
            copy.replaceSubrange(field..<field + 4, with: (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) })
            corrupt.append(copy)
        }
        let data = Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0x41, count: 300)
        for copy in corrupt {
            guard let cache = MimeCache(bytes: copy) else { continue }
            let database = MimeDatabase(caches: [cache])
            for name in ["x.tar.gz", "Makefile", "README", "libx.so.1", "x.PY", "unnamed"] {
                _ = database.guess(name: Array(name.utf8), data: data)
            }
            _ = database.isSubclass("text/x-python", of: "application/x-executable")
        }
        // The intact cache still reads.
        let database = MimeDatabase(caches: [try #require(MimeCache(bytes: bytes))])
        #expect(database.guess(name: Array("x.tar.gz".utf8), data: nil).type == "application/x-compressed-tar")
        #expect(database.guess(name: nil, data: data).type == "application/pdf")
    }

    // MARK: Helpers

    /// A name `glob` matches: `*` as `name`, a class as its first member, `?` as `q`.
    static func fileName(matching glob: String) -> String {
        var name = ""
        var characters = glob.makeIterator()
        while let character = characters.next() {
            switch character {
            case "*": name += "name"
            case "?": name += "q"
            case "[":
                var first: Character?
                while let member = characters.next(), member != "]" { if first == nil { first = member } }
                if let first { name.append(first) }
            default: name.append(character)
            }
        }
        return name
    }

    /// The system's database alone, as `gioTypes` has GIO read it.
    static let systemDatabase = MimeDatabase(dataDirectories: ["/usr/share"])

    /// Each path's type by actshare and by `gio info`, compared; the differences listed.
    static func expectAgreement(_ paths: [String]) throws {
        let gio = try gioTypes(paths)
        try #require(gio.count == paths.count, "gio info typed \(gio.count) of \(paths.count) files")
        var differences: [String] = []
        for (path, gioType) in zip(paths, gio) {
            let status = try #require(FileSystem.status(path))
            let ours = ContentType.of(path: path, status: status, database: systemDatabase)
            if ours != gioType { differences.append("\((path as NSString).lastPathComponent): actshare \(ours), gio \(gioType)") }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(paths.count) differ:\n\(differences.prefix(40).joined(separator: "\n"))")
    }

    /// `gio info -a standard::content-type` over all of `paths` at once (in batches, to
    /// stay within the argument list's limit), the types in order.
    static func gioTypes(_ paths: [String], dataHome: String? = nil) throws -> [String] {
        var types: [String] = []
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome ?? "/nonexistent"
        environment["XDG_DATA_DIRS"] = "/usr/share"
        for start in stride(from: 0, to: paths.count, by: 1000) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/gio")
            process.arguments = ["info", "-a", "standard::content-type"] + paths[start..<min(start + 1000, paths.count)]
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            for line in output.split(separator: "\n") where line.hasPrefix("  standard::content-type: ") {
                types.append(String(line.dropFirst("  standard::content-type: ".count)))
            }
        }
        return types
    }
}
