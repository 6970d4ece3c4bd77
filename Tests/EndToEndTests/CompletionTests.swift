import Foundation
import Testing

/// The shells' completions as installed (scripts/completions), typed into bash, zsh and
/// fish on a pseudo-terminal (Tests/Fixtures/complete.py): file names where items go,
/// activity types, paired devices, file managers.
@Suite struct CompletionTests {
    static let shells = ["bash", "zsh", "fish"]

    /// The line `typed` in `shell` after one Tab, in the sandbox's `files` folder, with
    /// actshare on PATH and its completion script loaded.
    static func complete(_ typed: String, in shell: String, sandbox: Sandbox) throws -> String {
        let script = "\(sandbox.root)/completion.\(shell)"
        var environment = sandbox.environment
        environment["PATH"] = "\((Sandbox.binary as NSString).deletingLastPathComponent):/usr/bin:/bin"
        let made = try Sandbox.execute(
            "/bin/bash", ["-c", "\"$0\" \"$1\" \"$2\" > \"$3\"", "\(Sandbox.repository)/scripts/completions", shell, Sandbox.binary, script],
            environment: environment, stdin: nil)
        #expect(made.status == 0, "\(made.stderr)")
        let run = try Sandbox.execute(
            "/usr/bin/python3", ["\(Sandbox.repository)/Tests/Fixtures/complete.py", shell, script, "\(sandbox.root)/files", typed],
            environment: environment, stdin: nil, timeout: 40)
        #expect(run.status == 0, "\(shell): \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .newlines)
    }

    @Test(arguments: shells)
    func completionsComplete(_ shell: String) throws {
        let sandbox = try Sandbox()
        sandbox.extraEnvironment["ACTSHARE_NO_BUILTINS"] = "0"
        try sandbox.file("image.png", "not really\n")
        try sandbox.file("notes.txt", "words\n")
        try sandbox.file("my-config.yaml", "# nothing\n")
        try Sandbox.write(#"[{"name": "beta-laptop", "pin": "00", "host": "127.0.0.1", "port": 1}]"#,
                          to: "\(sandbox.root)/state/actshare/paired-devices.json")
        let cases = [
            ("actshare perform org.actshare.c", "actshare perform org.actshare.copy-to-clipboard"),  // activity types
            ("actshare im", "actshare image.png"),  // an item of share, the default command
            ("actshare perform org.example.hello.greet no", "actshare perform org.example.hello.greet notes.txt"),
            ("actshare share --only org.example.wordcount.d", "actshare share --only org.example.wordcount.describe"),
            ("actshare list --config my", "actshare list --config my-config.yaml"),
            ("actshare handoff send --device be", "actshare handoff send --device beta-laptop"),
            ("actshare handoff unpair be", "actshare handoff unpair beta-laptop"),
            ("actshare integrate thu", "actshare integrate thunar"),
        ]
        for (typed, expected) in cases {
            #expect(try Self.complete(typed, in: shell, sandbox: sandbox) == expected, "\(shell): \(typed)")
        }
    }
}
