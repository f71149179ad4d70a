import Foundation

/// Virtual time: ``now`` moves only when something sleeps on the clock, instantly.
///
/// Simulated work (a slow back end, a retry pause) sleeps on this clock. Inside
/// ``withDeadline(_:_:)`` a sleep that would cross the deadline stops at the deadline instead,
/// and the operation is abandoned, just as a real timeout would abandon it. Time is
/// deterministic: the same scenario always ends at the same virtual instant.
///
/// ```swift
/// let clock = VirtualClock()
/// let answer = try await clock.withDeadline(.seconds(5)) {
///     try await clock.sleep(for: .seconds(60))   // a back end that hangs
///     return "late"
/// }
/// answer        // nil
/// clock.now     // 5 seconds
/// ```
public final class VirtualClock: ULCClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Duration = .zero
    private var deadlines: [Duration] = []

    public init() {}

    public var now: Duration {
        lock.withLock { current }
    }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        try lock.withLock {
            let target = current + max(duration, .zero)
            if let limit = deadlines.min(), target > limit {
                current = max(current, limit)
                throw DeadlinePassed(deadline: limit)
            }
            current = target
        }
    }

    public func withDeadline<T: Sendable>(_ deadline: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T? {
        let started: Bool = lock.withLock {
            guard current < deadline else { return false }
            deadlines.append(deadline)
            return true
        }
        guard started else { return nil }
        defer {
            lock.withLock {
                if let i = deadlines.lastIndex(of: deadline) { deadlines.remove(at: i) }
            }
        }
        do {
            return try await operation()
        } catch let passed as DeadlinePassed where passed.deadline == deadline {
            return nil
        }
    }

    struct DeadlinePassed: Error {
        let deadline: Duration
    }
}
