/// What the literal list says of a whole file name.
enum LiteralLookup {
    case match(String)
    /// Listed, but only for the name's exact case, and the lookup was not case-sensitive:
    /// the search stops here, as GIO's does.
    case refused
    case notListed
}
