import Foundation
import Testing
@testable import ActShareCore
@testable import ActShareHost

/// A helper started ahead of the first call (``HelperTransport/prestart(_:)``), against the
/// real `actshare-provider-host` and the Hello example's library: kept when its sandbox fits
/// the request, replaced when it does not, never for a provider that may hand off, and a
/// failure left to the call.
@Suite struct HelperTransportTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let helper = "\(repository)/.build/bin/actshare-provider-host"
    static let library = "\(repository)/.build/providers/libhello.so"

    /// Builds the helper and the C providers once (cheap when they are up to date).
    static let built: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(repository)/scripts/build-plugins")
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// The cancelled flag of every transport here: never set.
    nonisolated(unsafe) static let notCancelled: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.pointee = 0
        return flag
    }()

    let root = NSTemporaryDirectory() + "actshare-transport-\(UUID().uuidString)"
    let location = SourceLocation(file: "\(repository)/Plugins/Examples/Hello/provider.yaml", line: 1, column: 1)
    var canPerform: HookDeclaration { .standard(.canPerform, symbol: "hello_can_perform", at: location) }

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func transport(helper: String = Self.helper, permissions: ProviderPermissions = .standard) throws -> HelperTransport {
        try #require(Self.built, "scripts/build-plugins failed")
        let manifest = ProviderManifest(
            file: location.file, id: "org.example.hello", name: "Hello", version: "1", library: Self.library,
            libraryLocation: location, isolation: .process, timeoutMilliseconds: 5000, permissions: permissions, activities: [])
        return HelperTransport(
            manifest: manifest, helper: helper, limits: HookLimits(timeoutMilliseconds: 5000, idleMilliseconds: 5000),
            sandbox: SandboxSettings(), cancelled: Self.notCancelled, trace: nil)
    }

    /// A request for one file, as located before typing (`typed: false`) or as read.
    func request(_ name: String, typed: Bool = true) throws -> ActivityRequest {
        let path = "\(root)/\(name)"
        try "words\n".write(toFile: path, atomically: true, encoding: .utf8)
        let item = Item(kind: .file, path: path, contentType: typed ? "text/plain" : ContentType.octetStream, size: 6)
        return ActivityRequest(activityType: "org.example.hello.greet", items: [item], options: [])
    }

    @Test func aHelperStartedAheadIsTheOneCalled() throws {
        let transport = try transport()
        transport.prestart(try request("a.txt", typed: false))
        let ahead = try #require(transport.temporaryDirectory, "no helper was started ahead")
        #expect(FileManager.default.fileExists(atPath: ahead.path))

        let typed = try request("a.txt")
        #expect(try transport.load(symbols: ["hello_can_perform"], request: typed).isEmpty)
        #expect(transport.temporaryDirectory?.path == ahead.path, "the helper started ahead was replaced")
        try transport.begin(typed)
        #expect(try transport.call(canPerform, item: -1) { _ in true }.raw == 1)
    }

    @Test func aHelperSandboxedAheadForOtherItemsIsReplaced() throws {
        let transport = try transport()
        transport.prestart(try request("a.txt", typed: false))
        let ahead = try #require(transport.temporaryDirectory)

        // Another file: the sandbox started ahead does not allow it, and cannot be widened.
        let other = try request("b.txt")
        #expect(try transport.load(symbols: ["hello_can_perform"], request: other).isEmpty)
        let replaced = try #require(transport.temporaryDirectory)
        #expect(replaced.path != ahead.path)
        #expect(!FileManager.default.fileExists(atPath: ahead.path), "the first helper's private folder is left")
        try transport.begin(other)
        #expect(try transport.call(canPerform, item: -1) { _ in true }.raw == 1)
    }

    @Test func aProviderThatMayHandOffIsNotStartedAhead() throws {
        let transport = try transport(permissions: ProviderPermissions(handoff: true))
        transport.prestart(try request("a.txt", typed: false))
        #expect(transport.temporaryDirectory == nil)
    }

    @Test func aHelperThatCannotStartAheadIsReportedByTheFirstCall() throws {
        let transport = try transport(helper: "\(root)/no-such-helper")
        let request = try request("a.txt")
        transport.prestart(request)
        #expect(transport.temporaryDirectory == nil)
        do {
            _ = try transport.load(symbols: ["hello_can_perform"], request: request)
            Issue.record("a missing helper loaded a library")
        } catch let error as ActShareError {
            #expect(error.description.contains("cannot start \(root)/no-such-helper: No such file or directory"), "\(error)")
        }
    }
}
