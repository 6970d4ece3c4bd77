import ActShareCore

/// Asks the user for an option's value: on the terminal, or in a dialog.
protocol OptionPrompter {
    /// The answer to `question` (for the activity `title`), or nil when the user
    /// cancelled. `note` says why the previous answer was refused; `type` is the option's
    /// (a window offers a folder chooser for `folder`).
    func ask(_ question: String, title: String, note: String?, type: OptionDeclaration.ValueType) throws -> String?
}

extension Terminal: OptionPrompter {
    func ask(_ question: String, title: String, note: String?, type: OptionDeclaration.ValueType) throws -> String? {
        if let note { write(note + "\n") }
        return ask("\(question): ")
    }
}

extension DialogPicker: OptionPrompter {
    func ask(_ question: String, title: String, note: String?, type: OptionDeclaration.ValueType) throws -> String? {
        try ask(note.map { "\($0)\n\(question):" } ?? "\(question):", title: title)
    }
}
