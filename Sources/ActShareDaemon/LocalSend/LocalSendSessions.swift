/// The accepted LocalSend transfers being received, by session id: at most
/// ``maximumSessions`` at once and one per address; one idle for a minute is dropped with
/// what it received.
actor LocalSendSessions {
    static let maximumSessions = 4

    private var sessions: [String: LocalSendSession] = [:]

    /// Drops the stale ones; whether `address` may open a session now.
    func hasRoom(for address: String) -> Bool {
        sweep()
        return sessions.count < Self.maximumSessions && !sessions.values.contains { ClientAddress.host($0.address) == ClientAddress.host(address) }
    }

    func add(_ session: LocalSendSession) { sessions[session.id] = session }

    func session(_ id: String) -> LocalSendSession? {
        sweep()
        return sessions[id]
    }

    func remove(_ id: String) { sessions[id] = nil }

    /// Stops the session the user accepted as request `requestID`: nothing of it stays.
    /// Whether there was one.
    func cancel(requestID: String) -> Bool {
        guard let (id, session) = sessions.first(where: { $0.value.requestID == requestID }) else { return false }
        session.discard()
        sessions[id] = nil
        DaemonLog.line("stopped the LocalSend transfer from \(session.sender) (\(requestID)): nothing of it is kept")
        return true
    }

    private func sweep() {
        for (id, session) in sessions where session.isStale {
            session.discard()
            sessions[id] = nil
            DaemonLog.line("the LocalSend transfer from \(session.sender) stopped without its files: nothing came for \(Int(LocalSendSession.idleSeconds)) s")
        }
    }
}
