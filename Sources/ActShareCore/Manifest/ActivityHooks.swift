/// The hooks of one activity: `perform` always, `can-perform` and `prepare` if declared.
public struct ActivityHooks: Sendable {
    public var canPerform: HookDeclaration?
    public var prepare: HookDeclaration?
    public var perform: HookDeclaration

    public init(canPerform: HookDeclaration? = nil, prepare: HookDeclaration? = nil, perform: HookDeclaration) {
        self.canPerform = canPerform
        self.prepare = prepare
        self.perform = perform
    }

    /// Every declared hook.
    public var all: [HookDeclaration] { [canPerform, prepare, perform].compactMap { $0 } }
}
