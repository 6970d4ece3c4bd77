import ActShareProvider
import Glibc
import Synchronization
import Testing

/// A C string as the tests record it.
private func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? "NULL"
}

/// The Swift wrappers against a request and a session of the tests' own: what a hook
/// body does reaches the C callbacks as the host would see it.
@Suite struct ProviderSessionTests {
    /// What the session's callbacks received, and what they answer.
    final class Host {
        var calls: [String] = []
        var refuseItems = false
        var cancelled = false

        static func of(_ session: UnsafeMutablePointer<actshare_session>?) -> Host {
            Unmanaged<Host>.fromOpaque(session!.pointee.host_context).takeUnretainedValue()
        }
    }

    /// Runs `body` with a session whose callbacks record into `host`.
    static func withSession<T>(_ host: Host, _ body: (UnsafeMutablePointer<actshare_session>) throws -> T) rethrows -> T {
        var session = actshare_session()
        session.abi_version = UInt32(ACTSHARE_ABI_VERSION)
        session.struct_size = UInt32(MemoryLayout<actshare_session>.size)
        session.host_context = Unmanaged.passUnretained(host).toOpaque()
        session.progress = { session, fraction in Host.of(session).calls.append("progress \(fraction)") }
        session.log = { session, level, message in Host.of(session).calls.append("log \(level) \(text(message))") }
        session.return_item = { session, kind, value, type in
            let host = Host.of(session)
            host.calls.append("item \(kind) \(text(value)) \(text(type))")
            return host.refuseItems ? -1 : 0
        }
        session.option = { _, name in
            text(name) == "greeting" ? UnsafeRawPointer(StaticString("Hi").utf8Start).assumingMemoryBound(to: CChar.self) : nil
        }
        session.set_error = { session, message in Host.of(session).calls.append("error \(text(message))") }
        session.is_cancelled = { session in Host.of(session).cancelled ? 1 : 0 }
        return try withExtendedLifetime(host) { try body(&session) }
    }

    /// Runs `body` with a request of one file whose name is not UTF-8 and one text item,
    /// and an option.
    /// What the host's decline received, in the test below.
    static let declined = Mutex<[String]>([])

    /// `decline` reaches a host of ABI 2, and is not called under a host of ABI 1 (whose
    /// request ends before it).
    @Test func aDeclineReachesOnlyAHostThatHasIt() throws {
        Self.withRequest { request in
            let raw = UnsafeMutablePointer(mutating: request)
            raw.pointee.decline = { _, reason in ProviderSessionTests.declined.withLock { $0.append(String(cString: reason!)) } }
            ProviderRequest(raw)?.decline("No device is paired")
            raw.pointee.abi_version = 1
            raw.pointee.struct_size = UInt32(MemoryLayout<actshare_request>.offset(of: \.host_context)!)
            ProviderRequest(raw)?.decline("never heard")
        }
        #expect(Self.declined.withLock { $0 } == ["No device is paired"])
    }

    /// What the host's add_target received, in the test below.
    static let offered = Mutex<[String]>([])

    /// Targets reach a host of ABI 3 and the chosen one is read; under a host of ABI 2
    /// (whose request ends after decline) nothing past its end is called or read.
    @Test func targetsReachOnlyAHostThatHasThem() throws {
        let chosen = strdup("beta-7f3a")!
        defer { free(chosen) }
        Self.withRequest { request in
            let raw = UnsafeMutablePointer(mutating: request)
            raw.pointee.add_target = { _, target in
                let target = target!.pointee
                let line = "\(target.kind) \(String(cString: target.id)) \(String(cString: target.title)) \(target.subtitle.map { String(cString: $0) } ?? "-")"
                return ProviderSessionTests.offered.withLock { offered in
                    offered.append(line)
                    return offered.count > 1 ? -1 : 0
                }
            }
            raw.pointee.target = UnsafePointer(chosen)
            let request = ProviderRequest(raw)
            #expect(request?.target == "beta-7f3a")
            #expect(request?.addTarget(id: "beta-7f3a", title: "beta", subtitle: "KDE Connect", kind: .device) == true)
            #expect(request?.addTarget(id: "gimp", title: "GIMP", kind: .app) == false, "the host's -1")
            raw.pointee.abi_version = 2
            raw.pointee.struct_size = UInt32(MemoryLayout<actshare_request>.offset(of: \.add_target)!)
            let older = ProviderRequest(raw)
            #expect(older?.target == nil)
            #expect(older?.addTarget(id: "never", title: "Never", kind: .place) == false)
        }
        #expect(Self.offered.withLock { $0 } == ["0 beta-7f3a beta KDE Connect", "2 gimp GIMP -"])
    }

    static func withRequest<T>(_ body: (UnsafePointer<actshare_request>) throws -> T) rethrows -> T {
        let texts: [String] = ["file:///tmp/caf%E9.txt", "text/plain", "some words", "greeting", "Hello", "org.example.test.go"]
        let strings: [UnsafeMutablePointer<CChar>] = texts.map { strdup($0)! }
        defer { strings.forEach { free($0) } }
        // The file's name has the byte 0xE9 where UTF-8 would not allow it.
        let pathBytes = Array("/tmp/caf".utf8) + [0xE9] + Array(".txt".utf8) + [0]
        let path = UnsafeMutablePointer<CChar>.allocate(capacity: pathBytes.count)
        path.initialize(from: pathBytes.map { CChar(bitPattern: $0) }, count: pathBytes.count)
        defer { path.deallocate() }
        var items = [actshare_item(), actshare_item()]
        items[0].kind = Int32(ACTSHARE_ITEM_FILE.rawValue)
        items[0].path = UnsafePointer(path)
        items[0].uri = UnsafePointer(strings[0])
        items[0].content_type = UnsafePointer(strings[1])
        items[0].size = 11
        items[1].kind = Int32(ACTSHARE_ITEM_TEXT.rawValue)
        items[1].text = UnsafePointer(strings[2])
        items[1].data = UnsafeRawPointer(strings[2])
        items[1].data_length = 10
        items[1].size = 10
        var option = actshare_option(name: strings[3], value: strings[4])
        return try items.withUnsafeBufferPointer { items in
            try withUnsafePointer(to: &option) { option in
                var request = actshare_request(
                    abi_version: UInt32(ACTSHARE_ABI_VERSION), struct_size: UInt32(MemoryLayout<actshare_request>.size),
                    activity_type: strings[5], subject: nil, item_count: 2, items: items.baseAddress,
                    option_count: 1, options: option, host_context: nil, decline: nil, add_target: nil, target: nil)
                return try body(&request)
            }
        }
    }

    @Test func aRequestReadsAsTheHostWroteIt() throws {
        try Self.withRequest { raw in
            let request = try #require(ProviderRequest(raw))
            #expect(request.activityType == "org.example.test.go")
            #expect(request.subject == nil)
            #expect(request.option("greeting") == "Hello")
            #expect(request.option("other") == nil)
            let items = request.items
            #expect(items.count == 2)
            #expect(items[0].kind == .file)
            #expect(items[0].pathBytes == Array("/tmp/caf".utf8) + [0xE9] + Array(".txt".utf8))
            #expect(items[0].contentType == "text/plain")
            #expect(items[1].kind == .text)
            #expect(items[1].text == "some words")
            #expect(Array(items[1].data) == Array("some words".utf8))
            #expect(items[1].contentType == "application/octet-stream", "no content type: the default")
        }
        #expect(ProviderRequest(nil) == nil)
    }

    @Test func aBodyReachesEveryCallback() throws {
        let host = Host()
        let status = Self.withSession(host) { session in
            Self.withRequest { request in
                ProviderSession.run(request, session) { _, session in
                    session.progress(0.5)
                    session.log(.warning, "careful")
                    try session.returnItem(.text, "out", contentType: "text/plain")
                    #expect(session.option("greeting") == "Hi")
                    #expect(!session.isCancelled)
                    return .done
                }
            }
        }
        #expect(status == ProviderStatus.done.rawValue)
        #expect(host.calls == ["progress 0.5", "log 2 careful", "item 2 out text/plain"])
    }

    struct NoPrinter: Error, CustomStringConvertible {
        var description: String { "no printer" }
    }

    @Test func aThrownErrorFailsWithItsDescription() throws {
        let host = Host()
        let status = Self.withSession(host) { session in
            Self.withRequest { request in ProviderSession.run(request, session) { _, _ in throw NoPrinter() } }
        }
        #expect(status == ProviderStatus.failed.rawValue)
        #expect(host.calls == ["error no printer"])
        #expect(Self.withSession(host) { ProviderSession.run(nil, $0) { _, _ in .done } } == ProviderStatus.failed.rawValue)
    }

    @Test func aRefusedItemThrowsAndCancellationIsSeen() throws {
        let host = Host()
        host.refuseItems = true
        host.cancelled = true
        let status = Self.withSession(host) { session in
            Self.withRequest { request in
                ProviderSession.run(request, session) { _, session in
                    #expect(throws: ProviderSession.Refused.self) { try session.returnItem(.url, "no scheme") }
                    return session.isCancelled ? .cancelled : .done
                }
            }
        }
        #expect(status == ProviderStatus.cancelled.rawValue)
        #expect(host.calls == ["item 1 no scheme NULL"])
    }
}
