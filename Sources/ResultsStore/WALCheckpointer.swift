import Foundation
import GRDB

/// Copies the write-ahead log back into the database on a thread and connection of its own,
/// so that a ``ResultWriter``'s commits do not stop for it (SQLite otherwise checkpoints inside
/// the commit that crosses 1,000 pages, syncing the disk twice while the run waits).
///
/// While it runs, the store's writing connection does not checkpoint by itself; after each
/// commit the writer calls ``commitDidHappen()``, and the checkpointer runs a passive checkpoint
/// when it is not already running one (so checkpoints never queue up, and the log stays short).
/// ``stop()`` gives the checkpointing back to the writing connection.
final class WALCheckpointer: @unchecked Sendable {
    private let store: ResultsStore
    private let connection: DatabaseQueue
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending = false
    private var stopping = false
    private var stopped = false

    /// Starts checkpointing `store`, or returns nil (and leaves SQLite's own checkpoints on)
    /// when a second connection cannot be opened.
    init?(store: ResultsStore) {
        self.store = store
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.journalMode = .default
        guard let connection = try? DatabaseQueue(path: store.path, configuration: configuration),
              (try? store.pool.writeWithoutTransaction({ try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") })) != nil
        else { return nil }
        self.connection = connection
        let thread = Thread { [self] in checkpointUntilStopped() }
        thread.name = "linkconform checkpointer"
        thread.start()
    }

    /// Asks for a checkpoint (one is run when the previous one is done).
    func commitDidHappen() {
        condition.withLock {
            pending = true
            condition.signal()
        }
    }

    /// Waits for the checkpoint under way, stops the thread, closes the checkpointer's
    /// connection and turns SQLite's own checkpoints back on for the writing connection.
    ///
    /// The connection is closed here, before the writer reports that it has finished, and not
    /// left to whichever thread happens to release the checkpointer last (its own thread holds
    /// it until that thread exits): a WAL connection that closes asks for an exclusive lock on
    /// the database file to learn whether it is the last one, and while it holds that request
    /// another connection of the process cannot take its first shared lock. A connection that
    /// does not wait for locks, opened as soon as ``ResultWriter/finish()`` returned, failed
    /// with SQLITE_BUSY when the two met.
    func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
            while !stopped { condition.wait() }
        }
        // Fails only with statements left unfinalized, which the checkpointer never keeps; the
        // connection would then be closed when the checkpointer is released, as before.
        try? connection.close()
        try? store.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
    }

    private func checkpointUntilStopped() {
        condition.lock()
        while true {
            while !pending && !stopping { condition.wait() }
            if stopping { break }
            pending = false
            condition.unlock()
            // A passive checkpoint copies what no reader still needs and never blocks the
            // writer; what it leaves is copied by the next one.
            _ = try? connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            condition.lock()
        }
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
