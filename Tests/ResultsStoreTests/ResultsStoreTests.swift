import ChildProcess
import Conformance
import Foundation
import GRDB
import LinkJSON
@testable import ResultsStore
import Testing
import TestScratch

/// The SQLite store: runs, batches, queries, and runs interrupted by a kill.
struct ResultsStoreTests {
    static func temporaryPath() -> String {
        TestScratch.path("store", "results.sqlite")
    }

    static func result(_ id: String, _ outcome: Outcome, null: Bool = false) -> CaseResult {
        CaseResult(suite: "ulc", caseID: id, operation: "ulc.parse", requirement: "ULC-1", level: .must, outcome: outcome,
                   nullWouldPass: null, actual: ["kind": "ulc"], expected: ["kind": "ulc"], message: nil, durationNanos: 1_000)
    }

    static let start = RunStart(corpusFingerprint: "abc", gitCommit: "deadbeef", toolVersion: "0.1.0", options: ["strict": false])
    static let info = ImplementationInfo(name: "reference", version: "0.1.0", language: "Swift", homepage: "https://example.com")

    @Test func aRunIsStoredAndSummarisedByQueries() throws {
        let store = try ResultsStore(path: Self.temporaryPath())
        let run = try store.beginRun(Self.start)
        let impl = try store.register(Self.info, run: run)
        try store.insert([Self.result("a", .pass, null: true), Self.result("b", .pass), Self.result("c", .fail)], run: run, implementation: impl)
        try store.insert([Self.result("d", .nonStrict)], run: run, implementation: impl)
        try store.finishRun(run, status: .completed)

        let summary = try store.summary(run: run)
        #expect(summary.count == 1)
        #expect(summary[0].count(.pass) == 2 && summary[0].count(.fail) == 1 && summary[0].count(.nonStrict) == 1)
        #expect(summary[0].nullAlsoPass == 1)
        #expect(try store.run(run)?.status == .completed)
        #expect(try store.results(run: run).map(\.result.caseID) == ["a", "b", "c", "d"])
        #expect(try store.results(run: run)[0].result.actual == ["kind": "ulc"])
        #expect(try store.implementations(run: run).map(\.info) == [Self.info])
    }

    @Test func registeringTheSameImplementationTwiceReusesIt() throws {
        let store = try ResultsStore(path: Self.temporaryPath())
        let first = try store.register(Self.info, run: try store.beginRun(Self.start))
        let second = try store.register(Self.info, run: try store.beginRun(Self.start))
        #expect(first == second)
    }

    @Test func runLeftRunningByADeadProcessIsMarkedInterruptedOnOpen() throws {
        let path = Self.temporaryPath()
        let store = try ResultsStore(path: path)
        let run = try store.beginRun(Self.start)
        try store.insert([Self.result("a", .pass)], run: run, implementation: try store.register(Self.info, run: run))
        // Pretend the process that started it is gone (a pid that cannot exist).
        try store.pool.write { db in try db.execute(sql: "UPDATE run SET pid = 2147483646 WHERE id = ?", arguments: [run]) }
        let reopened = try ResultsStore(path: path)
        #expect(try reopened.run(run)?.status == .interrupted)
        #expect(try reopened.results(run: run).count == 1, "results written before the kill are kept")
    }

    @Test func runOfALiveProcessIsLeftAlone() throws {
        let path = Self.temporaryPath()
        let run = try ResultsStore(path: path).beginRun(Self.start)
        #expect(try ResultsStore(path: path).run(run)?.status == .running)
    }

    #if os(Linux)
    /// The audit's case: a process (here this one) holds the pid of a run that began before it
    /// did. The run was left `running`; it is now `interrupted`. This process's own run, begun
    /// now, stays `running` when it opens the store again.
    @Test func aRunWhosePidALaterProcessHoldsIsMarkedInterrupted() throws {
        let path = Self.temporaryPath()
        let store = try ResultsStore(path: path)
        let old = try store.beginRun(Self.start)
        let own = try store.beginRun(Self.start)
        try store.pool.write { db in
            try db.execute(sql: "UPDATE run SET startedAt = '2000-01-01T00:00:00Z', pid = ? WHERE id = ?", arguments: [Int(getpid()), old])
        }
        let reopened = try ResultsStore(path: path)
        #expect(try reopened.run(old)?.status == .interrupted)
        #expect(try reopened.run(own)?.status == .running)
    }
    #endif

    @Test func killedWriterLeavesAConsistentDatabase() throws {
        // A child process opens the store, writes one batch, then is killed in the middle of a
        // stream of batches; the parent then opens the same file.
        let path = Self.temporaryPath()
        _ = try ResultsStore(path: path)
        let script = """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("INSERT INTO run (startedAt, status, corpusFingerprint, toolVersion, options, host, pid) VALUES ('t', 'running', 'x', '0', '{}', ?, 2147483646)", (sys.argv[2],))
            run = db.execute("SELECT MAX(id) FROM run").fetchone()[0]
            db.execute("INSERT INTO implementation (name, version, language, homepage) VALUES ('k', '0', 'py', '')")
            impl = db.execute("SELECT MAX(id) FROM implementation").fetchone()[0]
            i = 0
            while True:
                db.execute("BEGIN")
                for _ in range(100):
                    db.execute("INSERT INTO caseResult (runId, implementationId, suite, caseId, operation, requirementId, level, outcome, nullWouldPass, expected, durationNanos) VALUES (?, ?, 'ulc', ?, 'ulc.parse', 'ULC-1', 'MUST', 'pass', 0, '{}', 1)", (run, impl, "c%d" % i))
                    i += 1
                db.execute("COMMIT")
                if i == 500: print("ready", flush=True)
            """
        let process = try SpawnedProcess(arguments: ["python3", "-c", script, path, ProcessInfo.processInfo.hostName],
                                         workingDirectory: nil)
        var ready: UInt8 = 0
        _ = read(process.output, &ready, 1)   // waits for "ready"
        process.terminate(SIGKILL)
        process.waitForExit()

        let store = try ResultsStore(path: path)
        let run = try #require(try store.runs(limit: 1).first)
        #expect(run.status == .interrupted)
        // When it died is not known: the time it was found is not written as its end.
        #expect(run.finishedAt == nil)
        let count = try store.results(run: run.id).count
        #expect(count >= 500 && count % 100 == 0, "only whole batches: \(count)")
        let integrity = try store.pool.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == "ok")
    }

    @Test func unwritablePathIsAClearErrorBeforeAnyWork() {
        #expect(throws: StoreError.self) { try ResultsStore(path: "/proc/linkconform/results.sqlite") }
        do {
            _ = try ResultsStore(path: "/proc/linkconform/results.sqlite")
        } catch {
            #expect(error.description.contains("/proc/linkconform"))
        }
    }

    @Test func databaseUsesWAL() throws {
        let store = try ResultsStore(path: Self.temporaryPath())
        let mode = try store.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}
