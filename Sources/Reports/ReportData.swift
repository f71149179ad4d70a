import Conformance
import ResultsStore

/// What a report shows about one run: the small parts read from the store at once (the run,
/// its implementations and requirements, outcome counts per implementation and suite, the
/// requirement matrix, with case durations), and the results themselves read one at a time from
/// the store when a report reaches them (``forEachResult(implementation:suite:_:)``), so that
/// memory does not grow with the run.
public struct ReportData: Sendable {
    public let store: ResultsStore
    public let run: RunRecord
    public let implementations: [StoredImplementation]
    public let requirements: [StoredRequirement]
    public let summary: [SummaryRow]
    /// Requirements (rows) by implementations (columns), in registry order; requirements no
    /// case judged are left out.
    public let matrix: [MatrixRow]
    /// What the run lacks when it did not complete (nil: it completed). Every report says so.
    public let incomplete: IncompleteRun?
    /// What each requirement of the run's corpus says, by suite and id (empty for a run stored
    /// before the store kept it): the reports give it beside each case that did not pass.
    public var requirementTexts: [String: [String: StoredRequirementText]] = [:]

    /// Reads a run's counts from the store; nil when there is no such run.
    public static func load(from store: ResultsStore, run id: Int64) throws -> ReportData? {
        guard let run = try store.run(id) else { return nil }
        let requirements = try store.requirements(run: id)
        var data = ReportData(store: store, run: run, implementations: try store.implementations(run: id), requirements: requirements,
                              summary: try store.summary(run: id),
                              matrix: matrix(requirements, try store.requirementTallies(run: id)), incomplete: try store.incompleteRun(id))
        data.requirementTexts = try store.requirementTexts(run: id)
        return data
    }

    /// What the requirement a result was judged under says, when the store has it.
    public func requirementText(_ result: CaseResult) -> StoredRequirementText? {
        requirementTexts[result.suite]?[result.requirement]
    }

    /// "statement (document, section)", then a decision's rationale: one line of plain text
    /// about a requirement, for the reports to escape as they need.
    public static func plain(_ text: StoredRequirementText) -> String {
        "\(text.statement) (\(text.document), \(text.section))" + (text.rationale.map { " Decided by LinkConform: \($0)" } ?? "")
    }

    public func implementation(_ id: Int64) -> ImplementationInfo? {
        implementations.first { $0.id == id }?.info
    }

    public func requirement(suite: String, id: String) -> StoredRequirement? {
        requirements.first { $0.suite == suite && $0.id == id }
    }

    /// Outcomes shown as columns, in this order.
    public static let columns: [Outcome] = [.pass, .fail, .nonStrict, .informational, .skipped, .errored, .crashed,
                                            .timedOut, .protocolError, .notRun, .expectedFail, .unexpectedPass]

    /// Columns worth showing: the first six (pass to errored) always, the rest only when some row has them.
    public var visibleColumns: [Outcome] {
        Self.columns.enumerated().filter { i, outcome in i < 6 || summary.contains { $0.count(outcome) > 0 } }.map(\.element)
    }

    /// Whether any result should make the run's exit code 1.
    public func hasFailures(strict: Bool) -> Bool {
        summary.contains { row in row.counts.contains { $0.key.isFailure(strict: strict) && $0.value > 0 } }
    }

    /// How many results the run holds.
    public var resultCount: Int {
        summary.reduce(0) { $0 + $1.total }
    }

    /// How many results have one of `outcomes`, of one implementation or of all.
    public func count(_ outcomes: Set<Outcome>, implementation: Int64? = nil) -> Int {
        summary.filter { implementation == nil || $0.implementationID == implementation }
            .reduce(0) { $0 + $1.count(outcomes) }
    }

    /// Summed wall time of the cases of one implementation and suite (or of the whole run), in nanoseconds.
    public var caseNanos: Int64 {
        summary.reduce(0) { $0 + $1.nanos }
    }

    /// One row of the cross-implementation matrix: a requirement, and per implementation the
    /// outcomes of its cases.
    public struct MatrixRow: Sendable {
        public let requirement: StoredRequirement
        /// Distinct cases judging the requirement.
        public let cases: Int
        /// Of those, how many a null implementation would pass.
        public let nullPasses: Int
        /// Outcome counts per implementation id.
        public let cells: [Int64: [Outcome: Int]]
    }

    /// The matrix's rows: the requirements in registry order, each with its tally.
    static func matrix(_ requirements: [StoredRequirement], _ tallies: [ResultsStore.RequirementTally]) -> [MatrixRow] {
        var bySuite: [String: [String: ResultsStore.RequirementTally]] = [:]
        for tally in tallies { bySuite[tally.suite, default: [:]][tally.requirement] = tally }
        return requirements.compactMap { requirement in
            guard let tally = bySuite[requirement.suite]?[requirement.id] else { return nil }
            return MatrixRow(requirement: requirement, cases: tally.cases, nullPasses: tally.nullPasses, cells: tally.counts)
        }
    }

    /// Outcomes that are problems: not passes, informational records, skips or expected failures.
    public static let problemOutcomes = Set(Outcome.allCases).subtracting([.pass, .informational, .skipped, .expectedFail])

    /// Calls `body` with each result, in insertion order, read from the store one at a time;
    /// only one implementation's or one suite's when given.
    public func forEachResult(implementation: Int64? = nil, suite: String? = nil, withCases: Bool = false,
                              _ body: (StoredResult) throws -> Void) throws {
        try store.forEachResult(run: run.id, ResultsStore.ResultFilter(implementation: implementation, suite: suite, withCases: withCases), body)
    }

    /// Cases listed per implementation where a report lists the problems (Markdown, HTML);
    /// results.json has them all.
    public static let listedProblems = 500

    /// Calls `body` with each problem (see ``problemOutcomes``), in insertion order, at most
    /// `limit` of them; with `withCases`, each comes with its case's title and input when the
    /// store has them (``StoredResult/corpusCase``).
    public func forEachProblem(implementation: Int64? = nil, limit: Int? = nil, withCases: Bool = false,
                               only outcomes: Set<Outcome> = problemOutcomes, _ body: (StoredResult) throws -> Void) throws {
        try store.forEachResult(run: run.id, ResultsStore.ResultFilter(implementation: implementation,
                                                                       outcomes: outcomes.intersection(Self.problemOutcomes),
                                                                       limit: limit, withCases: withCases), body)
    }
}
