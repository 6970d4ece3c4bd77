import ActShareCore
import ActShareHandoff

/// An error of the daemon's: its words and the exit code the CLI ends with, every case
/// named in its `+Words.swift`. Its `description` is its words in English, as the log
/// shows them and a peer reads them in an `error` frame; the CLI prints the ``phrase`` in
/// the person's language (the control protocol carries it).
protocol WordedError: Error, Sendable, CustomStringConvertible {
    var phrase: Phrase { get }
    var exitCode: HandoffFailureCode { get }
}

extension WordedError {
    var description: String { phrase.description }
}
