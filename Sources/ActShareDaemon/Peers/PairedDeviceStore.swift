import NIOConcurrencyHelpers

/// The paired devices, owned by ``PeerDirectory``: the list in paired-devices.json, and
/// the two views of it that code outside the actor reads.
actor PairedDeviceStore {
    private(set) var list: PairedDevices
    /// The pins TLS verification accepts; read by its callbacks, which cannot wait for
    /// the actor.
    nonisolated let pins: NIOLockedValueBox<Set<String>>
    /// Where paired devices were paired or last seen: their connections draw on a budget
    /// of their own (ConnectionBudget).
    nonisolated let addresses: NIOLockedValueBox<Set<String>>

    init(file: String) {
        let list = PairedDevices(file: file)
        self.list = list
        pins = NIOLockedValueBox(list.pins)
        addresses = NIOLockedValueBox(Set(list.entries.map(\.host)))
    }

    func add(_ entry: PairedDevices.Entry) throws {
        try list.add(entry)
        pins.withLockedValue { $0 = list.pins }
        addresses.withLockedValue { _ = $0.insert(entry.host) }
    }

    func remove(pin: String) throws {
        try list.remove(pin: pin)
        pins.withLockedValue { $0 = list.pins }
    }

    /// A paired device proved itself from `address`: later connections from there are
    /// counted as its own. The set is bounded (a device that moves often leaves the
    /// oldest addresses to the strangers' budget).
    func saw(_ entry: PairedDevices.Entry, at address: String) {
        addresses.withLockedValue { addresses in
            if addresses.count >= 4 * max(list.entries.count, 1) + 16 { addresses = Set(list.entries.map(\.host)) }
            addresses.insert(address)
        }
    }

    /// A paired device answered at another address than the one kept: keep the new one.
    func moved(_ entry: PairedDevices.Entry, to host: String, port: Int) {
        guard var moved = list.entry(pin: entry.pin) else { return }
        moved.host = host
        moved.port = port
        try? add(moved)
    }
}
