import ActShareCore

/// The errors found in one manifest.
///
/// Decoding stops at the first error for routing (one line per broken provider), and
/// goes on for `providers check`, which prints them all: each independent key is a step
/// run through ``attempt(_:)``.
final class ManifestProblems {
    /// Whether errors are collected (or thrown at once).
    let collecting: Bool
    private(set) var errors: [ActShareError] = []
    /// What is allowed but likely a mistake (a library found outside the manifest's directory).
    var warnings: [Diagnostic] = []

    init(collecting: Bool) {
        self.collecting = collecting
    }

    /// Runs `step`: its error is thrown, or when collecting, recorded and nil returned.
    @discardableResult
    func attempt<T>(_ step: () throws -> T) throws -> T? {
        do {
            return try step()
        } catch let error as ActShareError where collecting {
            record(error)
            return nil
        }
    }

    /// Every error and warning, in file order.
    var diagnostics: [Diagnostic] {
        (errors.map(Diagnostic.init) + warnings).enumerated().sorted { left, right in
            let (a, b) = (left.element.location, right.element.location)
            if let a, let b, (a.line, a.column) != (b.line, b.column) { return (a.line, a.column) < (b.line, b.column) }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// Records `error` once (a step that failed inside another is not counted twice).
    func record(_ error: any Error) {
        let error = ActShareError.wrapping(error)
        if !errors.contains(where: { $0.description == error.description }) { errors.append(error) }
    }
}
