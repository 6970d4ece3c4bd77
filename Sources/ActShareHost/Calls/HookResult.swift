import ActShareCore

/// What a hook's raw return value means, the same wherever the hook ran.
enum HookResult {
    /// A can-perform answer (`verdict`: non-zero int32; `bool`).
    static func verdict(_ raw: UInt64, returns: HookReturn) -> Bool {
        returns == .bool ? (raw & 0xFF) != 0 : Int32(truncatingIfNeeded: raw) != 0
    }

    /// A prepare or perform outcome, and what was wrong with the value if it was not one
    /// the return word allows (`returned 42, which is not a status`). A `string` hook
    /// succeeds when it returned a string, which becomes a returned text item.
    static func status(_ raw: UInt64, returns: HookReturn, returnedString: Bool) -> (PerformOutcome.Status, problem: String?) {
        switch returns {
        case .status, .verdict:
            let value = Int32(truncatingIfNeeded: raw)
            switch value {
            case 0: return (.done, nil)
            case 1: return (.failed, nil)
            case 2: return (.cancelled, nil)
            case 3: return (.badInput, nil)
            default: return (.failed, "returned \(value), which is not a status")
            }
        case .bool: return ((raw & 0xFF) != 0 ? .done : .failed, nil)
        case .string: return (returnedString ? .done : .failed, nil)
        case .void: return (.done, nil)
        }
    }

    /// How a trace shows a raw result.
    static func describe(_ raw: UInt64, returns: HookReturn, role: HookDeclaration.Role) -> String {
        switch returns {
        case .verdict, .bool:
            let yes = verdict(raw, returns: returns)
            if role == .canPerform { return yes ? "yes" : "no" }
            return yes ? "true (done)" : "false (failed)"
        case .status:
            let value = Int32(truncatingIfNeeded: raw)
            let names: [Int32: String] = [0: "done", 1: "failed", 2: "cancelled", 3: "bad input"]
            return "\(value) (\(names[value] ?? "not a status"))"
        case .string: return raw == 0 ? "NULL (failed)" : "a string"
        case .void: return "nothing (done)"
        }
    }
}
