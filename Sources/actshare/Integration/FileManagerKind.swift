import ArgumentParser

/// A file manager `actshare integrate` can add a "Share" entry to.
enum FileManagerKind: String, CaseIterable, ExpressibleByArgument {
    case nautilus, nemo, caja, dolphin, thunar
}
