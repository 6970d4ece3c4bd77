import Foundation

/// Waits until `condition` holds — the event that proves a thing happened, or could
/// have — polling it with pauses that grow from 10 ms to `every` (200 ms; shorter to catch
/// a passing state, such as a file half arrived). False only when it still
/// does not hold after `bound` seconds: a guard against a test that would hang, set far
/// above any wait seen on CI's two loaded cores, never a measure of speed.
@discardableResult
public func eventually(bound: Double = 120, every: Double = 0.2, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(bound)
    var pause = min(0.01, every)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: pause)
        pause = min(pause * 2, every)
    }
}
