import Conformance
import Foundation
import LinkJSON
import GRDB
@testable import ResultsStore
import Testing

/// `linkconform prune`: the newest runs stay, and so does each implementation's latest run of
/// each suite, so the next night is compared with what it would have been compared with.
struct PruneTests {
    /// Nights of `impl` (one per entry: its suites and the outcome of each case), the large
    /// output of night 0 stored once by content; returns the run ids.
    static func nights(_ store: ResultsStore, _ nights: [(suites: [String], outcome: Outcome, fingerprint: String)]) throws -> [Int64] {
        var runs: [Int64] = []
        for (n, night) in nights.enumerated() {
            let run = try store.beginRun(RunStart(corpusFingerprint: night.fingerprint, gitCommit: nil, toolVersion: "t",
                                                  options: ["suites": .array(night.suites.map(JSONValue.string))]))
            let impl = try store.register(ImplementationInfo(name: "impl", version: "\(n)", language: "", homepage: ""), run: run)
            let large: JSONValue = ["kind": .string(String(repeating: "x", count: 10_000) + "\(n)")]
            try store.insert(night.suites.flatMap { suite in
                ["a", "b"].map { id in
                    CaseResult(suite: suite, caseID: "\(suite)/\(id)", operation: "op", requirement: "R-1", level: .must, outcome: night.outcome,
                               nullWouldPass: false, actual: id == "a" ? large : ["kind": "y"], expected: [:], message: "m", durationNanos: 1)
                }
            }, run: run, implementation: impl)
            try store.finishRun(run, status: .completed)
            runs.append(run)
        }
        return runs
    }

    @Test func theNewestRunsAndEachSuitesLatestRunAreKept() throws {
        let path = ResultsStoreTests.temporaryPath()
        let store = try ResultsStore(path: path)
        // mitid runs only in night 1; night 4 fails ulc/a and ulc/b.
        let runs = try Self.nights(store, [(["ulc"], .pass, "old"), (["ulc", "mitid"], .pass, "old"), (["ulc"], .pass, "new"),
                                           (["ulc"], .pass, "new"), (["ulc"], .fail, "new")])
        let gateBefore = try store.comparedWithPreviousResults(runs[4], names: ["impl"], strict: false)
        #expect(gateBefore.comparisons.map(\.before) == [runs[3]])

        let dry = try store.prune(keepNewest: 2, dryRun: true)
        #expect(dry.removed == [runs[0], runs[2]] && dry.resultsRemoved == 4 && dry.bytesAfter == nil)
        #expect(try store.runs().count == 5, "a dry run removes nothing")

        let summary = try store.prune(keepNewest: 2)
        #expect(summary.kept == [runs[4], runs[3], runs[1]], "the 2 newest, and night 1: mitid's latest results")
        #expect(summary.keptAsBaselines == [runs[1]])
        #expect(summary.removed == [runs[0], runs[2]] && summary.resultsRemoved == 4)
        #expect(summary.outputsRemoved == 2, "the large outputs of nights 0 and 2 are named by no result now")
        #expect(summary.corpusRowsRemoved == 0, "both corpora are still used")
        #expect(try store.runs().map(\.id).sorted() == [runs[1], runs[3], runs[4]])
        #expect(try store.results(run: runs[0]).isEmpty)
        #expect(try store.results(run: runs[1]).count == 4)
        // What the next night is compared with has not changed, mitid included.
        let gateAfter = try store.comparedWithPreviousResults(runs[4], names: ["impl"], strict: false)
        #expect(gateAfter.comparisons.map(\.before) == [runs[3]] && gateAfter.comparisons[0].regressionCount == 2)
        #expect(try store.baselineRun(for: "impl", suite: "mitid", before: runs[4] + 1) == runs[1])
        // A new run takes an id past every id used: the removed runs' ids are not lent again.
        let next = try store.beginRun(RunStart(corpusFingerprint: "new", gitCommit: nil, toolVersion: "t", options: [:]))
        #expect(next == runs[4] + 1)
        #expect(try store.prune(keepNewest: 10).removed.isEmpty)
    }

    /// The newest run's own baselines stay too, so that `compare` of it, and its reports'
    /// changes, read what they read before: the review found the newest run's mitid baseline
    /// pruned with `--keep 2` when only the next run's baselines were kept.
    @Test func theNewestRunKeepsItsOwnBaselines() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        let runs = try Self.nights(store, [(["ulc", "mitid"], .pass, "f"), (["ulc"], .pass, "f"), (["ulc"], .pass, "f"),
                                           (["ulc", "mitid"], .fail, "f")])
        let before = try store.comparedWithPreviousResults(runs[3], names: ["impl"], strict: false).comparisons.map(\.before)
        #expect(before == [runs[0], runs[2]])
        let summary = try store.prune(keepNewest: 1)
        #expect(summary.removed == [runs[1]] && summary.keptAsBaselines == [runs[2], runs[0]], "\(summary)")
        let after = try store.comparedWithPreviousResults(runs[3], names: ["impl"], strict: false)
        #expect(after.comparisons.map(\.before) == before && after.firstResults.isEmpty)
        #expect(after.comparisons.reduce(0) { $0 + $1.regressionCount } == 4)
    }

    /// A run deleted by hand with foreign keys off (the sqlite3 shell's default) leaves its
    /// results behind; the next run must not take its id and, with it, those results.
    @Test func aRunDeletedWithoutItsResultsDoesNotLendItsIdToTheNext() throws {
        let path = ResultsStoreTests.temporaryPath()
        let store = try ResultsStore(path: path)
        let runs = try Self.nights(store, [(["ulc"], .pass, "f"), (["ulc"], .pass, "f")])
        try store.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "DELETE FROM run WHERE id = \(runs[1])")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let next = try store.beginRun(RunStart(corpusFingerprint: "f", gitCommit: nil, toolVersion: "t", options: [:]))
        #expect(next == runs[1] + 1, "SQLite alone would reuse \(runs[1])")
        #expect(try store.results(run: next).isEmpty)
    }
}
