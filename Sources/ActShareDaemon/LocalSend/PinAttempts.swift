/// Wrong PINs by address: after ``LocalSendServer/pinAttempts`` an address is refused for
/// ``lockSeconds`` (a PIN of 4 digits would otherwise fall to 10,000 tries).
actor PinAttempts {
    static let lockSeconds = 60.0

    private var failures: [String: (count: Int, last: Double)] = [:]

    func mayTry(_ address: String) -> Bool {
        guard let record = failures[address] else { return true }
        if LocalSendDiscovery.now() - record.last > Self.lockSeconds {
            failures[address] = nil
            return true
        }
        return record.count < LocalSendServer.pinAttempts
    }

    func failed(_ address: String) {
        if failures.count > 1024 { failures = failures.filter { LocalSendDiscovery.now() - $0.value.last <= Self.lockSeconds } }
        failures[address] = ((failures[address]?.count ?? 0) + 1, LocalSendDiscovery.now())
    }
}
