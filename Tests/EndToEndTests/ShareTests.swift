import Foundation
import Testing

@Suite struct ShareTests {
    @Test func withoutATerminalTheChoicesArePrintedAndTheExitCodeIsTwo() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "words\n")
        for arguments in [[text], ["share", text], ["share", "--picker", "none", text]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 2)
            #expect(run.stdout == """
                org.example.wordcount.count\tCount Words
                org.example.wordcount.describe\tDescribe Items
                org.example.hello.greet\tSay Hello
                org.example.hello.sign\tSign With Name

                """)
            #expect(run.stderr.hasPrefix("actshare: "))
            #expect(run.stderr.contains("--activity"))
        }
    }

    @Test func theActivityFlagPerformsWithoutAPicker() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "one two\n")
        let run = try sandbox.run("-a", "org.example.wordcount.count", text, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.json()["completed"] as? Bool == true)
        let nothing = try sandbox.run("share", "--json", "--only", "org.example.reverse.text", text)
        #expect(nothing.status == 3)
        #expect(try nothing.json()["activity"] is NSNull)
        #expect(nothing.stderr == "actshare: no activity can perform on \(text) (text/plain)\n")
    }

    @Test func theTerminalPickerPerformsTheChosenActivity() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "one two\n")
        // A wrong answer is asked again; then the second entry (Describe Items) is performed.
        let run = try sandbox.runOnTerminal([text], input: "9\n2\n")
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("Share 1 item with:"))
        #expect(run.stdout.contains("    2  Describe Items  org.example.wordcount.describe"))
        #expect(run.stdout.contains("'9' is not one of the numbers above."))
        #expect(run.stdout.contains("type=org.example.wordcount.describe count=1"))
    }

    @Test func cancellingThePickerExitsFour() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.file("a.txt", "one two\n")
        for input in ["\n", "q\n", ""] {
            let run = try sandbox.runOnTerminal([text, "--json"], input: input)
            #expect(run.status == 4, "input \(input.debugDescription): \(run.stdout)")
            #expect(run.stdout.contains(#"{"activity":null,"completed":false,"returned_items":[],"error":null}"#))
        }
    }
}

extension ShareTests {
    /// On a terminal, a mistyped recipient is asked for again with the reason, and a
    /// completed share ends with one line saying what was done (issue 13).
    @Test func aBadPromptedValueIsAskedAgainAndSuccessIsSaid() throws {
        let sandbox = try MailTests.sandbox()
        let mbox = "\(sandbox.root)/mail.mbox"
        let mail = try sandbox.runOnTerminal(
            ["-a", "org.actshare.mail", "--text", "hello", "-o", "spool=mbox:\(mbox)"], input: "bogus\nann@example.org\n")
        #expect(mail.status == 0, "\(mail.stdout)")
        #expect(mail.stdout.contains("The value is not a mail address such as name@example.org."), "\(mail.stdout)")
        #expect(mail.stdout.contains("Mail: done."), "\(mail.stdout)")
        #expect(try String(contentsOfFile: mbox, encoding: .utf8).contains("To: ann@example.org"))

        let output = "\(sandbox.root)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let notes = try sandbox.file("notes.txt", "words\n")
        let printed = try sandbox.runOnTerminal(["-a", "org.actshare.print-to-pdf", "-o", "output-dir=\(output)", notes], input: "")
        #expect(printed.status == 0, "\(printed.stdout)")
        #expect(printed.stdout.contains("Saved notes.pdf in \(output)"), "\(printed.stdout)")
    }
}

