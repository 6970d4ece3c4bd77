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
