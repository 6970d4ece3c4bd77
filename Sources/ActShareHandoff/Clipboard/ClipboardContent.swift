/// What `clipboard-push` offers when it is not this device's clipboard: text, or files
/// (absolute paths), put on the other devices' clipboards as if copied there — "Copy to
/// device", which needs no clipboard here at all (a compositor without data-control, a
/// terminal without a display).
public enum ClipboardContent: Sendable, Equatable {
    case text(String)
    case files([String])
}
