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

    /// A store this version made, holding one run, closed; `change` is then applied to it as
    /// another program would.
    static func changedStore(_ change: String) throws -> String {
        let path = ResultsStoreTests.temporaryPath()
        do {
            let store = try ResultsStore(path: path)
            let run = try store.beginRun(ResultsStoreTests.start)
            try store.insert([ResultsStoreTests.result("a", .pass)], run: run, implementation: try store.register(ResultsStoreTests.info, run: run))
            try store.finishRun(run, status: .completed)
        }
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: change) }
        try queue.close()
        return path
    }

    /// The error that opening `path` gives (none: an issue).
    static func openingError(_ path: String) -> StoreError? {
        do {
            _ = try ResultsStore(path: path)
            Issue.record("\(path) opened")
            return nil
        } catch {
            return error
        }
    }

    @Test func aColumnThisVersionReadsThatIsGoneIsNamedWhenTheStoreOpens() throws {
        let path = try Self.changedStore("ALTER TABLE run DROP COLUMN host")
        let error = try #require(Self.openingError(path))
        #expect(error.path == path)
        #expect(error.message.contains("the table run has no column host"), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func aTableThatIsGoneIsNamedWhenTheStoreOpens() throws {
        let path = try Self.changedStore("DROP TABLE finding")
        let error = try #require(Self.openingError(path))
        #expect(error.message.contains("the table finding is missing"), "\(error)")
    }

    @Test func aStoreWrittenByANewerVersionIsRefusedAndLeftUnchanged() throws {
        let path = try Self.changedStore("INSERT INTO grdb_migrations VALUES ('v7: future')")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(Self.openingError(path))
        #expect(error.message.contains("written by a newer LinkConform"), "\(error)")
        #expect(error.message.contains("'v7: future'"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file was changed")
    }

    @Test func theSchemaCheckedIsEveryTableAndColumnTheMigrationsMake() throws {
        let queue = try DatabaseQueue()
        try ResultsStore.migrator.migrate(queue)
        let made = try queue.read { db in try StoreSchema.columns(db) }.filter { $0.table != "grdb_migrations" }
        #expect(made.map(\.table) == StoreSchema.expected.map(\.table))
        for (table, columns) in made {
            #expect(columns == StoreSchema.expected.first { $0.table == table }?.columns, "\(table)")
        }
    }
}
