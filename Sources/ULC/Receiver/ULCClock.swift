import Foundation

/// The receiver's sense of time: a monotonic "now", sleeping, and deadline-bounded waiting.
///
/// ``SystemULCClock`` is the real one; ``VirtualClock`` moves time forward only when someone
/// sleeps on it, so a 20-second budget costs no real time in tests and in the conformance suite.
public protocol ULCClock: Sendable {
    /// Time elapsed since the clock's fixed origin.
    var now: Duration { get }
    /// Waits for `duration`.
    func sleep(for duration: Duration) async throws
    /// Runs `operation` and returns its result, or nil when `deadline` (on the ``now`` scale)
    /// passes first. An operation that ignores cancellation does not hold the caller up.
    func withDeadline<T: Sendable>(_ deadline: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T?
}

/// Real time, from `ContinuousClock`.
public struct SystemULCClock: ULCClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var now: Duration { origin.duration(to: ContinuousClock.now) }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }

    public func withDeadline<T: Sendable>(_ deadline: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T? {
        let remaining = deadline - now
        guard remaining > .zero else { return nil }
        // Unstructured tasks and a resume-once continuation: a task group would wait for an
        // operation that ignores cancellation, which is exactly the hang this guards against.
        let gate = ResumeOnce<T?>()
        return try await withCheckedThrowingContinuation { continuation in
            gate.install(continuation)
            let work = Task {
                do { gate.resume(.success(try await operation())) } catch { gate.resume(.failure(error)) }
            }
            Task {
                try? await Task.sleep(for: remaining)
                if gate.resume(.success(nil)) { work.cancel() }
            }
        }
    }
}

/// Resumes a continuation with the first result offered, and ignores the rest.
final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Error>?
    private var early: Result<T, Error>?
    private var done = false

    func install(_ c: CheckedContinuation<T, Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            c.resume(with: early)
            return
        }
        continuation = c
        lock.unlock()
    }

    /// Returns whether this call was the one that resumed.
    @discardableResult
    func resume(_ result: Result<T, Error>) -> Bool {
        lock.lock()
        guard !done else { lock.unlock(); return false }
        done = true
        if let c = continuation {
            continuation = nil
            lock.unlock()
            c.resume(with: result)
        } else {
            early = result
            lock.unlock()
        }
        return true
    }
}
