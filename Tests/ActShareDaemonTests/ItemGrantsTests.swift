import Foundation
import Testing

@testable import ActShareDaemon

#if canImport(Glibc)
import Glibc
#endif

/// What a sandboxed provider's restricted connection may send: its items, found from the
/// descriptors opened when actshare named them, never through a link.
@Suite struct ItemGrantsTests {
    /// A folder with `secret.txt` beside an item folder `item/` holding `a.txt`.
    static func layout() throws -> String {
        let root = "/tmp/actshare-grants-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: "\(root)/item", withIntermediateDirectories: true)
        try "top secret\n".write(toFile: "\(root)/secret.txt", atomically: false, encoding: .utf8)
        try "shared\n".write(toFile: "\(root)/item/a.txt", atomically: false, encoding: .utf8)
        return root
    }

    @Test func aLinkPlacedInAnItemFolderIsNotFollowed() throws {
        let root = try Self.layout()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let grants = ItemGrants(paths: ["\(root)/item"])
        try FileManager.default.createSymbolicLink(atPath: "\(root)/item/key", withDestinationPath: "\(root)/secret.txt")
        #expect(throws: HandoffError.self) { try LocalTree(paths: ["\(root)/item/key"], grants: grants) }
        // Nor a folder of the item that became a link to the secret's folder.
        try FileManager.default.createDirectory(atPath: "\(root)/item/sub", withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: "\(root)/item/sub")
        try FileManager.default.createSymbolicLink(atPath: "\(root)/item/sub", withDestinationPath: root)
        #expect(throws: HandoffError.self) { try LocalTree(paths: ["\(root)/item/sub/secret.txt"], grants: grants) }
        // Outside every item: refused, whatever the text says.
        #expect(throws: HandoffError.self) { try LocalTree(paths: ["\(root)/secret.txt"], grants: grants) }
        // What is the item's, and not a link, goes.
        let tree = try LocalTree(paths: ["\(root)/item/a.txt"], grants: grants)
        #expect(tree.items.map(\.entry.path) == ["a.txt"])
        // Without grants (the user's own send), a link the user names is followed, as cp does.
        #expect(try LocalTree(paths: ["\(root)/item/key"]).items.first?.entry.size == 11)
    }

    @Test func anItemSwappedForALinkAfterTheCheckSendsNothingOfTheLinksTarget() throws {
        let root = try Self.layout()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let item = "\(root)/item/a.txt"
        let grants = ItemGrants(paths: [item])
        var original = stat()
        #expect(stat(item, &original) == 0)
        // Swapped after actshare named it: the grant still holds the file that was named.
        try FileManager.default.removeItem(atPath: item)
        try FileManager.default.createSymbolicLink(atPath: item, withDestinationPath: "\(root)/secret.txt")
        let tree = try LocalTree(paths: [item], grants: grants)
        let listed = try #require(tree.items.first)
        #expect(listed.identity.inode == UInt64(original.st_ino) && listed.entry.size == 7, "the item actshare named, not the secret")
        // Read when its turn comes: it is a link now, and the send stops.
        #expect(throws: HandoffError.self) { _ = try listed.openListedFile() }
    }
}
