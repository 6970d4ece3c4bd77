/// How the host calls one hook of an activity: the symbol, its arguments and its return.
public struct HookDeclaration: Sendable {
    /// The three hooks an activity may have.
    public enum Role: String, Sendable {
        case canPerform = "can-perform"
        case prepare
        case perform
    }

    public var role: Role
    /// The C symbol in the provider's library.
    public var symbol: String
    public var arguments: [HookArgument]
    public var returns: HookReturn
    /// True when the manifest gave a bare symbol, which has the standard signature.
    public var isStandard: Bool
    /// Where the hook is declared, for errors found when the library is loaded.
    public var location: SourceLocation

    public init(
        role: Role, symbol: String, arguments: [HookArgument], returns: HookReturn, isStandard: Bool,
        location: SourceLocation
    ) {
        self.role = role
        self.symbol = symbol
        self.arguments = arguments
        self.returns = returns
        self.isStandard = isStandard
        self.location = location
    }

    /// A hook with the standard signature of `provider.h` for its role.
    public static func standard(_ role: Role, symbol: String, at location: SourceLocation) -> HookDeclaration {
        switch role {
        case .canPerform:
            return HookDeclaration(role: role, symbol: symbol, arguments: [.request], returns: .verdict, isStandard: true, location: location)
        case .prepare, .perform:
            return HookDeclaration(role: role, symbol: symbol, arguments: [.request, .session], returns: .status, isStandard: true, location: location)
        }
    }

    /// Whether the hook runs once per item rather than once for the request.
    public var isPerItem: Bool { arguments.contains { $0.isPerItem } }

    /// The return words a manifest may give for this role.
    public static func allowedReturns(for role: Role) -> [HookReturn] {
        switch role {
        case .canPerform: return [.bool]
        case .prepare: return [.status, .bool, .void]
        case .perform: return [.status, .bool, .string, .void]
        }
    }
}
