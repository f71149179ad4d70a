import Foundation
import GRDB
import LinkJSON

/// A disagreement between an implementation and the reference found by `linkconform fuzz`,
/// kept across runs: one row per implementation and signature, counted up when seen again.
public struct DifferentialFinding: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, Codable {
        case open
        /// Turned into a corpus case (``promotedCase``).
        case promoted
    }

    public let id: Int64
    public let implementation: String
    public let implementationVersion: String
    public let suite: String
    public let operation: String
    /// `differs`, `malformed`, `errored`, `crashed`, `timedOut` or `protocolError`.
    public let kind: String
    public let signature: String
    /// The fields that differ on the minimised input.
    public let fields: [String]
    /// The violation codes the reference reported for the minimised input.
    public let referenceCodes: [String]
    /// What differed on the minimised input, for people (its mismatches, or the harness's
    /// message). A finding stored by an earlier version holds the first input's fields, codes and
    /// message.
    public let message: String
    /// The first input found with this signature, and the smallest one that kept it (JSON text
    /// of the operation's input).
    public let input: String
    public let minimisedInput: String
    /// Both answers to the minimised input: the reference's output, and the implementation's
    /// answer as `{"output": ...}`, `{"errored": ...}`, `{"crashed": "..."}`, ... (JSON text).
    public let referenceOutput: String
    public let implementationAnswer: String
    public let firstSeen: String
    public let lastSeen: String
    public let count: Int
    public let status: Status
    public let promotedCase: String?

    /// What `record` needs: everything but the id, the times, the count and the status.
    public struct New: Sendable, Hashable {
        public var implementation: String
        public var implementationVersion: String
        public var suite: String
        public var operation: String
        public var kind: String
        public var signature: String
        public var fields: [String]
        public var referenceCodes: [String]
        public var message: String
        public var input: String
        public var minimisedInput: String
        public var referenceOutput: String
        public var implementationAnswer: String

        public init(implementation: String, implementationVersion: String, suite: String, operation: String, kind: String,
                    signature: String, fields: [String], referenceCodes: [String], message: String, input: String,
                    minimisedInput: String, referenceOutput: String, implementationAnswer: String) {
            self.implementation = implementation
            self.implementationVersion = implementationVersion
            self.suite = suite
            self.operation = operation
            self.kind = kind
            self.signature = signature
            self.fields = fields
            self.referenceCodes = referenceCodes
            self.message = message
            self.input = input
            self.minimisedInput = minimisedInput
            self.referenceOutput = referenceOutput
            self.implementationAnswer = implementationAnswer
        }
    }
}

extension DifferentialFinding {
    init(_ row: ExactRow) {
        func list(_ column: String) -> [String] {
            ((try? JSONParser.parse(row.text(column)))?.arrayValue ?? []).compactMap(\.stringValue)
        }
        self.init(id: row.int64("id"), implementation: row.text("implementation"), implementationVersion: row.text("implementationVersion"),
                  suite: row.text("suite"), operation: row.text("operation"), kind: row.text("kind"), signature: row.text("signature"),
                  fields: list("fields"), referenceCodes: list("referenceCodes"), message: row.text("message"), input: row.text("input"),
                  minimisedInput: row.text("minimisedInput"), referenceOutput: row.text("referenceOutput"),
                  implementationAnswer: row.text("implementationAnswer"), firstSeen: row.text("firstSeen"), lastSeen: row.text("lastSeen"),
                  count: row.int("count"), status: row.value("status", or: .open), promotedCase: row.optionalText("promotedCase"))
    }

    static func fetch(_ db: Database, id: Int64) throws -> DifferentialFinding? {
        try db.exactRows("SELECT * FROM differentialFinding WHERE id = ?", [.integer(id)], DifferentialFinding.init).first
    }
}

extension ResultsStore {
    /// Records a disagreement: a new finding, or one more sighting of a known signature (which
    /// keeps the smaller minimised input, with its answers, fields, codes and message). Returns
    /// the finding as stored and whether its signature was new to the store.
    @discardableResult
    public func recordDifferentialFinding(_ new: DifferentialFinding.New) throws -> (finding: DifferentialFinding, isNew: Bool) {
        let now = Self.timestamp()
        func listText(_ items: [String]) -> String { JSONValue.array(items.map(JSONValue.string)).serialized() }
        return try writing { db in
            let known = try db.exactRows("SELECT id, length(CAST(minimisedInput AS BLOB)) AS size FROM differentialFinding WHERE implementation = ? AND signature = ?",
                                         [.text(new.implementation), .text(new.signature)]) { ($0.int64("id"), $0.int("size")) }.first
            if let (id, size) = known {
                let smaller = new.minimisedInput.utf8.count < size
                try db.exactExecute("""
                    UPDATE differentialFinding SET lastSeen = ?, count = count + 1,
                        minimisedInput = CASE WHEN ? THEN ? ELSE minimisedInput END,
                        referenceOutput = CASE WHEN ? THEN ? ELSE referenceOutput END,
                        implementationAnswer = CASE WHEN ? THEN ? ELSE implementationAnswer END,
                        fields = CASE WHEN ? THEN ? ELSE fields END,
                        referenceCodes = CASE WHEN ? THEN ? ELSE referenceCodes END,
                        message = CASE WHEN ? THEN ? ELSE message END
                    WHERE id = ?
                    """, [.text(now), .bool(smaller), .text(new.minimisedInput), .bool(smaller), .text(new.referenceOutput),
                          .bool(smaller), .text(new.implementationAnswer), .bool(smaller), .text(listText(new.fields)),
                          .bool(smaller), .text(listText(new.referenceCodes)), .bool(smaller), .text(new.message), .integer(id)])
                return (try DifferentialFinding.fetch(db, id: id)!, false)
            }
            try db.exactExecute("""
                INSERT INTO differentialFinding (implementation, implementationVersion, suite, operation, kind, signature, fields,
                    referenceCodes, message, input, minimisedInput, referenceOutput, implementationAnswer, firstSeen, lastSeen, count, status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
                """, [.text(new.implementation), .text(new.implementationVersion), .text(new.suite), .text(new.operation), .text(new.kind),
                      .text(new.signature), .text(listText(new.fields)), .text(listText(new.referenceCodes)), .text(new.message),
                      .text(new.input), .text(new.minimisedInput), .text(new.referenceOutput), .text(new.implementationAnswer),
                      .text(now), .text(now), .raw(DifferentialFinding.Status.open)])
            return (try DifferentialFinding.fetch(db, id: db.lastInsertedRowID)!, true)
        }
    }

    /// Counts more sightings of known signatures, all in one transaction: what fuzzing writes
    /// every quarter of a second, however many inputs it judged meanwhile.
    public func addDifferentialSightings(implementation: String, _ counts: [String: Int]) throws {
        guard !counts.isEmpty else { return }
        let now = Self.timestamp()
        try writing { db in
            for (signature, count) in counts.sorted(by: { $0.key < $1.key }) {
                try db.exactExecute("UPDATE differentialFinding SET lastSeen = ?, count = count + ? WHERE implementation = ? AND signature = ?",
                                    [.text(now), .int(count), .text(implementation), .text(signature)])
            }
        }
    }

    /// The signatures already stored for an implementation.
    public func differentialSignatures(implementation: String) throws -> Set<String> {
        Set(try differentialFindingIDs(implementation: implementation).keys)
    }

    /// The signatures already stored for an implementation, each with its finding's id.
    public func differentialFindingIDs(implementation: String) throws -> [String: Int64] {
        try reading { db in
            Dictionary(try db.exactRows("SELECT signature, id FROM differentialFinding WHERE implementation = ?", [.text(implementation)]) {
                ($0.text("signature"), $0.int64("id"))
            }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// Every differential finding (of one implementation), open ones first, most recently seen first.
    public func differentialFindings(implementation: String? = nil) throws -> [DifferentialFinding] {
        try reading { db in
            try db.exactRows("""
                SELECT * FROM differentialFinding WHERE ? IS NULL OR implementation = ?
                ORDER BY status = ?, lastSeen DESC, id DESC
                """, [.text(implementation), .text(implementation), .raw(DifferentialFinding.Status.promoted)], DifferentialFinding.init)
        }
    }

    public func differentialFinding(id: Int64) throws -> DifferentialFinding? {
        try reading { db in try DifferentialFinding.fetch(db, id: id) }
    }

    /// Marks a finding promoted to the corpus case `caseID`.
    public func markDifferentialFindingPromoted(id: Int64, caseID: String) throws {
        try writing { db in
            try db.exactExecute("UPDATE differentialFinding SET status = ?, promotedCase = ? WHERE id = ?",
                                [.raw(DifferentialFinding.Status.promoted), .text(caseID), .integer(id)])
        }
    }
}
