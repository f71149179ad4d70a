import Conformance
import Foundation
import GRDB

/// Streams one implementation's case results into the store from a thread of its own, so that
/// writing overlaps running: ``append(_:)`` queues a batch and returns; the writer commits what
/// is queued once ``CommitPolicy/rows`` results are waiting or the oldest has waited
/// ``CommitPolicy/interval``, whichever comes first, in one transaction. A process killed
/// half-way loses only what was not committed yet: the last `rows` results or `interval` of
/// them (up to ``CommitPolicy/maxQueued`` more if the disk had fallen behind).
///
/// ```swift
/// let writer = ResultWriter(store: store, run: run, implementation: id)
/// try await runner.run(implementation) { batch in try writer.append(batch) }
/// let stored = try writer.finish()
/// ```
///
/// Call ``finish()`` at the end: it waits until every queued result is committed and reports a
/// write that failed. (A writer released without it still commits what it was given.)
public final class ResultWriter: Sendable {
    /// When queued results are committed.
    public struct CommitPolicy: Sendable, Hashable {
        /// Commit once this many results are waiting.
        public var rows: Int
        /// Commit once the oldest waiting result has waited this long.
        public var interval: Duration
        /// How many results may wait before ``ResultWriter/append(_:)`` blocks until the writer
        /// catches up (bounds the memory a slow disk can take). Twice `rows` unless given: a
        /// longer queue only makes larger transactions, which measured slower.
        public var maxQueued: Int

        public init(rows: Int, interval: Duration, maxQueued: Int? = nil) {
            self.rows = max(1, rows)
            self.interval = interval
            self.maxQueued = max(self.rows, maxQueued ?? 2 * self.rows)
        }

        /// Commits every 1,000 results or 250 ms.
        public static let standard = CommitPolicy(rows: 1_000, interval: .milliseconds(250))
    }

    private let state: WriterState

    /// Starts a writer for the results of `implementation` in `run`.
    public init(store: ResultsStore, run: Int64, implementation: Int64, policy: CommitPolicy = .standard) {
        state = WriterState(store: store, run: run, implementation: implementation, policy: policy)
        let state = self.state
        let thread = Thread { state.writeUntilFinished() }
        thread.name = "linkconform results writer"
        thread.start()
    }

    deinit { state.requestFinish() }

    /// Queues a batch for writing and returns at once, unless ``CommitPolicy/maxQueued`` results
    /// are already waiting (then it waits for the writer). Throws the error of an earlier write
    /// that failed: nothing more is written after one.
    public func append(_ batch: [CaseResult]) throws(StoreError) {
        try state.append(batch)
    }

    /// Waits until everything appended is committed, stops the writer and returns how many
    /// results it wrote. Throws if a write failed.
    @discardableResult
    public func finish() throws(StoreError) -> Int {
        try state.finish()
    }

    /// Results committed so far.
    public var committed: Int { state.committedCount }

    /// Transactions committed so far.
    public var commits: Int { state.commitCount }
}

/// The queue shared by ``ResultWriter``'s callers and its thread, guarded by one condition.
private final class WriterState: @unchecked Sendable {
    let store: ResultsStore
    let run: Int64
    let implementation: Int64
    let policy: ResultWriter.CommitPolicy

    private let condition = NSCondition()
    // Everything below is guarded by `condition`.
    private var queue: [[CaseResultRow]] = []
    /// The shared outputs (large ones, by SHA-256) this writer has written: only its thread
    /// touches it.
    private var knownOutputs: Set<String> = []
    private var queuedRows = 0
    private var oldestQueued: ContinuousClock.Instant?
    private var finishing = false
    private var stopped = false
    private var failure: StoreError?
    private var committed = 0
    private var commits = 0

    init(store: ResultsStore, run: Int64, implementation: Int64, policy: ResultWriter.CommitPolicy) {
        self.store = store
        self.run = run
        self.implementation = implementation
        self.policy = policy
    }

    var committedCount: Int { condition.withLock { committed } }
    var commitCount: Int { condition.withLock { commits } }

    func append(_ results: [CaseResult]) throws(StoreError) {
        guard !results.isEmpty else { return }
        // Serialized on the caller's thread, outside the lock: the writer thread only writes.
        let batch = results.map(CaseResultRow.init)
        condition.lock()
        defer { condition.unlock() }
        while failure == nil && !finishing && queuedRows >= policy.maxQueued { condition.wait() }
        if let failure { throw failure }
        if finishing { throw StoreError(path: store.path, message: "results appended after the writer was finished") }
        queue.append(batch)
        queuedRows += batch.count
        if oldestQueued == nil {
            // The writer may be waiting with no deadline: wake it to start the interval.
            oldestQueued = .now
            condition.broadcast()
        } else if queuedRows >= policy.rows {
            condition.broadcast()
        }
    }

    func requestFinish() {
        condition.withLock {
            finishing = true
            condition.broadcast()
        }
    }

    func finish() throws(StoreError) -> Int {
        condition.lock()
        defer { condition.unlock() }
        finishing = true
        condition.broadcast()
        while !stopped { condition.wait() }
        if let failure { throw failure }
        return committed
    }

    /// The writer thread: waits for a commit to be due, writes the queue in one transaction,
    /// and repeats until finished and drained.
    func writeUntilFinished() {
        // A larger page cache for the writing connection while results stream in: a commit
        // touches pages all over the case-id index, and a cache that cannot hold them writes
        // them out to the log several times per transaction.
        try? store.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = -4000") }
        let checkpointer = WALCheckpointer(store: store)
        condition.lock()
        while true {
            while !finishing && queuedRows < policy.rows {
                guard let oldest = oldestQueued else {
                    condition.wait()
                    continue
                }
                let left = ContinuousClock.now.duration(to: oldest.advanced(by: policy.interval))
                if left <= .zero { break }
                _ = condition.wait(until: Date(timeIntervalSinceNow: left.seconds))
            }
            if queue.isEmpty && finishing { break }
            let work = queue
            let rows = queuedRows
            queue = []
            queuedRows = 0
            oldestQueued = nil
            condition.broadcast()   // appenders waiting for room
            condition.unlock()
            let error = write(work)
            condition.lock()
            if let error {
                failure = error
                queue = []
                queuedRows = 0
                oldestQueued = nil
                condition.broadcast()
                break
            }
            checkpointer?.commitDidHappen()
            committed += rows
            commits += 1
            condition.broadcast()
        }
        condition.unlock()
        checkpointer?.stop()
        // Back to SQLite's default cache, and the memory this writer used back to the system.
        try? store.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = -2000; PRAGMA shrink_memory") }
        FreedMemory.release()
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    private func write(_ work: [[CaseResultRow]]) -> StoreError? {
        do {
            try store.pool.write { db in
                let insert = try CaseResultInsert(db, run: run, implementation: implementation)
                for batch in work {
                    for row in batch { try insert.write(row, knownOutputs: &knownOutputs) }
                }
            }
            return nil
        } catch {
            return StoreError(path: store.path, message: "cannot write results: \(ResultsStore.describe(error))")
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
