import Dispatch
import Foundation
import LinkJSON

/// The in-process half of ``Runner``: chunks of cases run as tasks on Swift's shared pool, and
/// a watchdog on a dispatch queue (not on that pool) looks at them four times per limit.
///
/// - A case still running `limit` after it started is **left behind**: it is recorded
///   `timedOut`, the chunk's results so far are handed on at once, and the cases after it in its
///   chunk go back to the runner as a chunk of their own. Its task keeps its thread until the
///   case returns, if ever; what it returns then is dropped.
/// - Once the run is asked to stop, a case still running after `grace` is left behind without a
///   result (as an adapter's requests in flight are).
/// - While cases are left behind, the watchdog also sends a probe task to the pool. A probe that
///   has not run after `starvedAfter` (the limit, unless a test sets it), while no case
///   completed, means every thread of the pool is held, so nothing else, the runner included,
///   will run again: the watchdog takes every result not yet handed on and calls
///   ``Runner/onStarved`` with them, from its own thread. The runner then ends as soon as it runs
///   again, with no new case.
///
/// Cost on the path of every case: one uncontended lock (the clock was read for its duration
/// already). docs/benchmarks.md, 2026-11-30, has the measurements.
final class InProcessRun: @unchecked Sendable {
    /// What a chunk, or the watchdog on its behalf, hands the runner. Each chunk ends in exactly
    /// one event.
    enum Event {
        /// The chunk ran to its end, or stopped between cases.
        case done([CaseResult])
        /// The chunk's case was left behind: the results before it (and its `timedOut`, unless the
        /// run was stopping), and the cases after it, not run yet.
        case leftBehind([CaseResult], remaining: Range<Int>)
    }

    /// One chunk's state, shared by its task and the watchdog.
    final class Chunk: @unchecked Sendable {
        /// Guarded by the chunk's lock. One struct, reached through one access per lock: each
        /// access to a class's stored property is checked for exclusivity at run time, and five
        /// of them a case cost a few per cent of the ULC suite in process.
        struct State {
            var results: [CaseResult] = []
            /// The case running, or -1 between cases.
            var current = -1
            var since = ContinuousClock.now
            /// The case running was left behind: its result will be dropped.
            var abandoned = false
            /// No further case is to start (the runner gave up, or the pool is held).
            var halted = false
            /// Cases this chunk completed: the watchdog's measure of progress.
            var completed = 0
        }

        let range: Range<Int>
        private let lock = NSLock()
        private var state = State()

        init(range: Range<Int>) {
            self.range = range
            state.results.reserveCapacity(range.count)
        }

        func withState<R>(_ body: (inout State) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&state)
        }

        /// The case at `index` starts now; false when no further case is to start.
        func begin(_ index: Int, at instant: ContinuousClock.Instant) -> Bool {
            withState { state in
                if state.halted || state.abandoned { return false }
                state.current = index
                state.since = instant
                return true
            }
        }

        /// What a chunk does after a case returned.
        enum Next { case run, stop, leftBehind }

        /// The case returned with `result`; the case at `next` (if any) starts at `instant`,
        /// under the same lock. `.leftBehind` when the case had been left behind (its result is
        /// dropped), `.stop` when no further case is to start.
        func complete(_ result: consuming CaseResult, next: Int?, at instant: ContinuousClock.Instant) -> Next {
            lock.lock()
            defer { lock.unlock() }
            return Self.advance(&state, result, next: next, at: instant)
        }

        private static func advance(_ state: inout State, _ result: consuming CaseResult, next: Int?,
                                    at instant: ContinuousClock.Instant) -> Next {
            if state.abandoned { return .leftBehind }
            state.results.append(result)
            state.completed &+= 1
            guard let next, !state.halted else {
                state.current = -1
                return .stop
            }
            state.current = next
            state.since = instant
            return .run
        }

        func takeResults() -> [CaseResult] {
            withState { state in
                defer { state.results = [] }
                return state.results
            }
        }
    }

    let limit: Duration
    /// How long a probe may wait, while no chunk completes a case, before the pool is taken to
    /// be held.
    let starvedAfter: Duration
    let grace: Duration
    let shouldStop: @Sendable () -> Bool
    /// The `timedOut` result of the case at an index, with the message given.
    let timedOut: @Sendable (Int, String) -> CaseResult
    let onStarved: (@Sendable ([CaseResult], String) -> Void)?
    /// The case ids, for messages.
    let caseID: @Sendable (Int) -> String

    /// Held while the runner hands results to its sink, and by the watchdog while it closes the
    /// run: results go either to the sink or to `onStarved`, never to both, and the sink is not
    /// called once `onStarved` may have finished with the store.
    private let handing = NSLock()
    private let lock = NSLock()
    // Guarded by `lock`.
    private var live: [ObjectIdentifier: Chunk] = [:]
    private var events: [Event] = []
    private var waiter: CheckedContinuation<Event?, Never>?
    /// The event the runner was given and has not handed on yet (its task may be waiting for
    /// the pool): the watchdog takes its results too when it closes the run.
    private var inHand: Event?
    private var closed = false
    private var aborted = false
    /// Cases left behind whose task has not returned yet, by case index.
    private var held: Set<Int> = []
    private var probeSent: ContinuousClock.Instant?
    /// The cases completed when the probe's wait began.
    private var probeProgress = 0
    /// Cases completed by chunks no longer live.
    private var endedProgress = 0
    private var stopSeen: ContinuousClock.Instant?
    private var timer: DispatchSourceTimer?

    init(limit: Duration, starvedAfter: Duration, grace: Duration, shouldStop: @escaping @Sendable () -> Bool,
         timedOut: @escaping @Sendable (Int, String) -> CaseResult, caseID: @escaping @Sendable (Int) -> String,
         onStarved: (@Sendable ([CaseResult], String) -> Void)?) {
        self.limit = limit
        self.starvedAfter = starvedAfter
        self.grace = grace
        self.shouldStop = shouldStop
        self.timedOut = timedOut
        self.caseID = caseID
        self.onStarved = onStarved
    }

    /// The limit for messages: "60 s", "0.25 s".
    var limitText: String { (Double(limit.nanoseconds) / 1e9).formattedCompactly + " s" }

    /// Whether the run is stopping: asked to, or the runner gave up.
    var stopping: Bool { shouldStop() || lock.withLock { aborted } }

    /// How often the watchdog looks: a quarter of the limit, between 10 and 250 ms.
    var tick: Duration { min(max(limit / 4, .milliseconds(10)), .milliseconds(250)) }

    func startWatchdog() {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "linkconform in-process watchdog"))
        let every = DispatchTimeInterval.nanoseconds(Int(tick.nanoseconds))
        timer.schedule(deadline: .now() + every, repeating: every, leeway: .milliseconds(5))
        timer.setEventHandler { [self] in look() }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    /// The runner is done: a look already under way can no longer close the run.
    func stopWatchdog() {
        lock.withLock {
            closed = true
            timer?.cancel()
            timer = nil
        }
    }

    /// The runner gave up (its sink threw): chunks stop between cases, and the watchdog leaves
    /// a case still running after `grace` behind, as on a stop.
    func abort() {
        let chunks = lock.withLock {
            aborted = true
            return Array(live.values)
        }
        for chunk in chunks { chunk.withState { $0.halted = true } }
    }

    func register(_ range: Range<Int>) -> Chunk {
        let chunk = Chunk(range: range)
        let halted = lock.withLock {
            live[ObjectIdentifier(chunk)] = chunk
            return aborted || closed
        }
        if halted { chunk.withState { $0.halted = true } }
        return chunk
    }

    /// The chunk's task ran its last case, or stopped between cases.
    func finished(_ chunk: Chunk) {
        let results = chunk.takeResults()
        send(.done(results), removing: chunk)
    }

    /// A task whose case was left behind returned after all.
    func returned(_ index: Int) {
        lock.withLock { _ = held.remove(index) }
    }

    /// The next event, in the order they came; nil once the watchdog found the pool held (its
    /// events went to ``Runner/onStarved``).
    func next() async -> Event? {
        await withCheckedContinuation { park($0) }
    }

    private func park(_ continuation: CheckedContinuation<Event?, Never>) {
        lock.lock()
        if !events.isEmpty {
            let event = events.removeFirst()
            inHand = event
            lock.unlock()
            continuation.resume(returning: event)
        } else if closed {
            lock.unlock()
            continuation.resume(returning: nil)
        } else {
            waiter = continuation
            lock.unlock()
        }
    }

    /// Runs `body` (the runner handing an event's results on) unless the run was closed; false
    /// when it was.
    func handOn(_ body: () throws -> Void) rethrows -> Bool {
        handing.lock()
        defer { handing.unlock() }
        if lock.withLock({ closed }) { return false }
        try body()
        lock.withLock { inHand = nil }
        return true
    }

    private func send(_ event: Event, removing chunk: Chunk) {
        let completed = chunk.withState { $0.completed }
        lock.lock()
        if live.removeValue(forKey: ObjectIdentifier(chunk)) != nil { endedProgress &+= completed }
        if closed {
            lock.unlock()
            return
        }
        if let waiter {
            self.waiter = nil
            inHand = event
            lock.unlock()
            waiter.resume(returning: event)
        } else {
            events.append(event)
            lock.unlock()
        }
    }

    /// The watchdog's look at every chunk, on its own queue.
    private func look() {
        let now = ContinuousClock.now
        let stopping = self.stopping
        let (chunks, stopOver): ([Chunk], Bool) = lock.withLock {
            if stopping && stopSeen == nil { stopSeen = now }
            return (Array(live.values), stopSeen.map { $0.duration(to: now) > grace } ?? false)
        }
        var progress = 0
        for chunk in chunks {
            // The case left behind, with the results before it; nil when none is.
            let taken: (index: Int, results: [CaseResult], over: Bool)? = chunk.withState { state in
                progress &+= state.completed
                let index = state.current
                guard index >= 0, !state.abandoned else { return nil }
                let over = state.since.duration(to: now) > limit
                guard over || stopOver else { return nil }
                state.abandoned = true
                defer { state.results = [] }
                return (index, state.results, over)
            }
            guard let (index, before, over) = taken else { continue }
            var results = before
            lock.withLock { _ = held.insert(index) }
            // On a stop the case gets no result, and the rest of its chunk is not run.
            if over && !stopping {
                results.append(timedOut(index, "did not return within \(limitText) in process; the run went on without it "
                                        + "(its thread stays busy until it returns, and what it returns then is dropped)"))
            }
            let remaining = stopping ? index..<index : (index + 1)..<chunk.range.upperBound
            send(.leftBehind(results, remaining: remaining), removing: chunk)
        }
        probe(now, progress: progress)
    }

    /// While cases are held, a probe task on the pool. It not having run after `starvedAfter`,
    /// while no chunk completed a case, means the pool has no thread left. (A chunk runs its cases
    /// without giving its thread up in between, so a probe can wait long behind slow cases that
    /// do return: progress restarts the wait.)
    private func probe(_ now: ContinuousClock.Instant, progress live: Int) {
        let (due, starved): (Bool, [Int]?) = lock.withLock {
            // Without onStarved, nobody could take the results: the runner waits for a thread.
            guard !held.isEmpty, !closed, onStarved != nil else {
                probeSent = nil
                return (false, nil)
            }
            let progress = endedProgress &+ live
            guard let sent = probeSent else {
                probeSent = now
                probeProgress = progress
                return (true, nil)
            }
            if progress != probeProgress {
                probeSent = now
                probeProgress = progress
                return (false, nil)
            }
            return (false, sent.duration(to: now) > starvedAfter ? held.sorted() : nil)
        }
        if due {
            Task.detached { [self] in lock.withLock { probeSent = nil } }
        }
        if let starved { starve(starved) }
    }

    /// Every thread of the pool is held: hands every result not yet taken to `onStarved`, and
    /// closes the run.
    private func starve(_ held: [Int]) {
        handing.lock()
        defer { handing.unlock() }
        let closing: ([Event], [Chunk], CheckedContinuation<Event?, Never>?)? = lock.withLock {
            // Closed already: the runner returned (or the pool was found held before).
            guard !closed else { return nil }
            closed = true
            defer {
                events = []
                inHand = nil
                live = [:]
                self.waiter = nil
                timer?.cancel()
                timer = nil
            }
            return ((inHand.map { [$0] } ?? []) + events, Array(live.values), self.waiter)
        }
        guard let (queued, chunks, waiter) = closing else { return }
        var results: [CaseResult] = []
        for event in queued {
            switch event {
            case .done(let r), .leftBehind(let r, _): results += r
            }
        }
        // Chunks still live (running a case, or waiting for a thread): their results so far are
        // taken, and they start no further case.
        for chunk in chunks {
            results += chunk.withState { state in
                state.abandoned = true
                state.halted = true
                defer { state.results = [] }
                return state.results
            }
        }
        let ids = held.prefix(5).map(caseID).joined(separator: ", ") + (held.count > 5 ? ", ..." : "")
        let message = "\(held.count) in-process case\(held.count == 1 ? "" : "s") that did not return within "
            + "\(limitText) (\(ids)) hold every thread of Swift's shared pool: nothing else can run, so the run "
            + "stops here with the results it has"
        onStarved?(results, message)
        waiter?.resume(returning: nil)
    }
}
