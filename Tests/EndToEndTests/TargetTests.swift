import Foundation
import Testing

/// Targets (provider.h ABI 3): a provider's can-perform offers the devices, people, apps
/// or places its activity can go to; `list` shows them, `perform --target` hands the one
/// chosen to perform, and what a provider offers is checked the same in both isolation
/// modes.
@Suite struct TargetTests {
    /// The can-perform a plugin author writes into a C provider from `providers new`: three
    /// targets for any items; 10,000 for the text "flood"; for the text "bad", targets
    /// actshare must leave out beside one it keeps (its title and image hostile).
    static let canPerform = #"""
        ACTSHARE_EXPORT int32_t targets_can_perform(const actshare_request *request) {
            const char *text = request->item_count > 0 && request->items[0].text ? request->items[0].text : "";
            if (strcmp(text, "flood") == 0) {
                char id[32];
                for (int i = 0; i < 10000; i++) {
                    snprintf(id, sizeof id, "t%d", i);
                    actshare_target target = {sizeof target, ACTSHARE_TARGET_PLACE, id, id, NULL, NULL};
                    actshare_add_target(request, &target);
                }
                return 1;
            }
            if (strcmp(text, "bad") == 0) {
                char long_id[200];
                memset(long_id, 'x', sizeof long_id - 1);
                long_id[sizeof long_id - 1] = 0;
                actshare_target bad[] = {
                    {sizeof bad[0], ACTSHARE_TARGET_DEVICE, "esc\x1b[31m", "Escape", NULL, NULL},
                    {sizeof bad[0], ACTSHARE_TARGET_DEVICE, long_id, "Long", NULL, NULL},
                    {sizeof bad[0], 9, "kind-nine", "Kind nine", NULL, NULL},
                    {sizeof bad[0], ACTSHARE_TARGET_PERSON, "fine", "Fine \x1b]0;owned\x07", NULL, "../../etc/passwd"},
                    {sizeof bad[0], ACTSHARE_TARGET_PERSON, "fine", "Fine again", NULL, NULL},
                };
                for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) actshare_add_target(request, &bad[i]);
                return 1;
            }
            actshare_target targets[] = {
                {sizeof targets[0], ACTSHARE_TARGET_DEVICE, "beta-7f3a", "beta", "not reachable now", "phone"},
                {sizeof targets[0], ACTSHARE_TARGET_PERSON, "ada@example.org", "Ada Lovelace", NULL, NULL},
                {sizeof targets[0], ACTSHARE_TARGET_APP, "org.gnome.TextEditor.desktop", "Text Editor", "GNOME", "/usr/share/icons/editor.png"},
            };
            for (size_t i = 0; i < 3; i++) {
                if (actshare_add_target(request, &targets[i]) != 0) return 0;
            }
            return request->item_count > 0;
        }
        """#

    /// Its perform hands back the target chosen first, then a line per item.
    static let performStart = #"""
            const char *chosen = actshare_request_target(request);
            if (session->return_item(session, ACTSHARE_ITEM_TEXT, chosen ? chosen : "(no target)", NULL) != 0) return ACTSHARE_STATUS_FAILED;
            for (size_t i = 0; i < request->item_count; i++) {
        """#

    /// The provider, scaffolded, edited and built in `sandbox`, which then finds it.
    static func targetsProvider(in sandbox: Sandbox) throws {
        let directory = "\(sandbox.root)/providers/targets"
        let created = try sandbox.run("providers", "new", "--lang", "c", "org.test.targets", directory)
        try #require(created.status == 0, "\(created.stderr)")
        let file = "\(directory)/targets.c"
        var source = try String(contentsOfFile: file, encoding: .utf8)
        let body = try #require(source.range(of: "ACTSHARE_EXPORT int32_t targets_can_perform(const actshare_request *request) {\n    return request->item_count > 0;\n}"),
                                "the scaffold's can-perform: \(source)")
        source.replaceSubrange(body, with: canPerform)
        let loop = try #require(source.range(of: "    for (size_t i = 0; i < request->item_count; i++) {\n        if (session->is_cancelled"))
        source.replaceSubrange(loop, with: performStart + "        if (session->is_cancelled")
        source = source.replacingOccurrences(of: "#include <stdio.h>", with: "#include <stdio.h>\n#include <string.h>")
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let build = try Sandbox.execute("\(directory)/build.sh", [], environment: ProviderSDKTests.buildEnvironment, stdin: nil, timeout: 300)
        try #require(build.status == 0, "\(build.stdout)\(build.stderr)")
        sandbox.providerPath = ["\(sandbox.root)/providers"]
    }

    static func activity(_ listed: Run, _ type: String) throws -> [String: Any] {
        let activities = try #require(try listed.json()["activities"] as? [[String: Any]], "\(listed.stdout)\(listed.stderr)")
        return try #require(activities.first { $0["type"] as? String == type }, "\(activities)")
    }

    static func targets(_ listed: Run, _ type: String = "org.test.targets.describe") throws -> [[String: Any]] {
        try #require(try activity(listed, type)["targets"] as? [[String: Any]])
    }

    static func returned(_ run: Run) throws -> [String?] {
        (try run.json()["returned_items"] as? [[String: Any]] ?? []).map { $0["text"] as? String }
    }

    @Test(arguments: ["process", "in-process"])
    func aProvidersTargetsAreListedAndTheChosenOneReachesPerform(_ isolation: String) throws {
        let sandbox = try Sandbox(providerPath: [])
        try Self.targetsProvider(in: sandbox)
        sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = isolation
        let text = try sandbox.file("notes.txt", "some words\n")

        let listed = try sandbox.run("list", "--json", text)
        #expect(listed.status == 0 && listed.stderr.isEmpty, "\(listed.stderr)")
        let targets = try Self.targets(listed)
        #expect(targets.map { $0["id"] as? String } == ["beta-7f3a", "ada@example.org", "org.gnome.TextEditor.desktop"], "in the provider's order")
        #expect(targets.map { $0["kind"] as? String } == ["device", "person", "app"])
        #expect(targets[0]["title"] as? String == "beta" && targets[0]["subtitle"] as? String == "not reachable now" && targets[0]["image"] as? String == "phone")
        #expect(targets[1]["subtitle"] is NSNull && targets[1]["image"] is NSNull)
        #expect(targets[2]["image"] as? String == "/usr/share/icons/editor.png")

        // On a terminal's list, each target is a line of its own under its activity.
        let lines = try sandbox.run("list", text).stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  beta ") && $0.hasSuffix("  --target beta-7f3a") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  Ada Lovelace ") && $0.hasSuffix("  --target ada@example.org") }, "\(lines)")

        // The one chosen reaches perform; none chosen, perform is told none.
        let chosen = try sandbox.run("perform", "org.test.targets.describe", "--target", "ada@example.org", text, "--json")
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(try Self.returned(chosen).first == "ada@example.org")
        let short = try sandbox.run("perform", "org.test.targets.describe", "-t", "beta-7f3a", text, "--json")
        #expect(try Self.returned(short).first == "beta-7f3a")
        let none = try sandbox.run("perform", "org.test.targets.describe", text, "--json")
        #expect(try Self.returned(none).first == "(no target)")
        // A target alone names the activity that offers it.
        let alone = try sandbox.run("share", "--target", "org.gnome.TextEditor.desktop", text, "--json")
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(try Self.returned(alone).first == "org.gnome.TextEditor.desktop")

        // An id not offered now is refused in words, never passed on.
        let unknown = try sandbox.run("perform", "org.test.targets.describe", "--target", "gamma", text)
        #expect(unknown.status == 3)
        #expect(unknown.stderr == "actshare: org.test.targets.describe offers no target gamma for \(text) (text/plain) (it offers: beta-7f3a, ada@example.org, org.gnome.TextEditor.desktop)\n")
        let nowhere = try sandbox.run("share", "--target", "gamma", text)
        #expect(nowhere.status == 3)
        #expect(nowhere.stderr == "actshare: no activity offers the target gamma for \(text) (text/plain); name one with --activity TYPE\n")
    }

    /// On a terminal, each target is a line of its own under its activity, numbered as
    /// the activities are; its number performs the activity to it.
    @Test func theTerminalPickerOffersEachTargetAsALine() throws {
        let sandbox = try Sandbox(providerPath: [])
        try Self.targetsProvider(in: sandbox)
        let text = try sandbox.file("notes.txt", "some words\n")
        let picked = try sandbox.runOnTerminal(["share", text], input: "3\n")
        let lines = picked.stdout.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.contains { $0.contains("1  Describe Items ") && $0.hasSuffix("org.test.targets.describe") }, "\(picked.stdout)")
        #expect(lines.contains { $0.contains("2  Describe Items: beta (not reachable now)") && $0.hasSuffix("--target beta-7f3a") }, "\(picked.stdout)")
        #expect(lines.contains { $0.contains("3  Describe Items: Ada Lovelace") && $0.hasSuffix("--target ada@example.org") }, "\(picked.stdout)")
        #expect(lines.contains { $0.contains("4  Describe Items: Text Editor (GNOME)") }, "\(picked.stdout)")
        #expect(lines.contains("ada@example.org"), "the third line's target reached perform: \(picked.stdout)")
    }

    /// 10,000 targets, or ones a terminal would obey, too long or of no kind: what is kept
    /// is the first 64 and the sound ones, each left out is one warning, and the host goes on.
    @Test(arguments: ["process", "in-process"])
    func aFloodOrHostileTargetsAreCutAndSaid(_ isolation: String) throws {
        let sandbox = try Sandbox(providerPath: [])
        try Self.targetsProvider(in: sandbox)
        sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = isolation

        let flood = try sandbox.run("list", "--json", "--text", "flood")
        #expect(flood.status == 0)
        let kept = try Self.targets(flood)
        #expect(kept.count == 64)
        #expect(kept.first?["id"] as? String == "t0" && kept.last?["id"] as? String == "t63")
        #expect(flood.stderr == "actshare: warning: provider org.test.targets: org.test.targets.describe offered more than 64 targets; the first 64 are kept\n")

        let bad = try sandbox.run("list", "--json", "--text", "bad")
        #expect(bad.status == 0)
        let sound = try Self.targets(bad)
        #expect(sound.count == 1)
        #expect(sound.first?["id"] as? String == "fine")
        #expect(sound.first?["title"] as? String == "Fine \\e]0;owned\\x07", "shown, never obeyed")
        #expect(sound.first?["image"] is NSNull, "a relative path is no image")
        #expect(bad.stderr.split(separator: "\n").map(String.init) == [
            "actshare: warning: provider org.test.targets: org.test.targets.describe offered a target ('esc\\e[31m') that is left out: its id holds a control character",
            "actshare: warning: provider org.test.targets: org.test.targets.describe offered a target ('\(String(repeating: "x", count: 128))') that is left out: its id is 199 bytes long, more than 128",
            "actshare: warning: provider org.test.targets: org.test.targets.describe offered a target ('kind-nine') that is left out: 9 is not a target kind (0 device, 1 person, 2 app, 3 place)",
            "actshare: warning: provider org.test.targets: org.test.targets.describe offered the target 'fine' twice; the first is kept",
        ], "\(bad.stderr)")
        // A target left out is not one perform takes.
        let refused = try sandbox.run("perform", "org.test.targets.describe", "--target", "kind-nine", "--text", "bad")
        #expect(refused.status == 3, "\(refused.stderr)")
    }

    /// A provider built for ABI 2 (Tests/Fixtures/Providers/Legacy), which knows nothing
    /// of targets, runs under this host as it did: offered with no targets, declining in
    /// words, performing.
    @Test(arguments: ["process", "in-process"])
    func aProviderBuiltForABI2RunsUnchanged(_ isolation: String) throws {
        let sandbox = try Sandbox(providerPath: [])
        sandbox.extraEnvironment["ACTSHARE_ISOLATION"] = isolation
        try Sandbox.write("""
            schema: actshare/provider@1
            id: org.test.legacy
            name: Legacy
            version: 1.0.0
            library: \(Sandbox.cProviders)/liblegacy.so
            activities:
              - type: org.test.legacy.go
                title: Legacy
                accepts: {kinds: [text]}
                hooks: {can-perform: legacy_can_perform, perform: legacy_perform}
            """, to: "\(sandbox.root)/legacy/provider.yaml")
        sandbox.providerPath = ["\(sandbox.root)/legacy"]
        let listed = try sandbox.run("list", "--json", "--text", "yes")
        #expect(try Self.targets(listed, "org.test.legacy.go").isEmpty)
        let performed = try sandbox.run("perform", "org.test.legacy.go", "--text", "yes", "--json")
        #expect(performed.status == 0, "\(performed.stderr)")
        #expect(try Self.returned(performed) == ["host of ABI 3, 1 item(s)"])
        let declined = try sandbox.run("perform", "org.test.legacy.go", "--text", "no")
        #expect(declined.status == 3)
        #expect(declined.stderr == "actshare: org.test.legacy.go cannot perform on these items: it was told no\n")
    }
}
