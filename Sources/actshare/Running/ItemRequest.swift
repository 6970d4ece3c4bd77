import ActShareCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What a program shares, read from a descriptor (`--items-from FD`) rather than the
/// command line, where every local user could read it (`ps`): how the D-Bus service hands
/// over a caller's items. One JSON object:
///
///     {"items": [{"path": "/home/u/a.pdf"}, {"url": "https://…"}, {"text": "…", "type": "text/html"}],
///      "subject": "…", "options": {"to": "…"}, "target": "…"}
///
/// `type` is optional (found from the text otherwise); `subject`, `options` and `target` (for
/// `--target`) too. A path
/// may carry the `device` and `inode` of the file its sender checked (the D-Bus service
/// does): it is shared only if the path still names that file, so a path swapped for a
/// link after the check is refused, not followed. The
/// items come after any on the command line; the subject and options stand for `--subject`
/// and `-o` (an option given both ways is the request's).
struct ItemRequest: Decodable {
    struct Entry: Decodable {
        var path: String?
        var url: String?
        var text: String?
        var type: String?
        var device: UInt64?
        var inode: UInt64?
    }

    var items: [Entry]
    var subject: String?
    var options: [String: String]?
    var target: String?

    /// The most a request may hold: text, names and all.
    static let limit = 64 << 20

    /// Reads and decodes the request on `fd`, to its end.
    static func read(from fd: Int32) throws -> ItemRequest {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readToEnd(fd, limit: limit)
        } catch .tooLarge {
            throw CommandFailure(.badInput, "--items-from \(fd): more than \(limit >> 20) MiB")
        } catch .failed(let code) {
            throw CommandFailure(.badInput, "--items-from \(fd): cannot read it: \(String(cString: strerror(code)))")
        }
        do {
            return try JSONDecoder().decode(ItemRequest.self, from: Data(bytes))
        } catch {
            throw CommandFailure(.badInput, "--items-from \(fd): not a request of items (docs/CLI.md): \(error)")
        }
    }

    /// The items, each checked as the command line's are.
    func sharedItems() throws -> [Item] {
        let reader = ItemReader()
        return try items.enumerated().map { index, entry throws -> Item in
            switch (entry.path, entry.url, entry.text) {
            case (let path?, nil, nil):
                guard path.hasPrefix("/") else { throw ActShareError(.badInput, "item \(index + 1): a path must be absolute, not '\(path)'") }
                guard entry.device != nil || entry.inode != nil else { return try reader.item(for: path) }
                // Named through no link, and still the file checked: what the sandbox grants too.
                var info = stat()
                guard FileSystem.resolved(path) == path, PathName.withCString(path, { lstat($0, &info) }) == 0,
                      UInt64(info.st_dev) == entry.device, UInt64(info.st_ino) == entry.inode
                else { throw ActShareError(.badInput, "item \(index + 1): \(PathName.display(path)) is no longer the file that was shared (it was replaced)") }
                var item = try reader.item(for: path)
                item.pinned = true
                return item
            case (nil, let url?, nil):
                guard URLScheme.of(url) != nil else { throw ActShareError(.badInput, "item \(index + 1): '\(url)' is not a URL") }
                return try reader.item(for: url)
            case (nil, nil, let text?):
                return try reader.text(text, type: entry.type)
            default:
                throw ActShareError(.badInput, "item \(index + 1) must have one of path, url and text")
            }
        }
    }

    /// The subject and options merged into the command's.
    func apply(to options: inout ActivitySelection) {
        if let subject { options.subject = subject }
        if let target { options.target = target }
        for (name, value) in (self.options ?? [:]).sorted(by: { $0.key < $1.key }) { options.options.append("\(name)=\(value)") }
    }
}
