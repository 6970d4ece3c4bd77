import NIOConcurrencyHelpers

/// What ``PairingFlow`` keeps: the one pairing window `handoff pair --wait` opens, and
/// the recent attempts, limited so that nobody can try code after code.
actor PairingGate {
    private var window: PairingWindow?
    private var attempts: [ContinuousClock.Instant] = []
    /// Whether a window is open, for TLS verification callbacks, which cannot wait for
    /// the actor: while it is, an unknown certificate may connect to pair.
    nonisolated let isOpen = NIOLockedValueBox(false)

    /// Opens the window for one incoming pairing; nil if one is open already.
    func open() -> PairingWindow? {
        guard window == nil else { return nil }
        let opened = PairingWindow()
        window = opened
        isOpen.withLockedValue { $0 = true }
        DaemonLog.line(Self.openedLine)
        return opened
    }

    /// The open window, taken by the first pairing request (nil: refuse the request).
    func take() -> PairingWindow? {
        defer {
            if window != nil { DaemonLog.line(Self.closedLine) }
            window = nil
            isOpen.withLockedValue { $0 = false }
        }
        return window
    }

    func close(_ closing: PairingWindow) {
        if window === closing {
            window = nil
            isOpen.withLockedValue { $0 = false }
            DaemonLog.line(Self.closedLine)
        }
    }

    /// What the log says as the window opens and closes (what a test waits for).
    static let openedLine = "pairing: waiting for a device to pair"
    static let closedLine = "pairing: no longer waiting"

    /// Whether a pairing attempt may start now: at most three in any ten seconds.
    func mayAttempt() -> Bool {
        let now = ContinuousClock.now
        attempts.removeAll { now - $0 > .seconds(10) }
        guard attempts.count < 3 else { return false }
        attempts.append(now)
        return true
    }
}
