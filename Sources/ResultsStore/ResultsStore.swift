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
    let pool: any DatabaseWriter
    /// Whether the store was opened for reading only (``init(path:readOnly:)``): every write
    /// fails with SQLite's "attempt to write a readonly database".
    public let isReadOnly: Bool

    /// Opens (creating and migrating as needed) the store at `path`. Fails with a clear error
    /// before any work when the path cannot be written.
    ///
    /// With `readOnly`, a store that exists but cannot be written (the file, or its folder, which
    /// SQLite's write-ahead log needs: an artifact unpacked read-only, another user's file, a
    /// full disk) is opened for reading only, neither migrated nor tidied (a run left `running`
    /// by a dead process stays so), so that reading commands can still read it; a store written
    /// by an older LinkConform, which would need migrating, is then refused with what to do. A
    /// writable store opens as usual.
    public init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        if readOnly, FileManager.default.fileExists(atPath: path), !Self.canWrite(path) {
            isReadOnly = true
            do {
                pool = try Self.openReadOnly(path)
                try pool.read { db in
                    try Self.recognise(db, path: path)
                    let pending = try Self.migrator.appliedIdentifiers(db).count < Self.migrator.migrations.count
                    if pending {
                        throw StoreError(path: path, message: "written by an older LinkConform and not writable, so it cannot be brought up to date; copy it (with its -wal file) to a writable folder and pass --db with the copy")
                    }
                    try StoreSchema.verify(db, path: path)
                }
            } catch let error as StoreError {
                throw error
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                throw StoreError(path: path, message: "the file is not a SQLite database; pass --db with the store of earlier runs")
            } catch {
                throw StoreError(path: path, message: "cannot open for reading: \(Self.describe(error)); copy it (with its -wal file) to a writable folder and pass --db with the copy")
            }
            return
        }
        isReadOnly = false
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
            try Self.refuseForeignOrNewer(path: path)
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
            try reading { db in try StoreSchema.verify(db, path: path) }
            try markAbandonedRuns()
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError(path: path, message: "the file is not a SQLite database; pass --db with a new file or the store of earlier runs")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            throw Self.failure(path: path, "open", error)
        } catch {
            throw StoreError(path: path, message: "cannot open: \(Self.describe(error)); pass --db with a writable path")
        }
    }

    /// Whether the file at `path` and its folder can both be written (SQLite's write-ahead log
    /// and shared-memory files live beside the database).
    static func canWrite(_ path: String) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        return FileManager.default.isWritableFile(atPath: path) && FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder)
    }

    /// A read-only connection to a store that cannot be written, which must leave nothing
    /// behind: SQLite reads a database in write-ahead-log mode through a log and a
    /// shared-memory file beside it, and a plain read-only connection makes both when they are
    /// missing and the folder lets it, owned by the reader, so that the owner's next write
    /// failed. So when no log with content lies beside the store (a store closed cleanly has
    /// none), the file is opened as immutable, which needs neither (through a `file:` URI: the
    /// system's SQLite reads URIs, `USE_URI`). A log with content is read through the files the
    /// writer left, when both are there; otherwise the error says to copy the store.
    static func openReadOnly(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let log = ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
        var location = path
        if log > 0 {
            guard FileManager.default.fileExists(atPath: path + "-shm") else {
                throw StoreError(path: path, message: "its write-ahead log has content but no shared-memory file beside it, which reading it read-only would create; copy it (with its -wal file) to a writable folder and pass --db with the copy")
            }
        } else {
            var components = URLComponents()
            components.scheme = "file"
            components.path = (path as NSString).standardizingPath.hasPrefix("/") ? (path as NSString).standardizingPath
                : FileManager.default.currentDirectoryPath + "/" + path
            components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
            location = components.string ?? path
        }
        let queue = try DatabaseQueue(path: location, configuration: configuration)
        try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        return queue
    }

    /// Refuses a SQLite database that some other program made: migrating it would add our
    /// tables to someone else's data. A store is recognised by its first migration in GRDB's
    /// migrations table; an empty database (no tables yet) is a new store. Refuses too a store
    /// that a newer LinkConform wrote (a migration this version does not know: ``StoreSchema``).
    /// The file is opened read-only for this look, so that even its journal mode is left as it was.
    static func refuseForeignOrNewer(path: String) throws {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 else { return }
        var readOnly = Configuration()
        readOnly.readonly = true
        // Waits, as the store's own connections do, for a lock another connection holds for a
        // moment (one that closes asks for an exclusive lock): without it, opening the store
        // failed with "database is locked" whenever it met one.
        readOnly.busyMode = .timeout(10)
        try DatabaseQueue(path: path, configuration: readOnly).read { db in try recognise(db, path: path) }
    }

    /// What ``refuseForeignOrNewer(path:)`` checks, on a connection already open.
    static func recognise(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        guard !tables.isEmpty else { return }
        let first = tables.contains("grdb_migrations")
            ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier LIKE 'v1:%'") : []
        guard !first.isEmpty else {
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", ..." : "")
            throw StoreError(path: path, message: "this SQLite database is not a LinkConform results store (its tables: \(shown)); it was left unchanged; pass --db with a new file or the store of earlier runs")
        }
        let unknown = try StoreSchema.unknownMigrations(db)
        if !unknown.isEmpty { throw StoreSchema.newerStoreError(path: path, unknown: unknown) }
    }

    static func describe(_ error: Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? "\(db.resultCode)" }
        return "\(error)"
    }

    /// SQLite's failure while the store `did` something (open, read, write), as the store's
    /// error: SQLite's own message, never the statement, and for a damaged file what to do.
    static func failure(path: String, _ did: String, _ error: DatabaseError) -> StoreError {
        let damaged = error.resultCode == .SQLITE_CORRUPT
        return StoreError(path: path, message: "cannot \(did): \(describe(error))"
                          + (damaged ? " (the file is damaged); restore it from a copy, or pass --db with another store" : ""))
    }

    /// Runs `body` in a read transaction; a failure of SQLite is thrown as a ``StoreError``
    /// (the errors `body` throws itself pass as they are).
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.read(body) } catch let error as DatabaseError { throw Self.failure(path: path, "read", error) }
    }

    /// Runs `body` in a write transaction; a failure of SQLite is thrown as a ``StoreError``.
    func writing<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.write(body) } catch let error as DatabaseError { throw Self.failure(path: path, "write", error) }
    }

    static func timestamp(_ date: Date = Date()) -> String {
        date.formatted(.iso8601)
    }

    /// Marks runs left `running` by a process that is no longer there to finish them as
    /// interrupted: a run of another host, or one whose pid is free, has exited, or is held by
    /// a process that started after the run did (``RunOwner``).
    func markAbandonedRuns(owner: RunOwner = .system) throws {
        let host = ProcessInfo.processInfo.hostName
        try writing { db in
            let running = try db.exactRows("SELECT * FROM run WHERE status = ?", [.raw(RunStatus.running)], RunRecord.init)
            for run in running {
                let alive = owner.isAlive(host: run.host, pid: run.pid, startedAt: run.startedAt, thisHost: host)
                // When it died is not known: the time it is found (the next night, perhaps) would
                // read as its end, so its end stays empty.
                if !alive {
                    try db.exactExecute("UPDATE run SET status = ? WHERE id = ?", [.raw(RunStatus.interrupted), .integer(run.id)])
                }
            }
        }
    }

    // MARK: writing

    /// Records a new run as `running` and returns its id.
    public func beginRun(_ start: RunStart) throws -> Int64 {
        try writing { db in
            // The id is past every id any row has used, not only past the newest run's (what
            // SQLite would pick): a run deleted by hand without its results (the sqlite3 shell
            // leaves foreign keys off) must not lend its id, and its leftover results, to the next
            // run. Each MAX reads one end of an index.
            try db.exactExecute("""
                INSERT INTO run (id, startedAt, status, corpusFingerprint, gitCommit, toolVersion, options, host, pid)
                VALUES (1 + MAX(COALESCE((SELECT MAX(id) FROM run), 0), COALESCE((SELECT MAX(runId) FROM caseResult), 0),
                                COALESCE((SELECT MAX(runId) FROM runImplementation), 0), COALESCE((SELECT MAX(runId) FROM runRequirement), 0)),
                        ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(Self.timestamp()), .raw(RunStatus.running), .text(start.corpusFingerprint), .text(start.gitCommit),
                      .text(start.toolVersion), .text(start.options.serialized()), .text(ProcessInfo.processInfo.hostName),
                      .int(Int(getpid()))])
            return db.lastInsertedRowID
        }
    }

    /// Records the requirements of every suite of the corpus for a run.
    public func recordRequirements(run: Int64, corpus: Corpus) throws {
        try writing { db in
            for suite in corpus.suites {
                for r in suite.registry.requirements {
                    try db.exactExecute("""
                        INSERT OR REPLACE INTO runRequirement (runId, suite, requirementId, level, title, decided)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """, [.integer(run), .text(suite.name), .text(r.id), .raw(r.level), .text(r.title), .bool(r.decided)])
                }
            }
        }
    }

    /// Returns the id of an implementation, adding it if new, and ties it to the run.
    public func register(_ info: ImplementationInfo, run: Int64) throws -> Int64 {
        try writing { db in
            let who: [SQLArgument] = [.text(info.name), .text(info.version), .text(info.language), .text(info.homepage)]
            try db.exactExecute("INSERT OR IGNORE INTO implementation (name, version, language, homepage) VALUES (?, ?, ?, ?)", who)
            let stored = try db.exactRows("""
                SELECT id FROM implementation WHERE name = ? AND version = ? AND language = ? AND homepage = ?
                """, who) { $0.int64("id") }
            guard let id = stored.first else {
                throw StoreError(path: path, message: "the implementation \(info.name) was not stored; is the database read-only?")
            }
            try db.exactExecute("INSERT OR IGNORE INTO runImplementation (runId, implementationId) VALUES (?, ?)",
                                [.integer(run), .integer(id)])
            return id
        }
    }

    /// Records how an implementation fared in a run: its status; notes (restarts and why), kept
    /// within ``ResultLimits`` as a result's output is where the store writes it; the
    /// expected-failures file used.
    public func setImplementationStatus(run: Int64, implementation: Int64, status: ImplementationStatus, notes: [String],
                                        expectedFailures: String?) throws {
        let notes = ResultLimits.kept(notes: notes)
        try writing { db in
            try db.exactExecute("""
                UPDATE runImplementation SET status = ?, notes = ?, expectedFailures = ?
                WHERE runId = ? AND implementationId = ?
                """, [.raw(status), .text(JSONValue.array(notes.map(JSONValue.string)).serialized()), .text(expectedFailures),
                      .integer(run), .integer(implementation)])
        }
    }

    /// Writes a batch of results in one transaction, on the caller's thread. To store a run's
    /// results as they come, with the writing overlapping the run, use ``ResultWriter``.
    public func insert(_ results: [CaseResult], run: Int64, implementation: Int64) throws {
        try writing { db in
            let insert = try CaseResultInsert(db, run: run, implementation: implementation)
            var known: Set<String> = []
            for result in results { try insert.write(CaseResultRow(result), knownOutputs: &known) }
        }
    }

    /// Ends a run with a final status.
    public func finishRun(_ run: Int64, status: RunStatus) throws {
        try writing { db in
            try db.exactExecute("UPDATE run SET status = ?, finishedAt = ? WHERE id = ?",
                                [.raw(status), .text(Self.timestamp()), .integer(run)])
        }
    }

    // MARK: reading

    public func run(_ id: Int64) throws -> RunRecord? {
        try reading { db in try db.exactRows("SELECT * FROM run WHERE id = ?", [.integer(id)], RunRecord.init).first }
    }

    /// Runs, newest first.
    public func runs(limit: Int = 20) throws -> [RunRecord] {
        try reading { db in try db.exactRows("SELECT * FROM run ORDER BY id DESC LIMIT ?", [.int(limit)], RunRecord.init) }
    }

    /// The newest run that has results, if any.
    public func latestRunID() throws -> Int64? {
        try reading { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM run") }
    }

    public func implementations(run: Int64) throws -> [StoredImplementation] {
        try reading { db in
            try db.exactRows("""
                SELECT i.*, ri.status, ri.notes, ri.expectedFailures FROM implementation i
                JOIN runImplementation ri ON ri.implementationId = i.id
                WHERE ri.runId = ? ORDER BY ri.rowid
                """, [.integer(run)], StoredImplementation.init)
        }
    }

    public func requirements(run: Int64) throws -> [StoredRequirement] {
        try reading { db in
            try db.exactRows("SELECT * FROM runRequirement WHERE runId = ? ORDER BY suite, rowid", [.integer(run)],
                             StoredRequirement.init)
        }
    }

    /// Every result of a run, in insertion order, in memory (reports stream them with
    /// ``forEachResult(run:_:_:)`` instead).
    public func results(run: Int64) throws -> [StoredResult] {
        var all: [StoredResult] = []
        try forEachResult(run: run) { all.append($0) }
        return all
    }

    /// Outcome counts per implementation and suite, and the null-implementation passes.
    public func summary(run: Int64) throws -> [SummaryRow] {
        try reading { db in
            let rows = try db.exactRows("""
                SELECT implementationId, suite, outcome, COUNT(*) AS n,
                       SUM(CASE WHEN outcome = ? AND nullWouldPass THEN 1 ELSE 0 END) AS nullPass,
                       SUM(durationNanos) AS nanos
                FROM caseResult WHERE runId = ?
                GROUP BY implementationId, suite, outcome
                ORDER BY implementationId, MIN(id)
                """, [.raw(Outcome.pass), .integer(run)]) { row in
                (implementation: row.int64("implementationId"), suite: row.text("suite"),
                 outcome: row.value("outcome", or: Outcome.errored), n: row.int("n"), nullPass: row.int("nullPass"),
                 nanos: row.int64("nanos"))
            }
            var order: [(Int64, String)] = []
            var counts: [String: [Outcome: Int]] = [:]
            var nulls: [String: Int] = [:]
            var nanos: [String: Int64] = [:]
            for row in rows {
                let key = "\(row.implementation)|\(row.suite)"
                if counts[key] == nil { order.append((row.implementation, row.suite)) }
                counts[key, default: [:]][row.outcome, default: 0] += row.n
                nulls[key, default: 0] += row.nullPass
                nanos[key, default: 0] += row.nanos
            }
            return order.map { impl, suite in
                let key = "\(impl)|\(suite)"
                return SummaryRow(implementationID: impl, suite: suite, counts: counts[key] ?? [:], nullAlsoPass: nulls[key] ?? 0,
                                  nanos: nanos[key] ?? 0)
            }
        }
    }
}
