/// The built-in Copy activity (Providers/Clipboard/clipboard.yaml), as actshare refers to it.
enum CopyActivity {
    static let type = "org.actshare.copy-to-clipboard"
}
