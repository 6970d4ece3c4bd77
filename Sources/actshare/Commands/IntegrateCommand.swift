import ActShareCore
import ArgumentParser

/// `actshare integrate FILE-MANAGER [--uninstall]`: a "Share" entry in a file manager.
struct IntegrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "integrate",
        abstract: "Add a Share entry to a file manager's menu for the selected files (or remove it).",
        discussion: """
            For the current user: nautilus and caja get a script in their Scripts menu, nemo \
            an action, dolphin a Share submenu with one entry per activity that takes files \
            (each shown for the MIME types its manifest accepts), thunar an action in \
            uca.xml beside the user's own. Running it again brings the entries up to date; \
            --uninstall removes only what actshare added. The entries run this actshare, \
            which opens the share sheet's window (or zenity or kdialog) when started without a terminal.
            """)

    @Argument(help: ArgumentHelp("nautilus, nemo, caja, dolphin or thunar.", valueName: "file-manager"))
    var fileManager: FileManagerKind

    @Flag(help: "Remove what actshare added, and nothing else.")
    var uninstall = false

    @Option(help: ArgumentHelp("Read this config file instead of $XDG_CONFIG_HOME/actshare/config.yaml.", valueName: "file"), completion: .file())
    var config: String?

    func run() throws {
        guard let actshare = FileSystem.executablePath else {
            throw CommandFailure(.failed, "cannot tell where this actshare is (/proc/self/exe)")
        }
        let xdg = XDGDirectories.fromEnvironment()
        var activities: [(type: String, title: String, image: String, mimeTypes: [String])] = []
        if fileManager == .dolphin && !uninstall {
            let invocation = try Invocation(configFile: config)
            let exclusions = Exclusions(config: invocation.config, exclude: [], only: [])
            for provider in invocation.registry.providers {
                for activity in provider.activities {
                    guard exclusions.reason(excluding: activity.type, provider: provider.id) == nil,
                          activity.accepts.kinds?.contains(.file) ?? true
                    else { continue }
                    // Any file is an application/octet-stream (every file type inherits it);
                    // major/* stays as it is.
                    let any = "application/octet-stream"
                    let types = activity.accepts.contentTypes.map { $0.map { $0 == "*/*" || $0 == "*" ? any : $0 } } ?? [any]
                    activities.append((activity.type, activity.title, activity.image, types))
                }
            }
        }
        let integration = FileManagerIntegration(
            kind: fileManager, actshare: actshare, dataHome: xdg.dataHome, configHome: xdg.configHome,
            configDirs: xdg.configDirs, activities: activities)
        let files = uninstall ? try integration.uninstall() : try integration.install()
        let verb = fileManager == .thunar ? "updated" : uninstall ? "removed" : "wrote"
        if files.isEmpty {
            StandardStreams.out("nothing of actshare's to remove for \(fileManager.rawValue)\n")
        }
        for file in files { StandardStreams.out("\(verb) \(file)\n") }
    }
}
