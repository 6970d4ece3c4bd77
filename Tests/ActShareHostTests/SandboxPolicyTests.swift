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

    /// A system folder that is a link into `/usr` (a merged `/usr`, as on Debian 12) gets
    /// no rule of its own: `/usr`'s covers it, as Landlock follows the link.
    @Test func aSystemFolderLinkedIntoUsrHasNoRuleOfItsOwn() throws {
        let policy = policy(.standard)
        #expect(rights(policy, "/usr") == read)
        for folder in ["/bin", "/sbin", "/lib", "/lib64"] {
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder)
            if let target, target.hasPrefix("usr/") || target.hasPrefix("/usr/") {
                #expect(rights(policy, folder) == nil, "\(folder) -> \(target)")
            } else if FileManager.default.fileExists(atPath: folder) {
                #expect(rights(policy, folder) == read, "\(folder)")
            }
        }
    }

    @Test func outputIsTheFolderAnOptionNames() throws {
        try FileManager.default.createDirectory(atPath: "\(root)/out", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let permissions = ProviderPermissions(write: [.output], outputOptions: ["dir", "file", "spool"])
        let policy = policy(permissions, options: [("dir", "\(root)/out"), ("file", "\(root)/pdfs/new.pdf"), ("spool", "maildir:~/Mail")])
        #expect(rights(policy, "\(root)/out") == read | write, "a folder: itself")
        #expect(rights(policy, "\(root)/pdfs") == read | write, "a file: its folder")
        // maildir: set aside, ~ expanded; ~/Mail does not exist, and its folder is the home
        // folder: the one name alone, made before the helper starts, never the home folder.
        #expect(rights(policy, "/home/u") == nil)
        #expect(rights(policy, "/home/u/Mail") == read | write)
        #expect(policy.outputFiles == ["/home/u/Mail"])
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
        // The limits come next: memory, file size, open files, processes, temporary files;
        // then no Unix socket.
        #expect(Array(frame.payload.suffix(16).prefix(4)) == withUnsafeBytes(of: UInt32(64).littleEndian, Array.init))
        #expect(Array(frame.payload.suffix(12).prefix(8)) == withUnsafeBytes(of: UInt64(512 << 20).littleEndian, Array.init))
        #expect(Array(frame.payload.suffix(4)) == [0, 0, 0, 0])
    }

    /// `display: true` grants this session's X11 socket (path and abstract), its Wayland
    /// socket and the X authority file; `dbus: session` the bus's address; nothing else.
    @Test func displayAndBusSockets() {
        let session: [String: String] = [
            "DISPLAY": ":7.0", "WAYLAND_DISPLAY": "wayland-3", "XAUTHORITY": "/run/user/1000/xauth",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/b%75s,guid=1;unix:abstract=/tmp/dbus-x;tcp:host=h",
        ]
        let display = SessionSockets(display: true, dbus: false, home: "/home/u", runtimeDirectory: "/run/user/1000") { session[$0] }
        #expect(display.addresses == [Array("/tmp/.X11-unix/X7".utf8), [0] + Array("/tmp/.X11-unix/X7".utf8), Array("/run/user/1000/wayland-3".utf8)])
        #expect(display.readableFiles == ["/run/user/1000/xauth"])
        let bus = SessionSockets(display: false, dbus: true, home: "/home/u", runtimeDirectory: "/run/user/1000") { session[$0] }
        #expect(bus.addresses == [Array("/run/user/1000/bus".utf8), [0] + Array("/tmp/dbus-x".utf8)])
        #expect(SessionSockets.sessionBus(nil, runtimeDirectory: "/run/user/5") == [Array("/run/user/5/bus".utf8)])
        #expect(SessionSockets.x11("otherhost:0").isEmpty, "a remote display is TCP: network, not a socket")
        #expect(SessionSockets.x11(":0;rm").isEmpty)
        #expect(SessionSockets.wayland("../bus", runtimeDirectory: "/run/user/1000") == nil)
        let none = SessionSockets(display: false, dbus: false, home: "/home/u", runtimeDirectory: "/run/user/1000") { session[$0] }
        #expect(none.addresses.isEmpty && none.readableFiles.isEmpty)
    }
}
