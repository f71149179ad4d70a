import Conformance
import Foundation
import GRDB
import LinkJSON
import Testing
@testable import ResultsStore

/// Results streamed through a writer thread: committed by count, by time and at the end, the
/// same rows as `insert`, and failures reported.
struct ResultWriterTests {
    /// A store with a run and an implementation registered.
    static func storeWithRun() throws -> (ResultsStore, run: Int64, implementation: Int64) {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        let run = try store.beginRun(ResultsStoreTests.start)
        return (store, run, try store.register(ResultsStoreTests.info, run: run))
    }

    static func results(_ prefix: String, _ count: Int) -> [CaseResult] {
        (0..<count).map { ResultsStoreTests.result("\(prefix)\($0)", .pass) }
    }

    /// Waits for `condition`, giving up after a generous bound (only so that a broken writer
    /// fails the test instead of hanging it; nothing here asserts how long anything took).
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<2_000 {
            if try condition() { return true }
            usleep(5_000)
        }
        return try condition()
    }

    /// Rows of a run as another connection sees them (what a reader or a crash would find). It
    /// waits for a lock as the store's own connections do: without a busy timeout, opening it
    /// while the writer's checkpoint held the file failed at once ("database is locked", seen
    /// in a loaded CI run).
    static func committedRows(_ store: ResultsStore, run: Int64) throws -> Int {
        var patient = Configuration()
        patient.busyMode = .timeout(10)
        return try DatabaseQueue(path: store.path, configuration: patient).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM caseResult WHERE runId = ?", arguments: [run]) ?? 0
        }
    }

    @Test func resultsAreCommittedOnceEnoughAreWaiting() throws {
        let (store, run, id) = try Self.storeWithRun()
        let writer = ResultWriter(store: store, run: run, implementation: id,
                                  policy: .init(rows: 3, interval: .seconds(3_600)))
        try writer.append(Self.results("a", 2))
        try writer.append(Self.results("b", 1))
        // Three are waiting: the writer commits them without waiting an hour or for finish().
        #expect(Self.eventually { writer.committed == 3 })
        #expect(try Self.committedRows(store, run: run) == 3)
        #expect(try writer.finish() == 3)
    }

    @Test func resultsAreCommittedOnceTheOldestHasWaitedTheInterval() throws {
        let (store, run, id) = try Self.storeWithRun()
        let writer = ResultWriter(store: store, run: run, implementation: id,
                                  policy: .init(rows: 1_000, interval: .milliseconds(20)))
        try writer.append(Self.results("a", 2))
        // Far fewer than 1,000: only the interval can have made the writer commit.
        #expect(Self.eventually { writer.committed == 2 })
        #expect(try Self.committedRows(store, run: run) == 2)
        // Again, now that the writer was idle with nothing queued when the results came.
        try writer.append(Self.results("b", 1))
        #expect(Self.eventually { writer.committed == 3 })
        #expect(try writer.finish() == 3)
    }

    @Test func resultsBelowTheCountAreKeptUntilFinish() throws {
        let (store, run, id) = try Self.storeWithRun()
        let writer = ResultWriter(store: store, run: run, implementation: id,
                                  policy: .init(rows: 1_000, interval: .seconds(3_600)))
        try writer.append(Self.results("a", 5))
        #expect(writer.committed == 0, "neither the count nor the interval was reached")
        #expect(try writer.finish() == 5)
        #expect(writer.commits == 1, "one transaction for the five")
        #expect(try Self.committedRows(store, run: run) == 5)
    }

    @Test func writtenRowsReadBackAsInsertWritesThem() throws {
        let (store, run, id) = try Self.storeWithRun()
        let results = [
            CaseResult(suite: "ulc", caseID: "x/1", operation: "ulc.parse", requirement: "ULC-1", level: .should, outcome: .nonStrict,
                       nullWouldPass: true, actual: ["kind": "ulc", "ok": true], expected: ["kind": "ulc"],
                       message: "kind: expected a, got b", durationNanos: 42),
            CaseResult(suite: "ulc", caseID: "x/2", operation: "ulc.parse", requirement: "ULC-2", level: .may, outcome: .skipped,
                       nullWouldPass: false, actual: nil, expected: [:], message: "", durationNanos: 0),
            CaseResult(suite: "ulc", caseID: "x/3", operation: "ulc.parse", requirement: "ULC-3", level: .must, outcome: .pass,
                       nullWouldPass: false, actual: ["text": "é ✓ \u{0}"], expected: ["text": "é ✓ \u{0}"], message: nil, durationNanos: 7),
        ]
        let writer = ResultWriter(store: store, run: run, implementation: id)
        try writer.append(results)
        try writer.finish()
        let second = try store.beginRun(ResultsStoreTests.start)
        try store.insert(results, run: second, implementation: try store.register(ResultsStoreTests.info, run: second))

        let streamed = try store.results(run: run).map(\.result)
        #expect(streamed == results)
        #expect(streamed.map(\.message) == [results[0].message, "", nil], "an empty message stays empty, not NULL")
        #expect(streamed == (try store.results(run: second).map(\.result)))
    }

    @Test func aFailedWriteIsReportedAndStopsTheWriter() throws {
        let (store, run, _) = try Self.storeWithRun()
        // No implementation 999: the foreign key refuses the rows.
        let writer = ResultWriter(store: store, run: run, implementation: 999, policy: .init(rows: 1, interval: .seconds(3_600)))
        try writer.append(Self.results("a", 1))
        let error = #expect(throws: StoreError.self) { try writer.finish() }
        #expect(error?.message.contains("cannot write results") == true)
        #expect(throws: StoreError.self) { try writer.append(Self.results("b", 1)) }
        #expect(try Self.committedRows(store, run: run) == 0)
    }

    /// Once `finish()` returns, the writer has let go of the database: the connection its
    /// checkpointer opened is closed too, not left for its thread to close later. (A WAL
    /// connection that closes asks for an exclusive lock to see whether it is the last one;
    /// while it holds it, another connection of the process cannot take its first shared lock,
    /// and one that does not wait, as `committedRows` opens, fails with SQLITE_BUSY.) Checked
    /// without a race: with the store's own connections closed, a connection in exclusive
    /// locking mode can lock the file only if no other connection is still open on it.
    @Test func theWritersConnectionsAreClosedOnceFinishReturns() throws {
        for round in 0..<20 {
            let (store, run, id) = try Self.storeWithRun()
            let writer = ResultWriter(store: store, run: run, implementation: id, policy: .init(rows: 1, interval: .seconds(3_600)))
            try writer.append(Self.results("a", 2))
            #expect(try writer.finish() == 2)
            try store.pool.close()
            var alone = Configuration()
            alone.prepareDatabase { db in try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
            let rows = try DatabaseQueue(path: store.path, configuration: alone).read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM caseResult WHERE runId = ?", arguments: [run]) ?? 0
            }
            #expect(rows == 2, "round \(round)")
        }
    }

    @Test func appendingAfterFinishIsAnError() throws {
        let (store, run, id) = try Self.storeWithRun()
        let writer = ResultWriter(store: store, run: run, implementation: id)
        try writer.finish()
        #expect(throws: StoreError.self) { try writer.append(Self.results("a", 1)) }
    }

    @Test func aWriterReleasedWithoutFinishStillCommits() throws {
        let (store, run, id) = try Self.storeWithRun()
        do {
            let writer = ResultWriter(store: store, run: run, implementation: id, policy: .init(rows: 1_000, interval: .seconds(3_600)))
            try writer.append(Self.results("a", 4))
        }
        #expect(try Self.eventually { try Self.committedRows(store, run: run) == 4 })
    }

    @Test func manyBatchesAreAllStoredWhileTheQueueIsBounded() throws {
        let (store, run, id) = try Self.storeWithRun()
        // A queue of at most 20 results: appends wait for the writer instead of piling up.
        let writer = ResultWriter(store: store, run: run, implementation: id,
                                  policy: .init(rows: 10, interval: .milliseconds(5), maxQueued: 20))
        for batch in 0..<50 { try writer.append(Self.results("b\(batch)-", 7)) }
        #expect(try writer.finish() == 350)
        #expect(try Self.committedRows(store, run: run) == 350)
    }
}
