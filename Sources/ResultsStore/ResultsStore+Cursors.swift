import Conformance
import GRDB
import LinkJSON

/// Reading a run without holding it: results one at a time from a cursor, and the counts
/// reports need as SQL aggregates. Memory stays flat whatever the run holds (a result's texts,
/// one at a time, are all that is ever in memory), which is what lets reports stream.
///
/// ```swift
/// try store.forEachResult(run: 3, ResultFilter(implementation: 1, outcomes: [.fail])) { stored in
///     print(stored.result.caseID)
/// }
/// ```
extension ResultsStore {
    /// Which results of a run to read.
    public struct ResultFilter: Sendable, Hashable {
        /// Only this implementation's results (nil: every implementation's).
        public var implementation: Int64?
        /// Only this suite's results (nil: every suite's).
        public var suite: String?
        /// Only results with one of these outcomes (nil: any outcome).
        public var outcomes: Set<Outcome>?
        /// At most this many results (nil: all).
        public var limit: Int?

        public init(implementation: Int64? = nil, suite: String? = nil, outcomes: Set<Outcome>? = nil, limit: Int? = nil) {
            self.implementation = implementation
            self.suite = suite
            self.outcomes = outcomes
            self.limit = limit
        }
    }

    /// Calls `body` with each result of `run` that `filter` selects, in insertion order, read
    /// from a cursor in one read transaction: each result is decoded when its turn comes and
    /// released after `body` returns. An error thrown by `body` ends the reading and is rethrown.
    public func forEachResult(run: Int64, _ filter: ResultFilter = ResultFilter(),
                              _ body: (StoredResult) throws -> Void) throws {
        var conditions = ["runId = ?"]
        var arguments: StatementArguments = [run]
        if let implementation = filter.implementation {
            conditions.append("implementationId = ?")
            arguments += [implementation]
        }
        if let suite = filter.suite {
            conditions.append("suite = ?")
            arguments += [suite]
        }
        if let outcomes = filter.outcomes {
            // Sorted, so that the same filter is always the same statement.
            let sorted = outcomes.map(\.rawValue).sorted()
            conditions.append("outcome IN (" + sorted.map { _ in "?" }.joined(separator: ", ") + ")")
            arguments += StatementArguments(sorted)
        }
        var selected = "SELECT id FROM caseResult WHERE " + conditions.joined(separator: " AND ")
        if let limit = filter.limit {
            selected += " ORDER BY id LIMIT ?"
            arguments += [max(0, limit)]
        }
        // The ids are chosen (and, for a limit, sorted) first, then each row is read by its id in
        // id order: SQLite walks the sorted id list, so nothing but ids is ever sorted. Sorting
        // the rows themselves (what `... WHERE runId = ? ORDER BY id` does, through the unique
        // index) would hold every selected output in SQLite's sorter at once.
        let sql = """
            SELECT c.implementationId, c.suite, c.caseId, c.operation, c.requirementId, c.level, c.outcome,
                   c.nullWouldPass, c.expected, c.message, c.durationNanos, COALESCE(c.actual, o.text) AS actualText
            FROM caseResult c LEFT JOIN outputText o ON o.sha256 = c.actualRef
            WHERE c.id IN (\(selected)) ORDER BY c.id
            """
        try pool.read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                try body(try Self.storedResult(row))
            }
        }
    }

    /// A result from a row of the cursor above. Its free texts are read as the exact bytes
    /// stored (GRDB's `String` reading stops at a NUL, which an adapter's message may carry).
    /// An output or expectation that is not JSON (written by hand or by another tool) reads as
    /// absent or null; a level or outcome this version does not know reads as INFO or
    /// `errored`, as everywhere else in the store.
    static func storedResult(_ row: Row) throws -> StoredResult {
        let expected = try row.exactText("expected") ?? ""
        let actual = try row.exactText("actualText")
        let result = CaseResult(
            suite: row["suite"], caseID: row["caseId"], operation: row["operation"], requirement: row["requirementId"],
            level: RequirementLevel(rawValue: row["level"]) ?? .info, outcome: Outcome(rawValue: row["outcome"]) ?? .errored,
            nullWouldPass: row["nullWouldPass"], actual: actual.flatMap { try? JSONParser.parse($0) },
            expected: (try? JSONParser.parse(expected)) ?? .null, encodedExpected: expected,
            message: try row.exactText("message"), durationNanos: row["durationNanos"])
        return StoredResult(implementationID: row["implementationId"], result: result)
    }

    /// What a run's results say about one requirement.
    public struct RequirementTally: Sendable, Hashable {
        public let suite: String
        public let requirement: String
        /// Distinct cases judging the requirement, over every implementation.
        public let cases: Int
        /// Of those, how many a null implementation would pass.
        public let nullPasses: Int
        /// Outcome counts per implementation id.
        public let counts: [Int64: [Outcome: Int]]
    }

    /// One tally per requirement that some result of `run` judges, counted by SQLite: two
    /// grouped queries, whatever the number of results. In no particular order.
    public func requirementTallies(run: Int64) throws -> [RequirementTally] {
        try pool.read { db in
            var counts: [String: [String: [Int64: [Outcome: Int]]]] = [:]
            let outcomeRows = try Row.fetchCursor(db, sql: """
                SELECT suite, requirementId, implementationId, outcome, COUNT(*) AS n FROM caseResult
                WHERE runId = ? GROUP BY suite, requirementId, implementationId, outcome
                """, arguments: [run])
            while let row = try outcomeRows.next() {
                let outcome = Outcome(rawValue: row["outcome"]) ?? .errored
                counts[row["suite"], default: [:]][row["requirementId"], default: [:]][row["implementationId"], default: [:]][outcome, default: 0]
                    += row["n"] as Int
            }
            return try Row.fetchAll(db, sql: """
                SELECT suite, requirementId, COUNT(DISTINCT caseId) AS cases,
                       COUNT(DISTINCT CASE WHEN nullWouldPass THEN caseId END) AS nullCases
                FROM caseResult WHERE runId = ? GROUP BY suite, requirementId
                """, arguments: [run]).map { row in
                let suite: String = row["suite"], requirement: String = row["requirementId"]
                return RequirementTally(suite: suite, requirement: requirement, cases: row["cases"], nullPasses: row["nullCases"],
                                        counts: counts[suite]?[requirement] ?? [:])
            }
        }
    }

    /// The summed durations of a run's cases, in nanoseconds, per implementation id and suite.
    public func caseDurations(run: Int64) throws -> [Int64: [String: Int64]] {
        try pool.read { db in
            var durations: [Int64: [String: Int64]] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT implementationId, suite, SUM(durationNanos) AS nanos FROM caseResult
                WHERE runId = ? GROUP BY implementationId, suite
                """, arguments: [run])
            while let row = try rows.next() {
                durations[row["implementationId"], default: [:]][row["suite"]] = row["nanos"]
            }
            return durations
        }
    }
}

extension Row {
    /// A text column's exact UTF-8 text, NULs included; nil for NULL. (Reading a `String`
    /// through GRDB stops at the first NUL.) For rows of a cursor, whose bytes are read in place.
    func exactText(_ column: String) throws -> String? {
        try withUnsafeData(named: column) { data in data.map { String(decoding: $0, as: UTF8.self) } }
    }
}
