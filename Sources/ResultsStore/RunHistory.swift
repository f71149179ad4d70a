import Conformance
import GRDB

/// How one implementation fared in one suite in one run: a point of the nightly trend.
public struct HistoryPoint: Sendable, Hashable {
    public let runID: Int64
    public let startedAt: String
    public let status: RunStatus
    public let gitCommit: String?
    public let implementation: String
    public let version: String
    public let suite: String
    public let counts: [Outcome: Int]
    /// Cases of this implementation and suite that got worse, or better, since the previous run
    /// of the history holding this implementation (0 at its first point), as ``RunComparison``
    /// judges them (without `strict`).
    public let regressions: Int
    public let fixes: Int

    public var passCount: PassCount { PassCount(counts) }
    public var passed: Int { passCount.passed }
    public var judged: Int { passCount.judged }
    public var passRate: Double? { passCount.rate }
}

/// How many judged cases passed: what the trend, the badges and the statements show as a pass
/// rate.
public struct PassCount: Sendable, Hashable {
    /// The outcomes a pass rate is taken over: every judged case, whatever its verdict.
    /// (`informational`, `skipped` and `notRun` cases were not judged.)
    public static let judgedOutcomes: Set<Outcome> = [.pass, .fail, .nonStrict, .errored, .crashed, .timedOut, .protocolError,
                                                      .expectedFail, .unexpectedPass]

    /// `pass` and `unexpectedPass` (a listed failure that passes does pass).
    public let passed: Int
    public let judged: Int

    public init(_ counts: [Outcome: Int]) {
        passed = (counts[.pass] ?? 0) + (counts[.unexpectedPass] ?? 0)
        judged = Self.judgedOutcomes.reduce(0) { $0 + (counts[$1] ?? 0) }
    }

    /// passed / judged, nil when nothing was judged.
    public var rate: Double? { judged == 0 ? nil : Double(passed) / Double(judged) }
}

extension ResultsStore {
    /// The trend: the last `runs` completed runs up to and including `through` (default: the
    /// newest run, which is included whatever its status), oldest first; one point per run,
    /// implementation and suite. Counted by SQLite, so the cost grows with runs × implementations
    /// × suites, not with results held in memory.
    public func history(runs limit: Int = 30, through run: Int64? = nil) throws -> [HistoryPoint] {
        try reading { db in
            let last = try run ?? Int64.fetchOne(db, sql: "SELECT MAX(id) FROM run") ?? 0
            let chosen = try db.exactRows("""
                SELECT * FROM run WHERE id = ?1 OR (id < ?1 AND status = ?2) ORDER BY id DESC LIMIT ?3
                """, [.integer(last), .raw(RunStatus.completed), .int(max(1, limit))], RunRecord.init).reversed()
            var points: [HistoryPoint] = []
            // The implementation id each name had in the previous chosen run that held it.
            var previous: [String: (run: Int64, implementation: Int64)] = [:]
            for record in chosen {
                let implementations = try db.exactRows("""
                    SELECT i.id, i.name, i.version FROM implementation i JOIN runImplementation ri ON ri.implementationId = i.id
                    WHERE ri.runId = ? ORDER BY ri.rowid
                    """, [.integer(record.id)]) { (id: $0.int64("id"), name: $0.text("name"), version: $0.text("version")) }
                for implementation in implementations {
                    var counts: [String: [Outcome: Int]] = [:]
                    var suites: [String] = []
                    try db.exactEach("""
                        SELECT suite, outcome, COUNT(*) AS n FROM caseResult WHERE runId = ? AND implementationId = ?
                        GROUP BY suite, outcome ORDER BY MIN(id)
                        """, [.integer(record.id), .integer(implementation.id)]) { row in
                        let suite = row.text("suite")
                        if counts[suite] == nil { suites.append(suite) }
                        counts[suite, default: [:]][row.value("outcome", or: Outcome.errored), default: 0] += row.int("n")
                    }
                    var moves: [String: (regressions: Int, fixes: Int)] = [:]
                    if let before = previous[implementation.name] {
                        moves = try Self.moves(db, before: before, after: (record.id, implementation.id))
                    }
                    for suite in suites {
                        points.append(HistoryPoint(runID: record.id, startedAt: record.startedAt, status: record.status,
                                                   gitCommit: record.gitCommit, implementation: implementation.name,
                                                   version: implementation.version, suite: suite, counts: counts[suite] ?? [:],
                                                   regressions: moves[suite]?.regressions ?? 0, fixes: moves[suite]?.fixes ?? 0))
                    }
                    previous[implementation.name] = (record.id, implementation.id)
                }
            }
            return points
        }
    }

    /// Regressions and fixes per suite between two results of one implementation, counted in
    /// one grouped query over the case index.
    private static func moves(_ db: Database, before: (run: Int64, implementation: Int64),
                              after: (run: Int64, implementation: Int64)) throws -> [String: (regressions: Int, fixes: Int)] {
        let bad = RunComparison.badOutcomes(strict: false).map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        var moves: [String: (Int, Int)] = [:]
        try db.exactEach("""
            SELECT a.suite,
                   SUM(a.outcome IN (\(bad)) AND b.outcome NOT IN (\(bad))) AS regressions,
                   SUM(b.outcome IN (\(bad)) AND a.outcome NOT IN (\(bad))) AS fixes
            FROM caseResult a JOIN caseResult b ON b.runId = ?3 AND b.implementationId = ?4 AND b.caseId = a.caseId
            WHERE a.runId = ?1 AND a.implementationId = ?2
            GROUP BY a.suite
            """, [.integer(after.run), .integer(after.implementation), .integer(before.run), .integer(before.implementation)]) { row in
            moves[row.text("suite")] = (row.int("regressions"), row.int("fixes"))
        }
        return moves
    }
}
