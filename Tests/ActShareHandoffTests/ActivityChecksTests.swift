import Foundation
import Testing
@testable import ActShareHandoff

@Suite struct ActivityChecksTests {
    static func activity(id: String = "0123456789abcdef", type: String = "org.example.notes.editing", title: String = "Notes",
                         url: String? = nil, info: [String: JSONValue] = [:]) -> UserActivity {
        UserActivity(id: id, type: type, title: title, userInfo: info, webpageURL: url)
    }

    @Test func aGoodActivityPasses() {
        #expect(ActivityChecks.problem(with: Self.activity(url: "https://example.org/a?b=c"), fromPeer: true) == nil)
    }

    @Test(arguments: [
        (activity(id: "x;cd;touch pwned;"), "its id is not 16 hex digits"),
        (activity(id: "0123456789ABCDEF"), "its id is not 16 hex digits"),
        (activity(type: "not reverse dns"), "its type is not a reverse-DNS type"),
        (activity(title: "a\u{1B}[2J"), "its title is longer than 1024 bytes or holds control characters"),
        (activity(title: "txt\u{202E}exe"), "its title is longer than 1024 bytes or holds control characters"),
        (activity(title: String(repeating: "x", count: 1025)), "its title is longer than 1024 bytes or holds control characters"),
        (activity(url: "javascript:alert(1)"), "its webpage URL is not an http or https URL"),
        (activity(url: "file:///etc/passwd"), "its webpage URL is not an http or https URL"),
        (activity(url: "https://exa mple.org"), "its webpage URL is not an http or https URL"),
        (activity(url: "https://"), "its webpage URL is not an http or https URL"),
        (activity(info: ["x": .string(String(repeating: "y", count: 65_530))]), "its user info is larger than 65536 bytes"),
    ])
    func refusedFromAPeer(_ activity: UserActivity, _ problem: String) {
        #expect(ActivityChecks.problem(with: activity, fromPeer: true) == problem)
    }

    @Test func aPeerCannotSendCommandsOrClaimAnOrigin() throws {
        var sent = Self.activity()
        sent.needsSaveCommand = ["/usr/bin/touch", "/tmp/x"]
        sent.onContinued = ["/usr/bin/touch", "/tmp/y"]
        sent.origin = "someone else"
        sent.continuedBy = ["me"]
        let kept = try ActivityChecks.fromPeer(sent).get()
        #expect(kept.needsSaveCommand == nil && kept.onContinued == nil && kept.origin == nil && kept.continuedBy.isEmpty)
    }

    /// An app's commands are words run without a shell: a program's absolute path first.
    @Test func aLocalCommandIsAProgramAndItsWords() {
        var activity = Self.activity()
        activity.onContinued = ["/usr/bin/touch", "/tmp/y"]
        #expect(ActivityChecks.problem(with: activity, fromPeer: false) == nil)
        for words in [[], ["touch", "/tmp/y"], ["/bin/sh", "a\0b"], Array(repeating: "/bin/true", count: 65)] {
            activity.onContinued = words
            #expect(ActivityChecks.problem(with: activity, fromPeer: false)?.hasPrefix("its on_continued ") == true, "\(words)")
        }
        // The shell text of earlier versions is read as no words, and so refused.
        let old = #"{"type":"org.example.a","title":"A","needs_save_command":"id > /tmp/m"}"#
        let decoded = try? JSONDecoder().decode(UserActivity.self, from: Data(old.utf8))
        #expect(decoded?.needsSaveCommand == [])
        #expect(decoded.flatMap { ActivityChecks.problem(with: $0, fromPeer: false) }?.hasPrefix("its needs_save_command must be a program's absolute path") == true)
    }

    @Test func userInfoIsMeasuredAsJSON() {
        #expect(JSONValue.object(["a": .string("b\"\n")]).encodedSize == "{\"a\":\"b\\\"\\u000a\"}".utf8.count)
        #expect(JSONValue.array([.null, .bool(true), .bool(false)]).encodedSize == "[null,true,false]".utf8.count)
    }
}
