import GRDB

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
        /// The same cases per suite (a suite it has every result of is left out); empty when
        /// ``IncompleteRun/corpusCases`` is nil.
        public var withoutResultBySuite: [String: Int] = [:]
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
    /// Their names: as the run was given them (a manifest's name or the command; the run goes
    /// through its implementations in order, so these are the last ones it was given), or, when
    /// an earlier run was given the same label and reached it, the name the implementation gave
    /// itself there (an adapter given as `--adapter 'python3 x.py'` is stored under its
    /// handshake's name, and its badges and history go by that name).
    public var namesNotReached: [String] = []
    /// The cases of the run's corpus per suite; empty when ``corpusCases`` is nil.
    public var corpusCasesBySuite: [String: Int] = [:]

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
            var bySuite: [String: Int] = [:]
            try db.exactEach("SELECT suite, COUNT(*) AS n FROM corpusCase WHERE corpusFingerprint = ? GROUP BY suite",
                             [.text(record.corpusFingerprint)]) { bySuite[$0.text("suite")] = $0.int("n") }
            let cases = bySuite.values.reduce(0, +)
            let known = cases > 0
            var missing: [Int64: [String: Int]] = [:]
            try db.exactEach("""
                SELECT ri.implementationId AS id, k.suite, COUNT(*) AS missing
                FROM runImplementation ri JOIN corpusCase k ON k.corpusFingerprint = ?2
                WHERE ri.runId = ?1 AND NOT EXISTS
                    (SELECT 1 FROM caseResult c WHERE c.runId = ?1 AND c.implementationId = ri.implementationId AND c.caseId = k.caseId)
                GROUP BY ri.implementationId, k.suite
                """, [.integer(run), .text(record.corpusFingerprint)]) { row in
                missing[row.int64("id"), default: [:]][row.text("suite")] = row.int("missing")
            }
            let gaps = try db.exactRows("""
                SELECT i.id, i.name FROM implementation i JOIN runImplementation ri ON ri.implementationId = i.id
                WHERE ri.runId = ?1 ORDER BY ri.rowid
                """, [.integer(run)]) { row in
                let bySuite = missing[row.int64("id")] ?? [:]
                return IncompleteRun.Gap(implementationID: row.int64("id"), name: row.text("name"),
                                         casesWithoutResult: known ? bySuite.values.reduce(0, +) : nil, withoutResultBySuite: bySuite)
            }
            let planned = Self.planned(record.options)
            let notReached = try planned.dropFirst(gaps.count).map { try Self.knownName(of: $0, before: run, db) ?? $0 }
            return IncompleteRun(run: run, status: record.status, corpusCases: known ? cases : nil, implementations: gaps,
                                 implementationsNotReached: max(0, planned.count - gaps.count),
                                 namesNotReached: notReached, corpusCasesBySuite: bySuite)
        }
    }

    /// The labels a run was started with (its options' `implementations`), in order.
    static func planned(_ options: String) -> [String] {
        RunRecord.strings("implementations", in: options)
    }

    /// The name the implementation labelled `label` gave itself in the newest earlier run that
    /// reached it: a run registers its implementations in the order it was given them, so the
    /// label's place among a run's labels is its implementation's place among the run's
    /// implementations. Nil when no run of the last 100 reached it.
    static func knownName(of label: String, before run: Int64, _ db: Database) throws -> String? {
        let earlier = try db.exactRows("SELECT id, options FROM run WHERE id < ? ORDER BY id DESC LIMIT 100", [.integer(run)]) {
            (id: $0.int64("id"), options: $0.text("options"))
        }
        for candidate in earlier {
            guard let place = planned(candidate.options).firstIndex(of: label) else { continue }
            let names = try db.exactRows("""
                SELECT i.name FROM implementation i JOIN runImplementation ri ON ri.implementationId = i.id
                WHERE ri.runId = ? ORDER BY ri.rowid LIMIT 1 OFFSET ?
                """, [.integer(candidate.id), .int(place)]) { $0.text("name") }
            if let name = names.first { return name }
        }
        return nil
    }
}
