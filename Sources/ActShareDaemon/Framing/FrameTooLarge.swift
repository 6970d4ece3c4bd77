/// A peer's frame or a control line over its limit: the connection is closed.
struct FrameTooLarge: Error {}
