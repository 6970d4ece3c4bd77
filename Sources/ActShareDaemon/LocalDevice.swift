import ActShareHandoff

/// This device as its peers know it: the name and port it announces, the identity its
/// pin comes from, and where its files are. Fixed for the daemon's life.
struct LocalDevice: Sendable {
    let name: String
    let port: Int
    let identity: Identity
    let paths: HandoffPaths
}
