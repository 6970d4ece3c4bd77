import Foundation

/// What a process under test has started, read from /proc: the event a test waits for
/// when a program shows nothing else (a helper started, a file being written).
enum ProcessTree {
    /// `pid` and every process below it.
    static func descendants(of pid: Int32) -> [Int32] {
        var pending = [pid], seen: [Int32] = []
        while let next = pending.popLast() {
            guard !seen.contains(next) else { continue }
            seen.append(next)
            for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(next)/task")) ?? [] {
                let children = (try? String(contentsOfFile: "/proc/\(next)/task/\(task)/children", encoding: .utf8)) ?? ""
                pending += children.split(separator: " ").compactMap { Int32($0) }
            }
        }
        return seen
    }

    /// How many processes below `pid` (itself included) run `program` (its file name).
    static func count(_ program: String, under pid: Int32) -> Int {
        descendants(of: pid).filter { pid in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")).map { ($0 as NSString).lastPathComponent == program } ?? false
        }.count
    }

    /// Whether `pid` or a process below it has a file in `directory` open (an O_TMPFILE
    /// shows there as `directory/#N (deleted)`).
    static func holdsAFile(in directory: String, under pid: Int32) -> Bool {
        descendants(of: pid).contains { pid in
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)"))?.hasPrefix(directory + "/") == true
            }
        }
    }
}
