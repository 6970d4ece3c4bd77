import ActShareCore
import Testing

/// The `email` option type: address lists as people type them, and the reasons for bad ones.
@Suite struct MailAddressListTests {
    @Test(arguments: [
        ("ann@example.org", ["ann@example.org"]),
        ("Ann <ann@example.org>, bob@example.org", ["ann@example.org", "bob@example.org"]),
        ("\"Doe, J\" <j@x.org>; k@y.org,", ["j@x.org", "k@y.org"]),
        ("o'neil+tag@mail.example-1.org", ["o'neil+tag@mail.example-1.org"]),
    ])
    func acceptsWhatPeopleType(_ text: String, _ mailboxes: [String]) throws {
        #expect(try MailAddressList(text).mailboxes == mailboxes)
    }

    @Test(arguments: [
        ("bogus", "is not a mail address such as name@example.org"),
        ("a@b@c", "is not a mail address such as name@example.org"),
        ("Ann <ann@example.org", "is not a mail address (no closing '>')"),
        ("a@b.org, .x@y.org", "holds '.x@y.org', which is not a mail address such as name@example.org"),
        ("a@-b.org", "is not a mail address such as name@example.org"),
        (" , ", "holds no mail address"),
    ])
    func refusesWhatIsNotAnAddress(_ text: String, _ reason: String) {
        #expect(throws: OptionValueError.self) { try MailAddressList(text) }
        do {
            _ = try MailAddressList(text)
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test func anEmailOptionValidatesItsValue() {
        let option = OptionDeclaration(name: "to", type: .email, prompt: "To")
        #expect(throws: Never.self) { try option.validate("a@b.org").get() }
        #expect(throws: OptionValueError.self) { try option.validate("a@").get() }
    }
}
