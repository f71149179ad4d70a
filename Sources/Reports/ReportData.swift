import Conformance
import ResultsStore

/// Everything a report shows about one run, read from the results store.
public struct ReportData: Sendable {
    public let run: RunRecord
    public let implementations: [StoredImplementation]
    public let requirements: [StoredRequirement]
    public let results: [StoredResult]
    public let summary: [SummaryRow]

    /// Reads a run from the store; nil when there is no such run.
    public static func load(from store: ResultsStore, run id: Int64) throws -> ReportData? {
        guard let run = try store.run(id) else { return nil }
        return ReportData(run: run, implementations: try store.implementations(run: id),
                          requirements: try store.requirements(run: id), results: try store.results(run: id),
                          summary: try store.summary(run: id))
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

    /// Columns worth showing: the first five always, the rest only when some row has them.
    public var visibleColumns: [Outcome] {
        Self.columns.enumerated().filter { i, outcome in i < 6 || summary.contains { $0.count(outcome) > 0 } }.map(\.element)
    }

    /// Whether any result should make the run's exit code 1.
    public func hasFailures(strict: Bool) -> Bool {
        summary.contains { row in row.counts.contains { $0.key.isFailure(strict: strict) && $0.value > 0 } }
    }

    /// Total wall time of the cases, in seconds.
    public var caseSeconds: Double {
        Double(results.reduce(Int64(0)) { $0 + $1.result.durationNanos }) / 1e9
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

    /// Requirements (rows) by implementations (columns), in registry order; requirements no case
    /// judged are left out.
    public var matrix: [MatrixRow] {
        var cells: [String: [Int64: [Outcome: Int]]] = [:]
        var cases: [String: Set<String>] = [:]
        var nullCases: [String: Set<String>] = [:]
        for stored in results {
            let r = stored.result
            let key = r.suite + "|" + r.requirement
            cells[key, default: [:]][stored.implementationID, default: [:]][r.outcome, default: 0] += 1
            cases[key, default: []].insert(r.caseID)
            if r.nullWouldPass { nullCases[key, default: []].insert(r.caseID) }
        }
        return requirements.compactMap { requirement in
            let key = requirement.suite + "|" + requirement.id
            guard let row = cells[key] else { return nil }
            return MatrixRow(requirement: requirement, cases: cases[key]?.count ?? 0,
                             nullPasses: nullCases[key]?.count ?? 0, cells: row)
        }
    }

    /// Results that are not passes, informational records, skips or expected failures.
    public var problems: [StoredResult] {
        results.filter { ![.pass, .informational, .skipped, .expectedFail].contains($0.result.outcome) }
    }
}
