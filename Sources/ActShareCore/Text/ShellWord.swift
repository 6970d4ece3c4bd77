/// A word as a person pastes it into a shell: a command actshare suggests in a message
/// (`actshare handoff pair 'Büro PC'`), or a path in a file manager's script. For people
/// and scripts they install: actshare itself never runs a shell.
public enum ShellWord {
    /// `word` in single quotes, a `'` in it closed, escaped and reopened.
    public static func quoted(_ word: String) -> String {
        "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
