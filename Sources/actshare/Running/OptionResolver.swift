import ActShareCore

/// Gives each declared option of an activity its value: `-o` first, then the config's
/// `providers:` entry, then the manifest's default; a required option still missing is
/// asked for (on the terminal or in a dialog), or is a usage error. In the share sheet an
/// optional one with a `prompt` is asked for too, and an empty answer leaves it unset.
struct OptionResolver {
    let config: Config
    let prompter: (any OptionPrompter)?
    /// Whether an optional option with a `prompt` and no value is asked for as well.
    var asksEveryPrompt = false
    /// Whether the values came from a program (``ActivitySelection/fromProgram``): then
    /// an option is named as one, not as the `-o` flag the program never gave.
    var fromProgram = false

    /// How the message names a given option: `-o NAME`, or option 'NAME' for a program.
    private func flag(_ name: String) -> String { fromProgram ? "option '\(name)'" : "-o \(name)" }

    func resolve(_ given: [(name: String, value: String)], for offer: Offer) throws -> [(name: String, value: String)] {
        let (provider, activity) = try offer.declaration()
        for (name, _) in given where activity.option(named: name) == nil {
            let known = activity.options.map(\.name)
            let list = known.isEmpty ? "it has none" : "it has \(known.joined(separator: ", "))"
            throw CommandFailure(.badInput, "\(flag(name)): \(activity.type) has no option '\(name)' (\(list))")
        }
        let configured = config.providerOptions[provider.id] ?? [:]
        var values: [(name: String, value: String)] = []
        for option in activity.options {
            if let value = given.last(where: { $0.name == option.name })?.value {
                values.append((option.name, try validate(value, option, source: flag(option.name))))
            } else if let value = configured[option.name] {
                values.append((option.name, try validate(value.value, option, source: "\(value.location): option '\(option.name)'")))
            } else if let value = option.defaultValue {
                values.append((option.name, value))
            } else if option.required {
                values.append((option.name, try ask(option, activity: activity) ?? ""))
            } else if asksEveryPrompt, option.prompt != nil, prompter != nil, let value = try ask(option, activity: activity) {
                values.append((option.name, value))
            }
        }
        return values
    }

    private func validate(_ value: String, _ option: OptionDeclaration, source: String) throws -> String {
        switch option.validate(value) {
        case .success(let valid): return valid
        case .failure(let problem): throw CommandFailure(.badInput, "\(source) \(problem.reason), not '\(value)'")
        }
    }

    /// The user's answer for `option`; nil for an empty answer to an optional one.
    private func ask(_ option: OptionDeclaration, activity: ActivityDeclaration) throws -> String? {
        guard let prompter else {
            throw CommandFailure(
                .badInput, "\(activity.type) needs option '\(option.name)': give \(fromProgram ? "its value" : "-o \(option.name)=VALUE")")
        }
        var note: String?
        while true {
            guard let answer = try prompter.ask(option.prompt ?? option.name, title: activity.title, note: note, type: option.type) else {
                throw CommandFailure(.cancelled, nil)
            }
            if answer.isEmpty && !option.required { return nil }
            switch option.validate(answer) {
            case .success(let valid) where !answer.isEmpty: return valid
            case .success: note = Localized.text("A value is required.")
            case .failure(let problem): note = "The value \(problem.reason)."
            }
        }
    }
}
