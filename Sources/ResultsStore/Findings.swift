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

extension Finding {
    /// A `finding` row (its kind and status are checked by the schema).
    init(_ row: ExactRow) {
        self.init(id: row.int64("id"), target: row.text("target"), implementation: row.text("implementation"),
                  kind: row.value("kind", or: .crash), signature: row.text("signature"), message: row.text("message"),
                  input: row.bytes("input"), reproducerPath: row.text("reproducerPath"), firstSeen: row.text("firstSeen"),
                  lastSeen: row.text("lastSeen"), count: row.int("count"), status: row.value("status", or: .open))
    }

    static func fetch(_ db: Database, id: Int64) throws -> Finding? {
        try db.exactRows("SELECT * FROM finding WHERE id = ?", [.integer(id)], Finding.init).first
    }
}

extension ResultsStore {
    /// Records a finding: a new one, or one more sighting of a known signature (which reopens
    /// it if it was fixed). Returns the finding as stored.
    @discardableResult
    public func recordFinding(target: String, implementation: String = "reference", kind: Finding.Kind, signature: String,
                              message: String, input: [UInt8], reproducerPath: String) throws -> Finding {
        let now = Self.timestamp()
        return try writing { db in
            let known = try db.exactRows("SELECT * FROM finding WHERE target = ? AND implementation = ? AND signature = ?",
                                         [.text(target), .text(implementation), .text(signature)], Finding.init).first
            if let known {
                // Keep the smaller reproducer.
                let keepNew = input.count < known.input.count
                try db.exactExecute("""
                    UPDATE finding SET lastSeen = ?, count = count + 1, status = ?, message = ?,
                        input = CASE WHEN ? THEN ? ELSE input END,
                        reproducerPath = CASE WHEN ? THEN ? ELSE reproducerPath END
                    WHERE id = ?
                    """, [.text(now), .raw(Finding.Status.open), .text(message), .bool(keepNew), .blob(input), .bool(keepNew),
                          .text(reproducerPath), .integer(known.id)])
                return try Finding.fetch(db, id: known.id)!
            }
            try db.exactExecute("""
                INSERT INTO finding (target, implementation, kind, signature, message, input, reproducerPath, firstSeen, lastSeen, count, status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
                """, [.text(target), .text(implementation), .raw(kind), .text(signature), .text(message), .blob(input),
                      .text(reproducerPath), .text(now), .text(now), .raw(Finding.Status.open)])
            return try Finding.fetch(db, id: db.lastInsertedRowID)!
        }
    }

    /// Every finding, open ones first, most recently seen first.
    public func findings(target: String? = nil) throws -> [Finding] {
        try reading { db in
            try db.exactRows("""
                SELECT * FROM finding WHERE ? IS NULL OR target = ?
                ORDER BY status = ?, lastSeen DESC, id DESC
                """, [.text(target), .text(target), .raw(Finding.Status.fixed)], Finding.init)
        }
    }

    public func finding(id: Int64) throws -> Finding? {
        try reading { db in try Finding.fetch(db, id: id) }
    }

    /// Marks a finding fixed.
    public func markFindingFixed(id: Int64) throws {
        try writing { db in
            try db.exactExecute("UPDATE finding SET status = ? WHERE id = ?", [.raw(Finding.Status.fixed), .integer(id)])
        }
    }
}
