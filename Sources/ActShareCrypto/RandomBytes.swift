/// Bytes from the system's random source (getrandom): nonces, ids, tokens and IVs.
public enum RandomBytes {
    public static func make(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
