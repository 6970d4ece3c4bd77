import ActShareCore

/// A numbered list of activities on the terminal; the user types a number.
struct TTYPicker {
    let terminal: Terminal

    /// The chosen offer, or nil if the user cancelled (Enter, `q`, or end of input).
    func pick(from offers: [Offer], items: [Item]) -> Offer? {
        var lines = Localized.plural("Share %d item with:", "Share %d items with:", count: items.count, items.count) + "\n"
        let width = offers.map(\.title.count).max() ?? 0
        for (index, offer) in offers.enumerated() {
            let number = String(index + 1)
            let padded = offer.title + String(repeating: " ", count: width - offer.title.count)
            lines += "  \(String(repeating: " ", count: max(0, 3 - number.count)))\(number)  \(padded)  \(offer.type)\n"
        }
        terminal.write(lines)
        while true {
            guard let answer = terminal.ask(Localized.text("Choose 1-%d (Enter or q cancels): ", offers.count))?.trimmingSpaces else {
                terminal.write("\n")
                return nil
            }
            if answer.isEmpty || answer == "q" { return nil }
            if let number = Int(answer), (1...offers.count).contains(number) { return offers[number - 1] }
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
