import ActShareHandoff
import Testing

/// The per-device part of `handoff send`'s progress line.
@Suite struct TransferProgressTests {
    @Test func eachDeviceHasItsShare() {
        let parts = [TransferProgress(device: "beta", bytes: 60, total: 100), TransferProgress(device: "g\u{1B}[2J", bytes: 300, total: 100),
                     TransferProgress(device: "empty", bytes: 0, total: 0)]
        #expect(TransferProgress.describe(parts) == "beta 60%, g\\e[2J 100%, empty 100%")
    }
}
