import Conformance
import Foundation
import GRDB
import LinkJSON
import Testing
@testable import ResultsStore

/// Databases written by earlier versions keep opening, and typed columns read back as written.
struct StoreSchemaTests {
    /// A database as the first version left it: only the first migration, and one finished run.
    static func firstVersionDatabase() throws -> String {
        let path = ResultsStoreTests.temporaryPath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try ResultsStore.migrator.migrate(queue, upTo: "v1: implementations, runs, requirements, case results")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO run (id, startedAt, finishedAt, status, corpusFingerprint, toolVersion, options, host, pid)
                VALUES (1, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 'completed', 'abc', '0.0.1', '{}', 'old-host', 1);
                INSERT INTO implementation (id, name, version, language, homepage) VALUES (1, 'reference', '0.0.1', 'Swift', '');
                INSERT INTO runImplementation (runId, implementationId) VALUES (1, 1);
                INSERT INTO runRequirement (runId, suite, requirementId, level, title, decided) VALUES (1, 'ulc', 'ULC-1', 'MUST', 't', 0);
                INSERT INTO caseResult (runId, implementationId, suite, caseId, operation, requirementId, level, outcome,
                    nullWouldPass, actual, expected, message, durationNanos)
                VALUES (1, 1, 'ulc', 'ulc/a', 'ulc.parse', 'ULC-1', 'MUST', 'fail', 0, '{"kind":"ulc"}', '{"kind":"x"}', 'm', 5);
                """)
        }
        try queue.close()
        return path
    }

    @Test func aFirstVersionDatabaseOpensAndKeepsItsRun() throws {
        let store = try ResultsStore(path: try Self.firstVersionDatabase())
        let run = try #require(try store.run(1))
        #expect(run.status == .completed && run.corpusFingerprint == "abc" && run.host == "old-host")
        #expect(try store.implementations(run: 1).map(\.status) == [.ok], "the column added later reads its default")
        #expect(try store.requirements(run: 1).map(\.level) == [.must])
        let result = try #require(try store.results(run: 1).first?.result)
        #expect(result.outcome == .fail && result.actual == ["kind": "ulc"] && result.expected == ["kind": "x"])
        #expect(result.encodedExpected == #"{"kind":"x"}"#)
        let applied = try store.pool.read { db in try ResultsStore.migrator.appliedIdentifiers(db) }
        #expect(applied == Set(ResultsStore.migrator.migrations), "every later migration ran")
    }

    @Test func anUpgradedDatabaseTakesNewRunsAndFindings() throws {
        let store = try ResultsStore(path: try Self.firstVersionDatabase())
        let run = try store.beginRun(ResultsStoreTests.start)
        #expect(run == 2)
        let id = try store.register(ResultsStoreTests.info, run: run)
        try store.insert([ResultsStoreTests.result("a", .pass)], run: run, implementation: id)
        #expect(try store.results(run: run).count == 1)
        try store.recordFinding(target: "ulc", kind: .crash, signature: "s", message: "m", input: [1], reproducerPath: "r")
        #expect(try store.findings().count == 1)
    }

    @Test func implementationStatusIsStoredAsItsEnumeration() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        let run = try store.beginRun(ResultsStoreTests.start)
        let id = try store.register(ResultsStoreTests.info, run: run)
        try store.setImplementationStatus(run: run, implementation: id, status: .gaveUp, notes: ["restarted 3 times"], expectedFailures: "x.txt")
        let stored = try #require(try store.implementations(run: run).first)
        #expect(stored.status == .gaveUp && stored.notes == ["restarted 3 times"] && stored.expectedFailures == "x.txt")
        let raw = try store.pool.read { db in try String.fetchOne(db, sql: "SELECT status FROM runImplementation") }
        #expect(raw == "gave-up", "the text older versions wrote and read")
    }

    @Test func findingsCountSightingsKeepTheSmallerInputAndReopen() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        let first = try store.recordFinding(target: "ulc", kind: .invariant, signature: "sig", message: "one", input: [1, 2, 3],
                                            reproducerPath: "a")
        try store.markFindingFixed(id: first.id)
        #expect(try store.finding(id: first.id)?.status == .fixed)
        try store.recordFinding(target: "xignqr", kind: .crash, signature: "other", message: "x", input: [9], reproducerPath: "c")
        let again = try store.recordFinding(target: "ulc", kind: .invariant, signature: "sig", message: "two", input: [1],
                                            reproducerPath: "b")
        #expect(again.id == first.id && again.count == 2 && again.status == .open)
        #expect(again.input == [1] && again.reproducerPath == "b" && again.message == "two")
        try store.markFindingFixed(id: try #require(try store.findings(target: "xignqr").first).id)
        #expect(try store.findings().map(\.status) == [.open, .fixed], "open findings first")
        #expect(try store.findings(target: "ulc").map(\.kind) == [.invariant])
    }
}
