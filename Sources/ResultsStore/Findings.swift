import Foundation
import GRDB

/// A problem a fuzzer found, kept across runs: the same signature seen again counts up.
public struct Finding: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// The target crashed: a sanitizer report or a Swift runtime trap.
        case crash
        /// A LinkConform invariant was broken (the target stopped on purpose).
        case invariant
        case leak, timeout, oom
    }

    public enum Status: String, Sendable, Hashable, Codable {
        case open
        /// Fixed, with the reproducer kept as a regression input.
        case fixed
    }

    public let id: Int64
    public let target: String
    public let implementation: String
    public let kind: Kind
    /// Stable across runs and builds: the invariant, or the kind and the first frames in
    /// LinkConform's own code.
    public let signature: String
    /// The first line of the report, for people.
    public let message: String
    /// The (minimised) input that reproduces it.
    public let input: [UInt8]
    public let reproducerPath: String
    public let firstSeen: String
    public let lastSeen: String
    public let count: Int
    public let status: Status
}

extension Finding: FetchableRecord, TableRecord {
    public static let databaseTableName = "finding"

    /// A `finding` row (its kind and status are checked by the schema).
    public init(row: Row) {
        self.init(id: row["id"], target: row["target"], implementation: row["implementation"], kind: row["kind"],
                  signature: row["signature"], message: row["message"], input: Array(row["input"] as Data),
                  reproducerPath: row["reproducerPath"], firstSeen: row["firstSeen"], lastSeen: row["lastSeen"],
                  count: row["count"], status: row["status"])
    }
}

extension ResultsStore {
    /// Records a finding: a new one, or one more sighting of a known signature (which reopens
    /// it if it was fixed). Returns the finding as stored.
    @discardableResult
    public func recordFinding(target: String, implementation: String = "reference", kind: Finding.Kind, signature: String,
                              message: String, input: [UInt8], reproducerPath: String) throws -> Finding {
        let now = Self.timestamp()
        return try pool.write { db in
            let known = try Finding.filter(Column("target") == target && Column("implementation") == implementation
                                           && Column("signature") == signature).fetchOne(db)
            if let known {
                // Keep the smaller reproducer.
                let keepNew = input.count < known.input.count
                try db.execute(sql: """
                    UPDATE finding SET lastSeen = ?, count = count + 1, status = ?, message = ?,
                        input = CASE WHEN ? THEN ? ELSE input END,
                        reproducerPath = CASE WHEN ? THEN ? ELSE reproducerPath END
                    WHERE id = ?
                    """, arguments: [now, Finding.Status.open, message, keepNew, Data(input), keepNew, reproducerPath, known.id])
                return try Finding.fetchOne(db, key: known.id)!
            }
            try db.execute(sql: """
                INSERT INTO finding (target, implementation, kind, signature, message, input, reproducerPath, firstSeen, lastSeen, count, status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
                """, arguments: [target, implementation, kind, signature, message, Data(input), reproducerPath, now, now,
                                 Finding.Status.open])
            return try Finding.fetchOne(db, key: db.lastInsertedRowID)!
        }
    }

    /// Every finding, open ones first, most recently seen first.
    public func findings(target: String? = nil) throws -> [Finding] {
        try pool.read { db in
            try Finding.fetchAll(db, sql: """
                SELECT * FROM finding WHERE ? IS NULL OR target = ?
                ORDER BY status = ?, lastSeen DESC, id DESC
                """, arguments: [target, target, Finding.Status.fixed])
        }
    }

    public func finding(id: Int64) throws -> Finding? {
        try pool.read { db in try Finding.fetchOne(db, key: id) }
    }

    /// Marks a finding fixed.
    public func markFindingFixed(id: Int64) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE finding SET status = ? WHERE id = ?", arguments: [Finding.Status.fixed, id])
        }
    }
}
