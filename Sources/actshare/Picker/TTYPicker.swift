import ActShareCore

/// A numbered list of activities on the terminal, each followed by the targets it offers
/// (a line of their own: "Hand Off: beta"); the user types a number.
struct TTYPicker {
    let terminal: Terminal

    /// What can be picked: an activity, or one of its targets.
    struct Choice {
        var offer: Offer
        var target: ActivityTarget?

        /// The line's words: the activity's title, or it and the target's.
        var title: String {
            guard let target else { return offer.title }
            let subtitle = target.subtitle.map { " (\($0))" } ?? ""
            return Localized.text("%s: %s", offer.title, target.title + subtitle)
        }
    }

    /// The chosen offer and target, or nil if the user cancelled (Enter, `q`, or end of input).
    func pick(from offers: [Offer], targets: [String: [ActivityTarget]], items: [Item]) -> Choice? {
        let choices = offers.flatMap { offer in
            [Choice(offer: offer)] + (targets[offer.type] ?? []).map { Choice(offer: offer, target: $0) }
        }
        var lines = Localized.plural("Share %d item with:", "Share %d items with:", count: items.count, items.count) + "\n"
        let titles = choices.map { TerminalText.oneLine($0.title) }
        let width = titles.map(\.count).max() ?? 0
        for (index, choice) in choices.enumerated() {
            let number = String(index + 1)
            let padded = titles[index] + String(repeating: " ", count: width - titles[index].count)
            let name = choice.target.map { "--target \($0.id)" } ?? choice.offer.type
            lines += "  \(String(repeating: " ", count: max(0, 3 - number.count)))\(number)  \(padded)  \(name)\n"
        }
        terminal.write(lines)
        while true {
            guard let answer = terminal.ask(Localized.text("Choose 1-%d (Enter or q cancels): ", choices.count))?.trimmingSpaces else {
                terminal.write("\n")
                return nil
            }
            if answer.isEmpty || answer == "q" { return nil }
            if let number = Int(answer), (1...choices.count).contains(number) { return choices[number - 1] }
            terminal.write(Localized.text("'%s' is not one of the numbers above.", answer) + "\n")
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}
