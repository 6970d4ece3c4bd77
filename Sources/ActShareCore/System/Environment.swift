#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads and sets environment variables without Foundation.
public enum Environment {
    /// Sets `name` for this process and the programs it starts. Only before any thread
    /// that could read the environment runs (setenv is not thread-safe).
    public static func set(_ name: String, _ value: String) {
        setenv(name, value, 1)
    }

    public static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
