/// Wrong PINs by host (``ClientAddress/host(_:)``: an IPv6 /64 is one): after
/// ``LocalSendServer/pinAttempts`` a host is refused for ``lockSeconds`` (a PIN of 4
/// digits would otherwise fall to 10,000 tries, or to as many addresses as a /64 holds).
actor PinAttempts {
    static let lockSeconds = 60.0

    private var failures: [String: (count: Int, last: Double)] = [:]

    func mayTry(_ address: String) -> Bool {
        let address = ClientAddress.host(address)
        guard let record = failures[address] else { return true }
        if LocalSendDiscovery.now() - record.last > Self.lockSeconds {
            failures[address] = nil
            return true
        }
        return record.count < LocalSendServer.pinAttempts
    }

    func failed(_ address: String) {
        let address = ClientAddress.host(address)
        if failures.count > 1024 { failures = failures.filter { LocalSendDiscovery.now() - $0.value.last <= Self.lockSeconds } }
        failures[address] = ((failures[address]?.count ?? 0) + 1, LocalSendDiscovery.now())
    }
}
