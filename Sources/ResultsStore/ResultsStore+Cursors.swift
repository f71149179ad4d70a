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
        /// Whether each result comes with what the corpus said about its case
        /// (``StoredResult/corpusCase``, when the store has it).
        public var withCases: Bool

        public init(implementation: Int64? = nil, suite: String? = nil, outcomes: Set<Outcome>? = nil, limit: Int? = nil,
                    withCases: Bool = false) {
            self.implementation = implementation
            self.suite = suite
            self.outcomes = outcomes
            self.limit = limit
            self.withCases = withCases
        }
    }

    /// Calls `body` with each result of `run` that `filter` selects, in insertion order, read
    /// from a cursor in one read transaction: each result is decoded when its turn comes and
    /// released after `body` returns. An error thrown by `body` ends the reading and is rethrown.
    public func forEachResult(run: Int64, _ filter: ResultFilter = ResultFilter(),
                              _ body: (StoredResult) throws -> Void) throws {
        var conditions = ["runId = ?"]
        var arguments: [SQLArgument] = [.integer(run)]
        if let implementation = filter.implementation {
            conditions.append("implementationId = ?")
            arguments.append(.integer(implementation))
        }
        if let suite = filter.suite {
            conditions.append("suite = ?")
            arguments.append(.text(suite))
        }
        if let outcomes = filter.outcomes {
            // Sorted, so that the same filter is always the same statement.
            let sorted = outcomes.map(\.rawValue).sorted()
            conditions.append("outcome IN (" + sorted.map { _ in "?" }.joined(separator: ", ") + ")")
            arguments += sorted.map { .text($0) }
        }
        var selected = "SELECT id FROM caseResult WHERE " + conditions.joined(separator: " AND ")
        if let limit = filter.limit {
            selected += " ORDER BY id LIMIT ?"
            arguments.append(.int(max(0, limit)))
        }
        // The ids are chosen (and, for a limit, sorted) first, then each row is read by its id in
        // id order: SQLite walks the sorted id list, so nothing but ids is ever sorted. Sorting
        // the rows themselves (what `... WHERE runId = ? ORDER BY id` does, through the unique
        // index) would hold every selected output in SQLite's sorter at once.
        // The case's facts are kept per corpus fingerprint (`corpusCase`): one lookup by primary
        // key per result, and only when asked for.
        let cases = filter.withCases
            ? (columns: "k.title AS caseTitle, k.file AS caseFile, k.line AS caseLine, k.input AS caseInput",
               joins: """
                   LEFT JOIN run r ON r.id = c.runId
                   LEFT JOIN corpusCase k ON k.corpusFingerprint = r.corpusFingerprint AND k.suite = c.suite AND k.caseId = c.caseId
                   """)
            : (columns: "NULL AS caseTitle, NULL AS caseFile, NULL AS caseLine, NULL AS caseInput", joins: "")
        let sql = """
            SELECT c.implementationId, c.suite, c.caseId, c.operation, c.requirementId, c.level, c.outcome,
                   c.nullWouldPass, c.expected, c.message, c.durationNanos, COALESCE(c.actual, o.text) AS actualText,
                   \(cases.columns)
            FROM caseResult c LEFT JOIN outputText o ON o.sha256 = c.actualRef
            \(cases.joins)
            WHERE c.id IN (\(selected)) ORDER BY c.id
            """
        try reading { db in
            try db.exactEach(sql, arguments) { row in try body(Self.storedResult(row)) }
        }
    }

    /// A result from a row of the query above, every text read whole (NULs included), with its
    /// case's facts when the query joined them and the store has them. An output
    /// or expectation that is not JSON (written by hand or by another tool) reads as absent or
    /// null; a level or outcome this version does not know reads as INFO or `errored`, as
    /// everywhere else in the store.
    static func storedResult(_ row: ExactRow) -> StoredResult {
        let expected = row.text("expected")
        return StoredResult(implementationID: row.int64("implementationId"), result: CaseResult(
            suite: row.text("suite"), caseID: row.text("caseId"), operation: row.text("operation"),
            requirement: row.text("requirementId"), level: row.value("level", or: .info),
            outcome: row.value("outcome", or: .errored), nullWouldPass: row.bool("nullWouldPass"),
            actual: row.optionalText("actualText").flatMap { try? JSONParser.parse($0) },
            expected: (try? JSONParser.parse(expected)) ?? .null, encodedExpected: expected,
            message: row.optionalText("message"), durationNanos: row.int64("durationNanos")),
            corpusCase: row.optionalText("caseInput").map { input in
                StoredCase(title: row.text("caseTitle"), file: row.text("caseFile"), line: row.int("caseLine"), input: input)
            })
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
        try reading { db in
            var counts: [String: [String: [Int64: [Outcome: Int]]]] = [:]
            try db.exactEach("""
                SELECT suite, requirementId, implementationId, outcome, COUNT(*) AS n FROM caseResult
                WHERE runId = ? GROUP BY suite, requirementId, implementationId, outcome
                """, [.integer(run)]) { row in
                counts[row.text("suite"), default: [:]][row.text("requirementId"), default: [:]][row.int64("implementationId"), default: [:]][
                    row.value("outcome", or: Outcome.errored), default: 0] += row.int("n")
            }
            return try db.exactRows("""
                SELECT suite, requirementId, COUNT(DISTINCT caseId) AS cases,
                       COUNT(DISTINCT CASE WHEN nullWouldPass THEN caseId END) AS nullCases
                FROM caseResult WHERE runId = ? GROUP BY suite, requirementId
                """, [.integer(run)]) { row in
                let suite = row.text("suite"), requirement = row.text("requirementId")
                return RequirementTally(suite: suite, requirement: requirement, cases: row.int("cases"), nullPasses: row.int("nullCases"),
                                        counts: counts[suite]?[requirement] ?? [:])
            }
        }
    }
}

extension ResultsStore {
    /// How many of one implementation's results in a run judge one requirement at one level
    /// with one outcome.
    public struct OutcomeTally: Sendable, Hashable {
        public let suite: String
        public let requirement: String
        /// The level the results were judged at (the requirement's, recorded with each result).
        public let level: RequirementLevel
        public let outcome: Outcome
        public let count: Int
    }

    /// One implementation's results in `run`, counted by suite, requirement, level and outcome
    /// in one grouped query, in the order the results were stored (by the first result of each
    /// group). The level is read from the results themselves, so a run whose requirements were
    /// not recorded is counted all the same.
    public func outcomeTallies(run: Int64, implementation: Int64) throws -> [OutcomeTally] {
        try reading { db in
            try db.exactRows("""
                SELECT suite, requirementId, level, outcome, COUNT(*) AS n FROM caseResult
                WHERE runId = ? AND implementationId = ?
                GROUP BY suite, requirementId, level, outcome ORDER BY MIN(id)
                """, [.integer(run), .integer(implementation)]) { row in
                OutcomeTally(suite: row.text("suite"), requirement: row.text("requirementId"), level: row.value("level", or: .info),
                             outcome: row.value("outcome", or: .errored), count: row.int("n"))
            }
        }
    }

    /// Per suite and operation of one implementation in a run: how many cases it has, how many
    /// of them were `skipped` (an operation whose every case was skipped is one the
    /// implementation does not do, or did not declare) and how many `notRun` (never sent: the
    /// adapter was given up, or did not start). Suites and operations in the order they were
    /// stored.
    public func operationTallies(run: Int64, implementation: Int64) throws
        -> [(suite: String, operation: String, cases: Int, skipped: Int, notRun: Int)] {
        try reading { db in
            try db.exactRows("""
                SELECT suite, operation, COUNT(*) AS n, SUM(outcome = ?) AS skipped, SUM(outcome = ?) AS notRun FROM caseResult
                WHERE runId = ? AND implementationId = ? GROUP BY suite, operation ORDER BY MIN(id)
                """, [.raw(Outcome.skipped), .raw(Outcome.notRun), .integer(run), .integer(implementation)]) { row in
                (suite: row.text("suite"), operation: row.text("operation"), cases: row.int("n"), skipped: row.int("skipped"),
                 notRun: row.int("notRun"))
            }
        }
    }
}
