import Conformance
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite   // the SQLite that GRDB links (SwiftPM)
#else
import SQLite3
#endif
import LinkJSON

/// A case result as the `caseResult` table takes it: texts ready to bind. `actual` is
/// serialized here, once, and cut to what ``ResultLimits`` keeps; `expected` is the case's text,
/// serialized when the corpus was loaded.
/// Holding this instead of the result lets the JSON trees go as soon as a batch is queued.
struct CaseResultRow: Sendable {
    /// Outputs this long (UTF-8 bytes) or longer are stored once by content (`outputText`).
    static let sharedOutputBytes = 4_096

    let suite: String
    let caseID: String
    let operation: String
    let requirement: String
    let level: RequirementLevel
    let outcome: Outcome
    let nullWouldPass: Bool
    /// The output's JSON text, or what stands for it when it is too long.
    let actual: String?
    /// The SHA-256 of `actual` when it is stored in `outputText` rather than in the row.
    let actualRef: String?
    let expected: String
    let message: String?
    let durationNanos: Int64

    init(_ r: CaseResult) {
        suite = r.suite
        caseID = r.caseID
        operation = r.operation
        requirement = r.requirement
        level = r.level
        outcome = r.outcome
        nullWouldPass = r.nullWouldPass
        let text = r.actual.map { ResultLimits.kept(serializedOutput: $0.serialized()) }
        actual = text
        actualRef = text.flatMap { $0.utf8.count >= Self.sharedOutputBytes ? SHA256.hex(utf8: $0) : nil }
        expected = r.encodedExpected
        message = r.message
        durationNanos = r.durationNanos
    }
}

/// The prepared statement that writes case results, bound to one run and implementation: the
/// one place that knows the `caseResult` columns. Used inside a write transaction.
///
/// Values are bound with SQLite's own functions rather than through `StatementArguments`: the
/// insert runs once per case, and boxing thirteen values per row cost about a fifth of the writer's
/// time (0.75 s to 0.58 s of writer-thread CPU for 100,000 results); and texts are bound whole,
/// with their byte count, like every text of the store (see `SQLArgument`).
struct CaseResultInsert {
    static let sql = """
        INSERT OR REPLACE INTO caseResult (runId, implementationId, suite, caseId, operation, requirementId, level,
            outcome, nullWouldPass, actual, expected, message, durationNanos, actualRef)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let outputSQL = "INSERT OR IGNORE INTO outputText (sha256, text) VALUES (?, ?)"

    private let statement: Statement
    private let db: Database
    private let run: Int64
    private let implementation: Int64

    private let outputStatement: Statement

    init(_ db: Database, run: Int64, implementation: Int64) throws {
        statement = try db.cachedStatement(sql: Self.sql)
        outputStatement = try db.cachedStatement(sql: Self.outputSQL)
        self.db = db
        self.run = run
        self.implementation = implementation
    }

    /// Writes one row. `knownOutputs` holds the shared outputs already written through this
    /// writer (so a repeated large output is not bound and offered again); it grows by this
    /// row's when it has one.
    func write(_ r: CaseResultRow, knownOutputs: inout Set<String>) throws {
        if let ref = r.actualRef, !knownOutputs.contains(ref) {
            let o = outputStatement.sqliteStatement
            SQLArgument.bind(o, 1, ref)
            SQLArgument.bind(o, 2, r.actual)
            try step(o, Self.outputSQL)
            knownOutputs.insert(ref)
        }
        let s = statement.sqliteStatement
        sqlite3_bind_int64(s, 1, run)
        sqlite3_bind_int64(s, 2, implementation)
        SQLArgument.bind(s, 3, r.suite)
        SQLArgument.bind(s, 4, r.caseID)
        SQLArgument.bind(s, 5, r.operation)
        SQLArgument.bind(s, 6, r.requirement)
        SQLArgument.bind(s, 7, r.level.rawValue)
        SQLArgument.bind(s, 8, r.outcome.rawValue)
        sqlite3_bind_int64(s, 9, r.nullWouldPass ? 1 : 0)
        SQLArgument.bind(s, 10, r.actualRef == nil ? r.actual : nil)
        SQLArgument.bind(s, 11, r.expected)
        SQLArgument.bind(s, 12, r.message)
        sqlite3_bind_int64(s, 13, r.durationNanos)
        SQLArgument.bind(s, 14, r.actualRef)
        try step(s, Self.sql)
    }

    private func step(_ s: OpaquePointer, _ sql: String) throws {
        let code = sqlite3_step(s)
        sqlite3_reset(s)
        guard code == SQLITE_DONE else {
            let message = db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
    }
}
