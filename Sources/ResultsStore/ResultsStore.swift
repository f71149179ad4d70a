import Conformance
import Foundation
import GRDB
import LinkJSON

/// The SQLite results store (through GRDB, in WAL mode): implementations, runs, the
/// requirements each run judged, and every case result. Reports are queries over it.
///
/// A run killed half-way leaves a consistent database (results are written one transaction
/// per batch) and is marked `interrupted` the next time the store is opened.
///
/// ```swift
/// let store = try ResultsStore(path: "Reports/results.sqlite")
/// let run = try store.beginRun(RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: nil,
///                                       toolVersion: "0.1.0", options: [:]))
/// ```
public final class ResultsStore: Sendable {
    public let path: String
    let pool: DatabasePool

    /// Opens (creating and migrating as needed) the store at `path`. Fails with a clear error
    /// before any work when the path cannot be written.
    public init(path: String) throws(StoreError) {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError(path: path, message: "cannot create the folder \(directory): \(error.localizedDescription)")
            }
        }
        if FileManager.default.fileExists(atPath: path), !FileManager.default.isWritableFile(atPath: path) {
            throw StoreError(path: path, message: "the file is not writable; pass --db with a writable path")
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
            try markAbandonedRuns()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, message: "cannot open: \(Self.describe(error)); pass --db with a writable path")
        }
    }

    static func describe(_ error: Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? "\(db.resultCode)" }
        return "\(error)"
    }

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: implementations, runs, requirements, case results") { db in
            try db.execute(sql: """
                CREATE TABLE implementation (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    version TEXT NOT NULL,
                    language TEXT NOT NULL,
                    homepage TEXT NOT NULL,
                    UNIQUE (name, version, language, homepage)
                );
                CREATE TABLE run (
                    id INTEGER PRIMARY KEY,
                    startedAt TEXT NOT NULL,
                    finishedAt TEXT,
                    status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'interrupted', 'failed')),
                    corpusFingerprint TEXT NOT NULL,
                    gitCommit TEXT,
                    toolVersion TEXT NOT NULL,
                    options TEXT NOT NULL,
                    host TEXT NOT NULL,
                    pid INTEGER NOT NULL
                );
                CREATE TABLE runImplementation (
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    implementationId INTEGER NOT NULL REFERENCES implementation(id),
                    PRIMARY KEY (runId, implementationId)
                );
                CREATE TABLE runRequirement (
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    suite TEXT NOT NULL,
                    requirementId TEXT NOT NULL,
                    level TEXT NOT NULL,
                    title TEXT NOT NULL,
                    decided INTEGER NOT NULL,
                    PRIMARY KEY (runId, suite, requirementId)
                );
                CREATE TABLE caseResult (
                    id INTEGER PRIMARY KEY,
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    implementationId INTEGER NOT NULL REFERENCES implementation(id),
                    suite TEXT NOT NULL,
                    caseId TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    requirementId TEXT NOT NULL,
                    level TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    nullWouldPass INTEGER NOT NULL,
                    actual TEXT,
                    expected TEXT NOT NULL,
                    message TEXT,
                    durationNanos INTEGER NOT NULL,
                    UNIQUE (runId, implementationId, caseId)
                );
                CREATE INDEX caseResult_byRun ON caseResult (runId, implementationId, suite, outcome);
                """)
        }
        migrator.registerMigration("v2: how each implementation fared in a run") { db in
            try db.execute(sql: """
                ALTER TABLE runImplementation ADD COLUMN status TEXT NOT NULL DEFAULT 'ok';
                ALTER TABLE runImplementation ADD COLUMN notes TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE runImplementation ADD COLUMN expectedFailures TEXT;
                """)
        }
        migrator.registerMigration("v3: fuzz findings") { db in
            try db.execute(sql: """
                CREATE TABLE finding (
                    id INTEGER PRIMARY KEY,
                    target TEXT NOT NULL,
                    implementation TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('crash', 'invariant', 'leak', 'timeout', 'oom')),
                    signature TEXT NOT NULL,
                    message TEXT NOT NULL,
                    input BLOB NOT NULL,
                    reproducerPath TEXT NOT NULL,
                    firstSeen TEXT NOT NULL,
                    lastSeen TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('open', 'fixed')),
                    UNIQUE (target, implementation, signature)
                );
                """)
        }
        return migrator
    }()

    static func timestamp(_ date: Date = Date()) -> String {
        date.formatted(.iso8601)
    }

    /// Marks runs left `running` by a process that no longer exists on this host as interrupted.
    func markAbandonedRuns() throws {
        let host = ProcessInfo.processInfo.hostName
        try pool.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, host, pid FROM run WHERE status = 'running'")
            for row in rows {
                let runHost: String = row["host"]
                let pid: Int = row["pid"]
                let alive = runHost == host && (kill(pid_t(pid), 0) == 0 || errno == EPERM)
                if !alive {
                    try db.execute(sql: "UPDATE run SET status = 'interrupted', finishedAt = ? WHERE id = ?",
                                   arguments: [Self.timestamp(), row["id"] as Int64])
                }
            }
        }
    }

    // MARK: writing

    /// Records a new run as `running` and returns its id.
    public func beginRun(_ start: RunStart) throws -> Int64 {
        try pool.write { db in
            try db.execute(sql: """
                INSERT INTO run (startedAt, status, corpusFingerprint, gitCommit, toolVersion, options, host, pid)
                VALUES (?, 'running', ?, ?, ?, ?, ?, ?)
                """, arguments: [Self.timestamp(), start.corpusFingerprint, start.gitCommit, start.toolVersion,
                                 start.options.serialized(), ProcessInfo.processInfo.hostName, Int(getpid())])
            return db.lastInsertedRowID
        }
    }

    /// Records the requirements of every suite of the corpus for a run.
    public func recordRequirements(run: Int64, corpus: Corpus) throws {
        try pool.write { db in
            for suite in corpus.suites {
                for r in suite.registry.requirements {
                    try db.execute(sql: """
                        INSERT OR REPLACE INTO runRequirement (runId, suite, requirementId, level, title, decided)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """, arguments: [run, suite.name, r.id, r.level.rawValue, r.title, r.decided])
                }
            }
        }
    }

    /// Returns the id of an implementation, adding it if new, and ties it to the run.
    public func register(_ info: ImplementationInfo, run: Int64) throws -> Int64 {
        try pool.write { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO implementation (name, version, language, homepage) VALUES (?, ?, ?, ?)
                """, arguments: [info.name, info.version, info.language, info.homepage])
            let id = try Int64.fetchOne(db, sql: """
                SELECT id FROM implementation WHERE name = ? AND version = ? AND language = ? AND homepage = ?
                """, arguments: [info.name, info.version, info.language, info.homepage])!
            try db.execute(sql: "INSERT OR IGNORE INTO runImplementation (runId, implementationId) VALUES (?, ?)",
                           arguments: [run, id])
            return id
        }
    }

    /// Records how an implementation fared in a run: `ok`, `failed-to-start`, `gave-up`; notes
    /// (restarts and why); the expected-failures file used.
    public func setImplementationStatus(run: Int64, implementation: Int64, status: ImplementationStatus, notes: [String],
                                        expectedFailures: String?) throws {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE runImplementation SET status = ?, notes = ?, expectedFailures = ?
                WHERE runId = ? AND implementationId = ?
                """, arguments: [status.rawValue, JSONValue.array(notes.map(JSONValue.string)).serialized(), expectedFailures,
                                 run, implementation])
        }
    }

    /// Writes a batch of results in one transaction.
    public func insert(_ results: [CaseResult], run: Int64, implementation: Int64) throws {
        try pool.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO caseResult (runId, implementationId, suite, caseId, operation, requirementId, level,
                    outcome, nullWouldPass, actual, expected, message, durationNanos)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for r in results {
                try statement.execute(arguments: [
                    run, implementation, r.suite, r.caseID, r.operation, r.requirement, r.level.rawValue,
                    r.outcome.rawValue, r.nullWouldPass, r.actual?.serialized(), r.expected.serialized(),
                    r.message, r.durationNanos,
                ])
            }
        }
    }

    /// Ends a run with a final status.
    public func finishRun(_ run: Int64, status: RunStatus) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE run SET status = ?, finishedAt = ? WHERE id = ?",
                           arguments: [status.rawValue, Self.timestamp(), run])
        }
    }

    // MARK: reading

    static func record(_ row: Row) -> RunRecord {
        RunRecord(id: row["id"], startedAt: row["startedAt"], finishedAt: row["finishedAt"],
                  status: RunStatus(rawValue: row["status"]) ?? .failed, corpusFingerprint: row["corpusFingerprint"],
                  gitCommit: row["gitCommit"], toolVersion: row["toolVersion"], options: row["options"],
                  host: row["host"], pid: row["pid"])
    }

    public func run(_ id: Int64) throws -> RunRecord? {
        try pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM run WHERE id = ?", arguments: [id]).map(Self.record) }
    }

    /// Runs, newest first.
    public func runs(limit: Int = 20) throws -> [RunRecord] {
        try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM run ORDER BY id DESC LIMIT ?", arguments: [limit]).map(Self.record) }
    }

    /// The newest run that has results, if any.
    public func latestRunID() throws -> Int64? {
        try pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM run") }
    }

    public func implementations(run: Int64) throws -> [StoredImplementation] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT i.*, ri.status, ri.notes, ri.expectedFailures FROM implementation i
                JOIN runImplementation ri ON ri.implementationId = i.id
                WHERE ri.runId = ? ORDER BY ri.rowid
                """, arguments: [run]).map { row in
                let notes = (try? JSONParser.parse(row["notes"] as String))?.arrayValue?.compactMap(\.stringValue) ?? []
                return StoredImplementation(id: row["id"], info: ImplementationInfo(name: row["name"], version: row["version"],
                                                                                    language: row["language"], homepage: row["homepage"]),
                                            status: ImplementationStatus(rawValue: row["status"]) ?? .ok, notes: notes, expectedFailures: row["expectedFailures"])
            }
        }
    }

    public func requirements(run: Int64) throws -> [StoredRequirement] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM runRequirement WHERE runId = ? ORDER BY suite, rowid", arguments: [run]).map { row in
                StoredRequirement(suite: row["suite"], id: row["requirementId"],
                                  level: RequirementLevel(rawValue: row["level"]) ?? .info, title: row["title"], decided: row["decided"])
            }
        }
    }

    /// Every result of a run, in insertion order.
    public func results(run: Int64) throws -> [StoredResult] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM caseResult WHERE runId = ? ORDER BY id", arguments: [run]).map { row in
                StoredResult(implementationID: row["implementationId"], result: CaseResult(
                    suite: row["suite"], caseID: row["caseId"], operation: row["operation"], requirement: row["requirementId"],
                    level: RequirementLevel(rawValue: row["level"]) ?? .info, outcome: Outcome(rawValue: row["outcome"]) ?? .errored,
                    nullWouldPass: row["nullWouldPass"],
                    actual: (row["actual"] as String?).flatMap { try? JSONParser.parse($0) },
                    expected: (try? JSONParser.parse(row["expected"] as String)) ?? .null,
                    message: row["message"], durationNanos: row["durationNanos"]))
            }
        }
    }

    /// Outcome counts per implementation and suite, and the null-implementation passes.
    public func summary(run: Int64) throws -> [SummaryRow] {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT implementationId, suite, outcome, COUNT(*) AS n,
                       SUM(CASE WHEN outcome = 'pass' AND nullWouldPass THEN 1 ELSE 0 END) AS nullPass
                FROM caseResult WHERE runId = ?
                GROUP BY implementationId, suite, outcome
                ORDER BY implementationId, MIN(id)
                """, arguments: [run])
            var order: [(Int64, String)] = []
            var counts: [String: [Outcome: Int]] = [:]
            var nulls: [String: Int] = [:]
            for row in rows {
                let impl: Int64 = row["implementationId"]
                let suite: String = row["suite"]
                let key = "\(impl)|\(suite)"
                if counts[key] == nil { order.append((impl, suite)) }
                counts[key, default: [:]][Outcome(rawValue: row["outcome"]) ?? .errored, default: 0] += row["n"] as Int
                nulls[key, default: 0] += row["nullPass"] as Int
            }
            return order.map { impl, suite in
                let key = "\(impl)|\(suite)"
                return SummaryRow(implementationID: impl, suite: suite, counts: counts[key] ?? [:], nullAlsoPass: nulls[key] ?? 0)
            }
        }
    }
}
