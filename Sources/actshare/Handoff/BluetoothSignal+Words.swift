import ActShareCore
import ActShareHandoff

extension BluetoothSignal {
    /// Whether phones were asked by Bluetooth too, in the person's words; where they were
    /// not, that only the QR code reaches a phone that is not already looking.
    var sentence: String {
        if let adapter {
            return Localized.text("Quick Share's Bluetooth signal is sent too (%s): phones nearby with Quick Share offer to receive.", TerminalText.visible(adapter))
        }
        let why = switch unavailable ?? .failed {
        case .noBus, .noBlueZ: Localized.text("Bluetooth is not running here (no BlueZ)")
        case .noAdapter: Localized.text("There is no Bluetooth adapter here")
        case .poweredOff: Localized.text("Bluetooth is off")
        case .noLE: Localized.text("The Bluetooth adapter cannot send Bluetooth LE signals")
        case .refused: Localized.text("Bluetooth refused Quick Share's signal")
        case .noHelper, .failed: Localized.text("Quick Share's Bluetooth signal could not be sent")
        }
        return Localized.text("%s: only the QR code reaches a phone.", why)
    }
}
