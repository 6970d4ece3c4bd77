import ActShareCore
import ActShareHost
#if canImport(Glibc)
import Glibc
#endif

/// The flow of `share` and `perform`: offer, choose, fill in options, perform, report.
struct ActivityRunner {
    let invocation: Invocation
    let options: ActivitySelection
    /// Whether standard input was read as an item (then questions go to the terminal only).
    let stdinIsItem: Bool
    /// Whether this is the share sheet (`share`), where a person is present: a dialog may
    /// ask when there is no terminal, and every option with a `prompt` and no value is
    /// asked for (the Mail recipient). `perform` is for scripts: it asks only for
    /// required options, and only on a terminal.
    var sharing = false

    /// Performs `type`, or the activity the user picks, on `items`; returns normally only
    /// when it completed. In the share sheet without a terminal (a file manager's menu),
    /// a failure is shown in the window or the dialog tool too: nobody reads the standard
    /// error there.
    func run(items: [Item], type: String?) throws {
        var sheet: SheetSession?
        // Closes the window when nothing was shown in it (a failure shows itself below).
        defer { sheet?.end() }
        do {
            try perform(items: items, type: type, sheet: &sheet)
        } catch let failure as CommandFailure {
            if failure.status != .cancelled, let message = failure.message {
                if let sheet {
                    sheet.end(options.json ? nil : SheetSession.Outcome(message: message.translated))
                } else {
                    showInDialog(message.translated)
                }
            }
            throw failure
        }
    }

    /// Shows a failure in the dialog tool when the share sheet runs without a terminal and
    /// the picker may use a dialog.
    private func showInDialog(_ message: String) {
        let asksInADialog = [.auto, .sheet, .zenity, .kdialog].contains(options.picker)
        guard sharing, asksInADialog, !options.json, interactiveTerminal() == nil,
            let dialog = DialogPicker.find(dialogTool)
        else { return }
        dialog.showError(message)
    }

    /// The dialog tool `--picker` names, or nil for the first installed.
    private var dialogTool: DialogPicker.Tool? {
        switch options.picker {
        case .zenity: return .zenity
        case .kdialog: return .kdialog
        default: return nil
        }
    }

    /// The flow itself; `sheet` is the share sheet's window once it is open.
    private func perform(items: [Item], type: String?, sheet: inout SheetSession?) throws {
        let exclusions = try invocation.exclusions(options, onlyOf: type)
        let recents = invocation.recents
        let found = invocation.host.offers(for: items, exclusions: exclusions, recents: recents.types)
        let offers = found.offers
        // The named activity's own fault is the command's error, reported once below.
        let ownFault = type.flatMap { found.faults[$0] }
        for diagnostic in found.diagnostics where diagnostic.description != ownFault.map(Diagnostic.init)?.description {
            StandardStreams.err("\(diagnostic)\n")
        }

        // Without a terminal to ask on, a dialog asks (zenity or kdialog) when one can, and
        // shows the progress: for share, or when --picker names a dialog. Never for a
        // plain perform, which scripts (and the clipboard's callers) run without one.
        let explicit = options.picker == .zenity || options.picker == .kdialog
        let dialog = sharing || explicit ? dialogPicker() : nil
        let offer: Offer
        var target = options.target
        let pairs = try options.optionPairs()
        // --target alone: the one activity that offers it.
        let offering = type == nil ? target.map { id in offers.filter { found.targets[$0.type]?.contains { $0.id == id } == true } } ?? [] : []
        let type = type ?? (offering.count == 1 ? offering[0].type : nil)
        if type == nil, let target {
            if offering.count > 1 {
                throw fail(.badInput, activity: nil, "\(offering.count) activities offer the target \(target) (\(offering.map(\.type).joined(separator: ", "))); name one with --activity TYPE")
            }
            throw fail(.noActivity, activity: nil, "no activity offers the target \(target) for \(describe(items)); name one with --activity TYPE")
        }
        if let type {
            if let ownFault { throw fail(.failed, activity: type, Phrase(verbatim: ownFault.description)) }
            guard let match = offers.first(where: { $0.type == type }) else {
                throw fail(.noActivity, activity: type, unavailableReason(type, declined: found.declined.contains(type), reason: found.reasons[type], exclusions: exclusions))
            }
            offer = match
            if let target, found.targets[type]?.contains(where: { $0.id == target }) != true {
                let offered = (found.targets[type] ?? []).map(\.id)
                if offered.isEmpty { throw fail(.noActivity, activity: type, "\(type) offers no targets for \(describe(items)), so not \(target)") }
                throw fail(.noActivity, activity: type, "\(type) offers no target \(target) for \(describe(items)) (it offers: \(offered.joined(separator: ", ")))")
            }
            // From a file manager's entry for one activity: the window shows its questions,
            // progress and result, as after a choice in it.
            if sharing, dialogsWanted, let window = SheetPicker.find(invocation.paths.sheet) {
                sheet = try? window.open(performing: offer, items: items, parentWindow: options.parentWindow)
            }
        } else {
            guard !offers.isEmpty else {
                // What the providers that declined said (Hand Off: "No device is paired…").
                let said = found.reasons.sorted { $0.key < $1.key }.compactMap { type, reason in
                    invocation.registry.activity(ofType: type).map { "\($0.1.title): \(reason)" }
                }
                if said.isEmpty { throw fail(.noActivity, activity: nil, "no activity can perform on \(describe(items))") }
                throw fail(.noActivity, activity: nil, "no activity can perform on \(describe(items)) (\(said.joined(separator: "; ")))")
            }
            // What this user picks for this kind of item comes first (docs/CLI.md, "Ranking").
            let (ranked, rankedTargets) = invocation.choices?.ranked(
                offers, targets: found.targets, for: ChoiceHistory.family(of: items), pins: invocation.config.pin, now: Int64(time(nil)))
                ?? (offers, found.targets)
            guard let picked = try pick(from: ranked, targets: rankedTargets, items: items, dialog: dialog, sheet: &sheet) else {
                throw fail(.cancelled, activity: nil, nil)
            }
            offer = picked.offer
            target = picked.target
        }

        let prompter: (any OptionPrompter)? = interactiveTerminal() ?? sheet ?? dialog
        let resolver = OptionResolver(config: invocation.config, prompter: prompter, asksEveryPrompt: sharing, fromProgram: options.fromProgram)
        // A question cancelled (or an answer refused) ends the share with its result, as
        // every other end does: `--json` always prints one (docs/CLI.md).
        let values: [(name: String, value: String)]
        do {
            values = try resolver.resolve(pairs, for: offer)
        } catch let failure as CommandFailure {
            throw fail(failure.status, activity: offer.type, failure.message)
        }
        let request = ActivityRequest(activityType: offer.type, items: items, options: values, subject: options.subject, target: target)
        invocation.host.catchCancellationSignals()
        let result: ActivityResult
        if let sheet {
            sheet.watch(offer.title, cancellation: invocation.host.cancellationFlag)
            result = invocation.host.perform(offer, request: request, observer: sheet)
            sheet.stopWatching()
        } else if let progress = dialog?.progress(title: offer.title, cancellation: invocation.host.cancellationFlag) {
            result = invocation.host.perform(offer, request: request, observer: progress)
            progress.finish()
        } else {
            let observer = TerminalObserver(json: options.json)
            result = invocation.host.perform(offer, request: request, observer: observer)
            observer.finishProgressLine()
        }

        if result.completed {
            var recents = recents
            try? recents.record(offer.type)
            if var choices = invocation.choices {
                try? choices.record(ChoiceHistory.Choice(time: Int64(time(nil)), family: ChoiceHistory.family(of: items), activity: offer.type, target: target))
            }
        }
        report(result)
        present(result, of: offer, itemCount: items.count, sheet: sheet, dialog: dialog)
        switch result.status {
        case .completed: return
        case .failed: throw CommandFailure(.failed, nil)
        case .cancelled: throw CommandFailure(.cancelled, nil)
        case .badInput: throw CommandFailure(.badInput, nil)
        }
    }

    // MARK: Choosing

    /// What was picked: an activity, and perhaps one of the targets it offered.
    private struct Pick {
        var offer: Offer
        var target: String?
    }

    /// How to name the activity, for whoever gave the items: a flag on the command line,
    /// the activity for a program (the D-Bus service's `activity` option).
    private var chooseOne: Phrase { options.fromProgram ? "name the activity to perform" : "choose an activity with --activity TYPE" }

    private func pick(from offers: [Offer], targets: [String: [ActivityTarget]], items: [Item], dialog: DialogPicker?,
                      sheet: inout SheetSession?) throws -> Pick? {
        switch options.picker {
        case .none:
            printChoices(offers, targets: targets)
            throw CommandFailure(.badInput, "\(chooseOne) (\(offers.count) can perform on \(describe(items)))")
        case .tty:
            guard let terminal = Terminal() else {
                throw CommandFailure(.badInput, "--picker tty: there is no terminal to ask on")
            }
            return TTYPicker(terminal: terminal).pick(from: offers, targets: targets, items: items).map { Pick(offer: $0.offer, target: $0.target?.id) }
        case .sheet:
            guard let window = SheetPicker.find(invocation.paths.sheet) else {
                throw CommandFailure(.badInput, "--picker sheet: no display (DISPLAY, WAYLAND_DISPLAY) or the window \(invocation.paths.sheet) is not built (it needs GTK 4)")
            }
            do {
                return try pick(in: window, from: offers, targets: targets, items: items, sheet: &sheet)
            } catch let unavailable as SheetPicker.Unavailable {
                throw CommandFailure(.badInput, "--picker sheet: the window (\(window.executable)) could not be shown (status \(unavailable.status))")
            }
        case .zenity, .kdialog:
            guard let dialog else {
                throw CommandFailure(.badInput, "--picker \(options.picker.rawValue): no display (DISPLAY, WAYLAND_DISPLAY) or \(options.picker.rawValue) is not installed")
            }
            return try dialog.pick(from: offers, items: items).map { Pick(offer: $0) }
        case .auto:
            if let terminal = interactiveTerminal() {
                return TTYPicker(terminal: terminal).pick(from: offers, targets: targets, items: items).map { Pick(offer: $0.offer, target: $0.target?.id) }
            }
            if let window = SheetPicker.find(invocation.paths.sheet) {
                do {
                    return try pick(in: window, from: offers, targets: targets, items: items, sheet: &sheet)
                } catch is SheetPicker.Unavailable {
                    // The window could not be shown: a dialog, if there is one, asks.
                }
            }
            if let dialog { return try dialog.pick(from: offers, items: items).map { Pick(offer: $0) } }
            printChoices(offers, targets: targets)
            throw CommandFailure(.badInput, "no terminal, window or dialog (zenity, kdialog) to ask with: \(chooseOne)")
        }
    }

    /// Picks in the share sheet's window, which stays open (as `sheet`) for the rest.
    private func pick(in window: SheetPicker, from offers: [Offer], targets: [String: [ActivityTarget]], items: [Item],
                      sheet: inout SheetSession?) throws -> Pick? {
        let session = try window.open(offers: offers, targets: targets, items: items, parentWindow: options.parentWindow)
        guard let choice = try session.choice(), let offer = offers.first(where: { $0.type == choice.activity }) else { return nil }
        // Only a target the activity offered: the window's answer is checked as --target is.
        if let target = choice.target, targets[offer.type]?.contains(where: { $0.id == target }) != true { return nil }
        // The window's token goes on to what the provider starts (Open With: GIO reads these
        // two), so that the application may take the focus.
        if let token = choice.activationToken {
            setenv("XDG_ACTIVATION_TOKEN", token, 1)
            setenv("DESKTOP_STARTUP_ID", token, 1)
        }
        sheet = session
        return Pick(offer: offer, target: choice.target)
    }

    /// Whether the share sheet's window is wanted for questions and progress: `--picker
    /// sheet`, or `auto` without a terminal.
    private var dialogsWanted: Bool {
        options.picker == .sheet || (options.picker == .auto && interactiveTerminal() == nil)
    }

    /// The dialog to ask with: the one `--picker` names, or for `auto` without a
    /// terminal, zenity or kdialog when there is a display (beside the share sheet's
    /// window, for prompts, progress and messages).
    private func dialogPicker() -> DialogPicker? {
        switch options.picker {
        case .zenity: return DialogPicker.find(.zenity)
        case .kdialog: return DialogPicker.find(.kdialog)
        case .sheet: return DialogPicker.find(nil)
        case .auto where interactiveTerminal() == nil: return DialogPicker.find(nil)
        default: return nil
        }
    }

    /// The terminal to ask questions on, when actshare runs interactively.
    private func interactiveTerminal() -> Terminal? {
        let interactive = StandardStreams.isTerminal(0) || (stdinIsItem && StandardStreams.isTerminal(2))
        return interactive && options.picker != .none ? Terminal() : nil
    }

    private func printChoices(_ offers: [Offer], targets: [String: [ActivityTarget]]) {
        if options.json {
            StandardStreams.out(JSONShapes.activities(offers, targets: targets) + "\n")
        } else {
            StandardStreams.outsideText(offers.map { offer in
                "\(offer.type)\t\(offer.title)\n" + (targets[offer.type] ?? []).map { "\(offer.type) --target \($0.id)\t\(offer.title): \($0.title)\n" }.joined()
            }.joined())
        }
    }

    // MARK: Reporting

    private func report(_ result: ActivityResult) {
        if options.json {
            StandardStreams.out(JSONShapes.result(
                activity: result.activity, completed: result.completed, returnedItems: result.returnedItems,
                droppedItems: result.droppedItems, error: result.error) + "\n")
        } else {
            for item in result.returnedItems { StandardStreams.outsideText(describeReturned(item) + "\n") }
        }
        for dropped in result.droppedItems {
            StandardStreams.err(TerminalText.visible(
                "actshare: warning: \(result.activity) returned a \(dropped.kind) item that was dropped ('\(dropped.value)'): \(dropped.reason)") + "\n")
        }
        if let error = result.error { StandardStreams.error(error) }
    }

    /// Shows a person how the share went, where they may not see standard error: the
    /// sheet's window shows a file made (Open, Show in Folder) or a failure, and closes
    /// otherwise (with --json, the caller shows the result: the window just closes); a
    /// dialog does the same; on a terminal, one line says it.
    private func present(_ result: ActivityResult, of offer: Offer, itemCount: Int, sheet: SheetSession?, dialog: DialogPicker?) {
        // Made only where it is shown: its words go through gettext, whose first lookup
        // (the locale, the catalogs) cost a script's `perform` 0.17 ms for nothing.
        func success() -> SuccessMessage? {
            result.completed ? SuccessMessage(offer: offer, itemCount: itemCount, returnedItems: result.returnedItems) : nil
        }
        let failure = result.status == .cancelled ? nil : result.error
        if let sheet {
            guard !options.json else { return sheet.end() }
            if let success = success(), let file = success.file {
                sheet.end(SheetSession.Outcome(completed: true, message: success.line, file: file))
            } else if let failure {
                // A person reads one sentence; the line for the developer is behind Details.
                sheet.end(result.isFault ? SheetSession.Outcome(fault: true, details: failure)
                                         : SheetSession.Outcome(message: result.providerMessage ?? failure, details: failure))
            } else {
                sheet.end()
            }
            return
        }
        if let failure { showInDialog(failure) }
        guard sharing, !options.json, let success = success() else { return }
        if interactiveTerminal() != nil {
            StandardStreams.err(TerminalText.visible(success.line) + "\n")
        } else if let dialog, let file = success.file {
            dialog.showSaved(success.line, file: file)
        }
    }

    /// Prints the JSON result for an outcome that performed nothing, and returns the failure.
    private func fail(_ status: ExitStatus, activity: String?, _ message: Phrase?) -> CommandFailure {
        if options.json {
            StandardStreams.out(JSONShapes.result(activity: activity, completed: false, returnedItems: [], error: message?.description) + "\n")
        }
        return CommandFailure(status, message)
    }

    private func unavailableReason(_ type: String, declined: Bool, reason: String?, exclusions: Exclusions) -> Phrase {
        guard let (provider, activity) = invocation.registry.activity(ofType: type) else {
            return Phrase("no provider offers activity type \(type)")
        }
        if let reason = exclusions.reason(excluding: type, provider: provider.id) {
            return Phrase("\(type) is not offered: \(reason)")
        }
        // Past the manifest's rules, only its can-perform hook said no: the provider
        // decides (Hand Off with no paired device, Print to PDF with no loader).
        if declined, let reason {
            return Phrase("\(type) cannot perform on these items: \(reason)")
        }
        if declined, let hook = activity.hooks.canPerform {
            return Phrase("\(type) cannot perform on these items: its can-perform hook (\(hook.symbol)) declined them")
        }
        return Phrase("\(type) cannot perform on these items")
    }

    private func describe(_ items: [Item]) -> Phrase {
        if items.count == 1, let item = items.first {
            if let path = item.path { return Phrase("\(path) (\(item.contentType))") }
            return Phrase("the \(item.kind.rawValue) item (\(item.contentType))")
        }
        return items.isEmpty ? Phrase("no items") : Phrase("these \(items.count) items")
    }

    private func describeReturned(_ item: Item) -> String {
        switch item.kind {
        case .file: return item.path ?? ""
        case .url: return item.url ?? ""
        case .text: return item.text ?? ""
        case .data: return "(\(item.size) bytes of \(item.contentType))"
        }
    }
}
