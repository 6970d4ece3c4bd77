import Foundation
import Testing
import CActShareProtocol
@testable import ActShareCore
@testable import ActShareHost

/// What a helper's sandbox allows, from a manifest's permissions, the items and options.
@Suite struct SandboxPolicyTests {
    let root = NSTemporaryDirectory() + "actshare-policy-\(UUID().uuidString)"

    func manifest(_ permissions: ProviderPermissions) -> ProviderManifest {
        ProviderManifest(
            file: "/providers/x/provider.yaml", id: "org.example.x", name: "X", version: "1", library: "/providers/x/libx.so",
            libraryLocation: SourceLocation(file: "/providers/x/provider.yaml", line: 5, column: 10), isolation: .process,
            timeoutMilliseconds: 1000, permissions: permissions, activities: [])
    }

    func policy(_ permissions: ProviderPermissions, items: [String] = [], options: [(name: String, value: String)] = []) -> SandboxPolicy {
        let request = ActivityRequest(
            activityType: "org.example.x.go", items: items.map { Item(kind: .file, path: $0, contentType: "text/plain", size: 1) },
            options: options)
        return SandboxPolicy(manifest: manifest(permissions), request: request, privateDirectory: "/tmp/actshare-provider-test",
                             limits: SandboxLimits(), home: "/home/u", xdg: .fromEnvironment())
    }

    func rights(_ policy: SandboxPolicy, _ path: String) -> UInt8? {
        policy.rules.first { $0.path == path }?.rights
    }

    let read = UInt8(ASP_RIGHT_READ), write = UInt8(ASP_RIGHT_WRITE), execute = UInt8(ASP_RIGHT_EXEC)

    @Test func byDefaultTheItemsTheSystemAndAPrivateDirectory() {
        let policy = policy(.standard, items: ["/home/u/a.txt", "/data/b.txt"])
        #expect(rights(policy, "/home/u/a.txt") == read)
        #expect(rights(policy, "/data/b.txt") == read)
        #expect(rights(policy, "/usr") == read)
        #expect(rights(policy, "/providers/x") == read)
        #expect(rights(policy, "/tmp/actshare-provider-test") == read | write)
        #expect(rights(policy, "/dev/null") == read | write)
        #expect(rights(policy, "/home/u") == nil)
        #expect(!policy.network && !policy.exec)
    }

    @Test func outputIsTheFolderAnOptionNames() throws {
        try FileManager.default.createDirectory(atPath: "\(root)/out", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let permissions = ProviderPermissions(write: [.output], outputOptions: ["dir", "file", "spool"])
        let policy = policy(permissions, options: [("dir", "\(root)/out"), ("file", "\(root)/pdfs/new.pdf"), ("spool", "maildir:~/Mail")])
        #expect(rights(policy, "\(root)/out") == read | write, "a folder: itself")
        #expect(rights(policy, "\(root)/pdfs") == read | write, "a file: its folder")
        #expect(rights(policy, "/home/u") == read | write, "maildir: set aside, ~ expanded; ~/Mail does not exist: its folder")
        #expect(SandboxPolicy.outputFolder("/a/../etc/passwd", home: "/home/u") == nil)
        #expect(SandboxPolicy.outputFolder("relative/x", home: "/home/u") == nil)
    }

    @Test func execAndNetworkAndTheFrame() {
        let policy = policy(ProviderPermissions(read: [.path("~/bin")], network: true, exec: true))
        #expect(rights(policy, "/home/u/bin") == read | execute)
        #expect(rights(policy, "/usr") == read | execute)
        #expect(rights(policy, "/tmp/actshare-provider-test") == read | write, "nothing runs from the private directory")
        let frame = policy.frame
        #expect(frame.kind == .sandbox)
        #expect(frame.payload[0] == UInt8(ASP_SANDBOX_NETWORK | ASP_SANDBOX_EXEC))
        #expect(Array(frame.payload[1..<5]) == withUnsafeBytes(of: UInt32(policy.rules.count).littleEndian, Array.init))
        // The limits close the frame: memory, file size, open files, processes.
        #expect(Array(frame.payload.suffix(4)) == withUnsafeBytes(of: UInt32(64).littleEndian, Array.init))
    }
}
