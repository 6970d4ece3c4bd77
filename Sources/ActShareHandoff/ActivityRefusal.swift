/// Why an activity was refused: one sentence, as in "its id is not 16 hex digits".
public struct ActivityRefusal: Error, Sendable {
    public var message: String
}

