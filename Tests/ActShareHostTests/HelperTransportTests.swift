import Foundation
import Testing
import CActShareProtocol
@testable import ActShareCore
@testable import ActShareHost

/// A helper started ahead of the first call (``HelperTransport/prestart(_:concurrently:)``), against the
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
        process.executableURL = URL(fileURLWithPath: "\(repository)/scripts/build")
        process.arguments = ["uninstalled"]
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// The cancelled flag of this test's transports: never set (4 bytes a test, not freed:
    /// a transport may outlive the test's last line).
    let notCancelled: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()

    let root = NSTemporaryDirectory() + "actshare-transport-\(UUID().uuidString)"
    let location = SourceLocation(file: "\(repository)/Providers/Examples/Hello/provider.yaml", line: 1, column: 1)
    var canPerform: HookDeclaration { .standard(.canPerform, symbol: "hello_can_perform", at: location) }

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func transport(helper: String = Self.helper, permissions: ProviderPermissions = .standard, library: String = Self.library) throws -> HelperTransport {
        try #require(Self.built, "scripts/build uninstalled failed")
        let manifest = ProviderManifest(
            file: location.file, id: "org.example.hello", name: "Hello", version: "1", library: library,
            libraryLocation: location, isolation: .process, timeoutMilliseconds: 5000, permissions: permissions, activities: [])
        return HelperTransport(
            manifest: manifest, helper: helper, limits: HookLimits(timeoutMilliseconds: 5000, idleMilliseconds: 5000),
            sandbox: SandboxSettings(), cancelled: notCancelled, trace: nil)
    }

    /// A request for one file, as located before typing (`typed: false`) or as read.
    func request(_ name: String, typed: Bool = true) throws -> ActivityRequest {
        let path = "\(root)/\(name)"
        try "words\n".write(toFile: path, atomically: true, encoding: .utf8)
        let item = Item(kind: .file, path: path, contentType: typed ? "text/plain" : ContentType.octetStream, size: 6)
        return ActivityRequest(activityType: "org.example.hello.greet", items: [item], options: [])
    }

    /// Alone (actshare waits for its exec) and as one of several (it does not).
    @Test(arguments: [false, true]) func aHelperStartedAheadIsTheOneCalled(concurrently: Bool) throws {
        let transport = try transport()
        transport.prestart(try request("a.txt", typed: false), concurrently: concurrently)
        let ahead = try #require(transport.helperProcess, "no helper was started ahead")

        let typed = try request("a.txt")
        #expect(try transport.load(symbols: ["hello_can_perform"], request: typed, phase: .checking, answerLater: false) == [])
        #expect(transport.helperProcess == ahead, "the helper started ahead was replaced")
        try transport.begin(typed, phase: .checking)
        #expect(try transport.call(canPerform, item: -1) { _ in true }.raw == 1)
    }

    @Test func aHelperSandboxedAheadForOtherItemsIsReplaced() throws {
        let transport = try transport()
        transport.prestart(try request("a.txt", typed: false), concurrently: false)
        let ahead = try #require(transport.helperProcess)

        // Another file: the sandbox started ahead does not allow it, and cannot be widened.
        let other = try request("b.txt")
        #expect(try transport.load(symbols: ["hello_can_perform"], request: other, phase: .checking, answerLater: false) == [])
        let replaced = try #require(transport.helperProcess)
        #expect(replaced != ahead)
        #expect(kill(ahead, 0) != 0, "the first helper still runs")
        try transport.begin(other, phase: .checking)
        #expect(try transport.call(canPerform, item: -1) { _ in true }.raw == 1)
    }

    /// can-perform hooks run with no private TMPDIR (nothing for them to write); prepare and
    /// perform get one, in a helper of their own.
    @Test func aHelperForCanPerformHasNoPrivateFolderAndPerformGetsAnother() throws {
        let transport = try transport()
        let typed = try request("a.txt")
        #expect(try transport.load(symbols: ["hello_can_perform"], request: typed, phase: .checking, answerLater: false) == [])
        let checking = try #require(transport.helperProcess)
        #expect(transport.temporaryDirectory == nil)
        try transport.begin(typed, phase: .checking)
        #expect(try transport.call(canPerform, item: -1) { _ in true }.raw == 1)

        try transport.begin(typed, phase: .acting)
        let acting = try #require(transport.helperProcess)
        #expect(acting != checking, "perform ran in the helper sandboxed for can-perform")
        let folder = try #require(transport.temporaryDirectory, "the helper for perform has no private folder")
        #expect(FileManager.default.fileExists(atPath: folder.path))
        #expect(try transport.call(canPerform, item: -1) { _ in true }.raw == 1)
    }

    /// A load whose answer is left to the first call (one round trip, not two): the call
    /// answers, and the symbols the library lacks are known after it.
    @Test func aLoadAnsweredWithTheFirstCallTellsTheMissingSymbolsAfterIt() throws {
        let transport = try transport()
        let typed = try request("a.txt")
        #expect(try transport.load(symbols: ["hello_can_perform", "no_such_hook"], request: typed, phase: .checking, answerLater: true) == nil)
        #expect(transport.missingSymbols == nil)
        try transport.begin(typed, phase: .checking)
        #expect(try transport.call(canPerform, item: -1) { _ in true }.raw == 1)
        #expect(transport.missingSymbols == ["no_such_hook"])
    }

    /// A library that cannot be loaded, its answer left to the first call: that call fails
    /// with the load's reason, and so does every later one.
    @Test func aLoadThatFailsWithTheFirstCallIsThatCallsFailure() throws {
        let transport = try transport(library: "\(root)/not-a-library.so")
        try "not a library\n".write(toFile: "\(root)/not-a-library.so", atomically: true, encoding: .utf8)
        let typed = try request("a.txt")
        #expect(try transport.load(symbols: ["hello_can_perform"], request: typed, phase: .checking, answerLater: true) == nil)
        for _ in 0..<2 {
            do {
                try transport.begin(typed, phase: .checking)
                _ = try transport.call(canPerform, item: -1) { _ in true }
                Issue.record("a library that cannot be loaded answered")
            } catch let error as ActShareError {
                #expect(error.description.contains("cannot load library \(root)/not-a-library.so"), "\(error)")
            }
        }
    }

    /// perform's helper, started while can-perform runs, is the one perform uses when its
    /// sandbox fits the perform's request, and is stopped when it does not.
    @Test func aSpareHelperForPerformIsTakenOnlyWhenItsSandboxFits() throws {
        let transport = try transport()
        let typed = try request("a.txt")
        #expect(try transport.load(symbols: ["hello_can_perform"], request: typed, phase: .checking, answerLater: false) == [])
        transport.prestartActing(typed)
        let spare = try #require(transport.spareProcess, "no spare helper was started")
        try transport.begin(typed, phase: .checking)
        #expect(try transport.call(canPerform, item: -1) { _ in true }.raw == 1)
        try transport.begin(typed, phase: .acting)
        #expect(transport.helperProcess == spare, "perform did not take the spare helper")
        #expect(transport.temporaryDirectory.map { FileManager.default.fileExists(atPath: $0.path) } == true)
        #expect(try transport.call(canPerform, item: -1) { _ in true }.raw == 1)

        // A spare sandboxed for another file than the perform's: stopped, and another started.
        let other = try self.transport()
        #expect(try other.load(symbols: ["hello_can_perform"], request: typed, phase: .checking, answerLater: false) == [])
        other.prestartActing(typed)
        let unfit = try #require(other.spareProcess)
        let elsewhere = try request("b.txt")
        try other.begin(elsewhere, phase: .acting)
        #expect(other.helperProcess != unfit && other.helperProcess != nil)
        #expect(kill(unfit, 0) != 0, "the spare that did not fit still runs")
        #expect(try other.call(canPerform, item: -1) { _ in true }.raw == 1)
    }

    /// A helper started without its guard (`--threads-only`, for can-perform hooks)
    /// refuses a sandbox that lets its provider start processes or gives it a private
    /// folder: nothing would contain the processes, or remove the folder.
    @Test func aHelperWithoutItsGuardRefusesASandboxThatNeedsOne() throws {
        try #require(Self.built, "scripts/build uninstalled failed")
        let typed = try request("a.txt")
        for (permissions, folder) in [(ProviderPermissions(exec: true), nil), (ProviderPermissions.standard, "\(root)/private")] {
            let manifest = ProviderManifest(
                file: location.file, id: "org.example.hello", name: "Hello", version: "1", library: Self.library,
                libraryLocation: location, isolation: .process, timeoutMilliseconds: 5000, permissions: permissions, activities: [])
            let helper = try ProviderProcess(helper: Self.helper, provider: manifest.id, arguments: ["--threads-only"], environment: [])
            let policy = SandboxPolicy(manifest: manifest, request: typed, privateDirectory: folder, limits: SandboxSettings().limits)
            try helper.send(policy.frame)
            let reply = try helper.receive(deadline: { ProviderProcess.now() + 5_000_000_000 }, timeout: "5s")
            #expect(reply.kind == .error)
            var reader = FrameReader(reply.payload)
            let (kind, message) = try reader.error()
            #expect(Int(kind) == ASP_ERROR_SANDBOX)
            #expect(String(decoding: message, as: UTF8.self).contains("started without a guard"), "\(String(decoding: message, as: UTF8.self))")
        }
    }

    @Test func aProviderThatMayHandOffIsNotStartedAhead() throws {
        let transport = try transport(permissions: ProviderPermissions(handoff: true))
        transport.prestart(try request("a.txt", typed: false), concurrently: false)
        #expect(transport.helperProcess == nil)
    }

    @Test func aHelperThatCannotStartAheadIsReportedByTheFirstCall() throws {
        let transport = try transport(helper: "\(root)/no-such-helper")
        let request = try request("a.txt")
        transport.prestart(request, concurrently: true)
        #expect(transport.helperProcess == nil)
        do {
            _ = try transport.load(symbols: ["hello_can_perform"], request: request, phase: .checking, answerLater: false)
            Issue.record("a missing helper loaded a library")
        } catch let error as ActShareError {
            #expect(error.description.contains("cannot start \(root)/no-such-helper: No such file or directory"), "\(error)")
        }
    }
}
