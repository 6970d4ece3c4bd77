/// Which of a provider's hooks a helper is started for; its sandbox depends on it.
///
/// `can-perform` answers whether the provider can act on the items, with no temporary
/// files to make, so a helper that runs only such hooks has no private `TMPDIR`: it then
/// needs no file system of its own, whose user and mount namespaces cost an isolated list about half a
/// millisecond when lists follow each other (docs/PACKAGING.md). `prepare` and `perform`
/// run in a helper with the private `TMPDIR` (docs/PLUGINS.md, Permissions).
enum HookPhase: Equatable, Sendable {
    /// `can-perform` hooks only (and loading the library).
    case checking
    /// `prepare` and `perform`.
    case acting
}
