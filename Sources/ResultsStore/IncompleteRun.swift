import GRDB
import LinkJSON

/// What a run that did not complete lacks. A run stopped by Ctrl-C or killed outright keeps the
/// results it had and records nothing for the cases it did not reach; the cases it was to run
/// are known from its corpus (`corpusCase`, kept per corpus fingerprint), so what is missing is
/// counted, not guessed. Reports and comparisons of such a run say so, with these counts.
public struct IncompleteRun: Sendable, Hashable {
    /// One implementation of the run and the cases of the corpus it has no result for.
    public struct Gap: Sendable, Hashable {
        public let implementationID: Int64
        public let name: String
        /// nil when ``IncompleteRun/corpusCases`` is.
        public let casesWithoutResult: Int?
    }

    public let run: Int64
    /// `interrupted`, `failed`, or `running` (a run whose process is still alive).
    public let status: RunStatus
    /// The cases of the run's corpus, per implementation; nil when the store does not hold
    /// them (runs stored by a version that did not keep them).
    public let corpusCases: Int?
    /// Every implementation in the run, in run order.
    public let implementations: [Gap]
    /// Implementations the run was started with (its options' `implementations`) that it never
    /// reached: they have no result at all.
    public let implementationsNotReached: Int
    /// Their names as the run was given them (a manifest's name or the command; the run goes
    /// through its implementations in order, so these are the last ones it was given).
    public var namesNotReached: [String] = []

    /// Cases without a result, over the implementations in the run and those it never reached;
    /// nil when the corpus's cases are not known.
    public var casesWithoutResult: Int? {
        guard let corpusCases else { return nil }
        return implementations.reduce(corpusCases * implementationsNotReached) { $0 + ($1.casesWithoutResult ?? 0) }
    }

    /// The results the run was to record: every case for every implementation it was started with.
    public var expectedResults: Int? {
        corpusCases.map { $0 * (implementations.count + implementationsNotReached) }
    }
}

extension ResultsStore {
    /// What `run` lacks when it did not complete (`interrupted`, `failed` or still `running`);
    /// nil for a completed run, or no such run. Two small queries over the corpus's cases and
    /// the result index, per implementation.
    public func incompleteRun(_ run: Int64) throws -> IncompleteRun? {
        guard let record = try self.run(run), record.status != .completed else { return nil }
        return try reading { db in
            let cases = try db.exactRows("SELECT COUNT(*) AS n FROM corpusCase WHERE corpusFingerprint = ?",
                                         [.text(record.corpusFingerprint)]) { $0.int("n") }.first ?? 0
            let known = cases > 0
            let gaps = try db.exactRows("""
                SELECT i.id, i.name,
                       (SELECT COUNT(*) FROM corpusCase k WHERE k.corpusFingerprint = ?2 AND NOT EXISTS
                            (SELECT 1 FROM caseResult c WHERE c.runId = ?1 AND c.implementationId = i.id AND c.caseId = k.caseId)) AS missing
                FROM implementation i JOIN runImplementation ri ON ri.implementationId = i.id
                WHERE ri.runId = ?1 ORDER BY ri.rowid
                """, [.integer(run), .text(record.corpusFingerprint)]) { row in
                IncompleteRun.Gap(implementationID: row.int64("id"), name: row.text("name"), casesWithoutResult: known ? row.int("missing") : nil)
            }
            let planned = ((try? JSONParser.parse(record.options))?["implementations"]?.arrayValue ?? []).map { $0.stringValue ?? "" }
            return IncompleteRun(run: run, status: record.status, corpusCases: known ? cases : nil, implementations: gaps,
                                 implementationsNotReached: max(0, planned.count - gaps.count),
                                 namesNotReached: Array(planned.dropFirst(gaps.count)))
        }
    }
}
