import Conformance
import GRDB
import LinkJSON

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
    /// Cases of this implementation and suite that got worse, or better, since its previous
    /// result in this suite (``previousRun``; 0 when there is none), as ``RunComparison`` judges
    /// them, strictly when this point's run was made with `--strict` (a pass that became
    /// `nonStrict` is then a regression, as it was for that run's exit code).
    public let regressions: Int
    public let fixes: Int
    /// The newest completed run before this one in which this implementation has results in
    /// this suite, whether or not it is in the history's window (nil: none).
    public let previousRun: Int64?

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
            // Per implementation name and suite, the run and implementation id of its previous
            // result in that suite: a run of other suites (`run --suite`) is not the previous one.
            // Looked up before the window for the first point of each.
            var previous: [String: [String: (run: Int64, implementation: Int64)]] = [:]
            for record in chosen {
                let implementations = try db.exactRows("""
                    SELECT i.id, i.name, i.version, ri.status <> ? AS started FROM implementation i
                    JOIN runImplementation ri ON ri.implementationId = i.id WHERE ri.runId = ? ORDER BY ri.rowid
                    """, [.raw(ImplementationStatus.failedToStart), .integer(record.id)]) {
                    (id: $0.int64("id"), name: $0.text("name"), version: $0.text("version"), started: $0.int("started") != 0)
                }
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
                    var before: [String: (run: Int64, implementation: Int64)] = [:]
                    // A night it failed to start is compared with nothing: every case would look
                    // worse, beside the reports' "did not start".
                    for suite in suites where implementation.started {
                        if let known = previous[implementation.name]?[suite] {
                            before[suite] = known
                        } else if let earlier = try RunHistoryLookup.previousResult(db, name: implementation.name, suite: suite, before: record.id) {
                            before[suite] = earlier
                        }
                    }
                    // One grouped query per earlier result, for the suites it is the previous of.
                    var moves: [String: (regressions: Int, fixes: Int)] = [:]
                    var asked: [(run: Int64, implementation: Int64)] = []
                    for pair in before.values where !asked.contains(where: { $0 == pair }) {
                        asked.append(pair)
                        for (suite, move) in try RunHistoryLookup.moves(db, before: pair, after: (record.id, implementation.id), strict: record.strict)
                        where before[suite].map({ $0 == pair }) == true {
                            moves[suite] = move
                        }
                    }
                    for suite in suites {
                        points.append(HistoryPoint(runID: record.id, startedAt: record.startedAt, status: record.status,
                                                   gitCommit: record.gitCommit, implementation: implementation.name,
                                                   version: implementation.version, suite: suite, counts: counts[suite] ?? [:],
                                                   regressions: moves[suite]?.regressions ?? 0, fixes: moves[suite]?.fixes ?? 0,
                                                   previousRun: before[suite]?.run))
                        // A night it failed to start is no one's previous result, as for the baseline.
                        if implementation.started { previous[implementation.name, default: [:]][suite] = (record.id, implementation.id) }
                    }
                }
            }
            return points
        }
    }

}

/// The history's queries; the baseline gate (``ResultsStore/baselineRun(for:suite:before:)``)
/// finds a suite's previous result the same way.
enum RunHistoryLookup {
    /// The newest completed run before `run` in which the implementation called `name` started
    /// and has results in `suite`, with that implementation's id there (a night it failed to
    /// start holds a `notRun` for every case: against it, every case would look fixed). Only that
    /// implementation's results are read (its runs newest first, each through the result
    /// index's run and implementation prefix): with the name tested last, a suite it never ran
    /// read every result of the store (1 s over 2 million, a review measured). A run whose
    /// options do not name the suite in quotes is passed over before its results are read (the
    /// options of a run list its suites; the test is a filter only, the results still decide;
    /// written as a CASE so that SQLite cannot read the results first), so a suite the
    /// implementation never ran no longer reads all of its results either: 0.26 s to 0.4 ms
    /// for a suite new to one of six implementations in a store of 376 nights (3.7 million results).
    static func previousResult(_ db: Database, name: String, suite: String, before run: Int64) throws -> (run: Int64, implementation: Int64)? {
        try db.exactRows("""
            SELECT ri.runId AS run, ri.implementationId AS implementation FROM runImplementation ri JOIN run r ON r.id = ri.runId
            WHERE ri.implementationId IN (SELECT id FROM implementation WHERE name = ?1)
              AND ri.runId < ?3 AND r.status = ?4 AND ri.status <> ?5
              AND CASE WHEN instr(r.options, ?6) > 0 OR instr(r.options, '"suites"') = 0
                  THEN EXISTS (SELECT 1 FROM caseResult c WHERE c.runId = ri.runId AND c.implementationId = ri.implementationId AND c.suite = ?2)
                  ELSE 0 END
            ORDER BY ri.runId DESC LIMIT 1
            """, [.text(name), .text(suite), .integer(run), .raw(RunStatus.completed), .raw(ImplementationStatus.failedToStart),
                  .text(JSONValue.string(suite).serialized())]) {
            (run: $0.int64("run"), implementation: $0.int64("implementation"))
        }.first
    }

    /// Regressions and fixes per suite between two results of one implementation, counted in
    /// one grouped query over the case index, as ``RunComparison/kind(before:after:strict:)``
    /// sorts them (a case judged under another requirement or level than before counts as
    /// neither, as in ``ResultsStore/compare(_:_:strict:)``).
    static func moves(_ db: Database, before: (run: Int64, implementation: Int64),
                              after: (run: Int64, implementation: Int64), strict: Bool) throws -> [String: (regressions: Int, fixes: Int)] {
        let bad = RunComparison.badOutcomes(strict: strict).map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        var moves: [String: (Int, Int)] = [:]
        try db.exactEach("""
            SELECT a.suite,
                   SUM((a.outcome IN (\(bad)) AND b.outcome NOT IN (\(bad))) OR (b.outcome = ?5 AND a.outcome = ?6)) AS regressions,
                   SUM((b.outcome IN (\(bad)) AND a.outcome NOT IN (\(bad))) OR (b.outcome = ?6 AND a.outcome = ?5)) AS fixes
            FROM caseResult a JOIN caseResult b ON b.runId = ?3 AND b.implementationId = ?4 AND b.caseId = a.caseId
                 AND b.requirementId = a.requirementId AND b.level = a.level
            WHERE a.runId = ?1 AND a.implementationId = ?2
            GROUP BY a.suite
            """, [.integer(after.run), .integer(after.implementation), .integer(before.run), .integer(before.implementation),
                  .raw(Outcome.unexpectedPass), .raw(Outcome.expectedFail)]) { row in
            moves[row.text("suite")] = (row.int("regressions"), row.int("fixes"))
        }
        return moves
    }
}
