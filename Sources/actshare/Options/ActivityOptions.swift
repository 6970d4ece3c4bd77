import ArgumentParser

/// How the picker may present activities, on a terminal or the desktop.
enum PickerStyle: String, ExpressibleByArgument, CaseIterable {
    case auto, tty, sheet, zenity, kdialog, none
}

/// Options shared by share, list and perform: which activities, with what values.
struct ActivityOptions: ParsableArguments {
    @Option(name: [.customShort("a"), .customLong("activity")], help: ArgumentHelp(
        "Perform this activity type without asking (e.g. org.example.hello.greet).", valueName: "type"),
        completion: .custom(CompletionCandidates.activityTypes))
    var activity: String?

    @Option(name: [.customShort("x"), .customLong("exclude")], help: ArgumentHelp(
        "Never offer this activity type (repeatable).", valueName: "type"),
        completion: .custom(CompletionCandidates.activityTypes))
    var exclude: [String] = []

    @Option(name: .customLong("only"), help: ArgumentHelp(
        "Offer only this activity type (repeatable).", valueName: "type"),
        completion: .custom(CompletionCandidates.activityTypes))
    var only: [String] = []

    @Option(name: [.customShort("t"), .customLong("target")], help: ArgumentHelp(
        "Send to this target of the activity: a device, person, app or place it offers (the ids `list --json` shows).",
        valueName: "id"))
    var target: String?

    @Option(name: [.customShort("o"), .customLong("option")], help: ArgumentHelp(
        "Set an option of the activity, as declared by its provider (repeatable).", valueName: "key=value"))
    var options: [String] = []

    @Option(help: ArgumentHelp("A subject for activities that use one (mail, handoff).", valueName: "text"))
    var subject: String?

    @Flag(help: "Print machine-readable JSON on standard output.")
    var json = false

    @Flag(help: ArgumentHelp(
        "Explain on standard error where each provider was found, why each activity was or was not offered, and every hook call (also ACTSHARE_TRACE=1)."))
    var explain = false

    @Option(help: ArgumentHelp(
        "How to ask for the activity and its options: auto (the terminal when there is one, else the share sheet's window on a display, or zenity or kdialog), tty, sheet, zenity, kdialog, or none (print the choices and exit).",
        valueName: "picker"))
    var picker: PickerStyle = .auto

    @Option(help: ArgumentHelp(
        "Keep the share sheet's window over this application window: x11:XID (hex) or wayland:HANDLE (exported with xdg-foreign), as the desktop portals take it.",
        valueName: "handle"))
    var parentWindow: String?

    @Option(help: ArgumentHelp("Read this config file instead of $XDG_CONFIG_HOME/actshare/config.yaml.", valueName: "file"), completion: .file())
    var config: String?

    /// The options as plain values.
    var selection: ActivitySelection {
        ActivitySelection(
            activity: activity, exclude: exclude, only: only, target: target, options: options, subject: subject, json: json,
            explain: explain, picker: picker, parentWindow: parentWindow, config: config)
    }
}
