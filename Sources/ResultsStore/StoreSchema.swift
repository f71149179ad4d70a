import Conformance
import GRDB

/// What opening a store checks of its schema, so that a store this version cannot read is a
/// clear error at once rather than a wrong answer or a trap halfway through a command:
///
/// - a schema change (a migration) this version does not know means a newer LinkConform wrote
///   the store; it is refused before anything is written to it;
/// - after migrating, every table this version's migrations make must be there with every
///   column they give it (a table dropped or a column removed by hand, or a file edited by
///   another tool, is named with the file).
///
/// Both are cheap: the first reads `grdb_migrations`, which the look for a foreign database
/// reads anyway; the second is one query over SQLite's own table list (0.2 ms in a debug build).
enum StoreSchema {
    /// The tables and columns this version's migrations make, in the order they add them: what
    /// it reads and writes. Written out rather than worked out by migrating an empty database
    /// on each open (2.5 ms of a debug build's 4 ms open); a test migrates one and compares,
    /// so a migration that adds a column fails it until the column is added here.
    static let expected: [(table: String, columns: [String])] = [
        ("implementation", ["id", "name", "version", "language", "homepage"]),
        ("run", ["id", "startedAt", "finishedAt", "status", "corpusFingerprint", "gitCommit", "toolVersion", "options", "host", "pid"]),
        ("runImplementation", ["runId", "implementationId", "status", "notes", "expectedFailures"]),
        ("runRequirement", ["runId", "suite", "requirementId", "level", "title", "decided"]),
        ("caseResult", ["id", "runId", "implementationId", "suite", "caseId", "operation", "requirementId", "level", "outcome",
                        "nullWouldPass", "actual", "expected", "message", "durationNanos", "actualRef"]),
        ("finding", ["id", "target", "implementation", "kind", "signature", "message", "input", "reproducerPath", "firstSeen",
                     "lastSeen", "count", "status"]),
        ("outputText", ["sha256", "text"]),
        ("corpusCase", ["corpusFingerprint", "suite", "caseId", "title", "file", "line", "input"]),
        ("differentialFinding", ["id", "implementation", "implementationVersion", "suite", "operation", "kind", "signature", "fields",
                                 "referenceCodes", "message", "input", "minimisedInput", "referenceOutput", "implementationAnswer",
                                 "firstSeen", "lastSeen", "count", "status", "promotedCase"]),
        ("corpusRequirement", ["corpusFingerprint", "suite", "requirementId", "statement", "document", "section", "rationale"]),
    ]

    /// Every table of `db` (SQLite's own left out) with its columns.
    static func columns(_ db: Database) throws -> [(table: String, columns: [String])] {
        var tables: [(table: String, columns: [String])] = []
        try db.exactEach("""
            SELECT m.name AS tableName, p.name AS columnName FROM sqlite_master m, pragma_table_info(m.name) p
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.rowid, p.cid
            """, []) { row in
            let table = row.text("tableName"), column = row.text("columnName")
            if tables.last?.table == table { tables[tables.count - 1].columns.append(column) } else { tables.append((table, [column])) }
        }
        return tables
    }

    /// The schema changes recorded in a store that this version does not know, in the order
    /// they were recorded: a newer version wrote the store when there are any.
    static func unknownMigrations(_ db: Database) throws -> [String] {
        let known = Set(ResultsStore.migrator.migrations)
        return try db.exactRows("SELECT identifier FROM grdb_migrations ORDER BY rowid", []) { $0.text("identifier") }
            .filter { !known.contains($0) }
    }

    /// Why the store at `path` cannot be opened by this version, when `unknown` (from
    /// ``unknownMigrations(_:)``) is not empty.
    static func newerStoreError(path: String, unknown: [String]) -> StoreError {
        let shown = unknown.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (unknown.count > 3 ? ", ..." : "")
        return StoreError(path: path, message: "written by a newer LinkConform: it records schema changes this version "
                          + "(\(LinkConformVersion.current)) does not know (\(shown)); it was left unchanged; "
                          + "open it with that newer version, or pass --db with another store")
    }

    /// Checks that `db` has every table and column of ``expected``; the error names each table
    /// or column missing.
    static func verify(_ db: Database, path: String) throws {
        let present = Dictionary(try columns(db).map { ($0.table, Set($0.columns)) }, uniquingKeysWith: { a, _ in a })
        var problems: [String] = []
        for (table, columns) in expected {
            guard let have = present[table] else {
                problems.append("the table \(table) is missing")
                continue
            }
            let missing = columns.filter { !have.contains($0) }
            if !missing.isEmpty {
                problems.append("the table \(table) has no column\(missing.count == 1 ? "" : "s") " + missing.joined(separator: ", "))
            }
        }
        guard problems.isEmpty else {
            throw StoreError(path: path, message: problems.joined(separator: ", ")
                             + "; this version needs \(problems.count == 1 ? "it" : "them") (the file was changed by another program, "
                             + "or is damaged); pass --db with another store, or restore this one from a copy")
        }
    }
}
