import Conformance
import Foundation
import GRDB
import LinkJSON
@testable import ResultsStore
import Testing

/// A run that did not complete has no result for the cases it did not reach: counted from its
/// corpus, and in a comparison neither regressions nor removed.
struct IncompleteRunTests {
    /// Records `cases` as the corpus of fingerprint "abc" (the fingerprint of
    /// `ResultsStoreTests.start`), as a run session does.
    static func recordCorpus(_ store: ResultsStore, _ cases: [String]) throws {
        try store.pool.write { db in
            for id in cases {
                try db.execute(sql: "INSERT INTO corpusCase (corpusFingerprint, suite, caseId, title, file, line, input) VALUES ('abc', 'ulc', ?, 't', 'f', 1, '{}')",
                               arguments: [id])
            }
        }
    }

    @Test func theCasesItDidNotReachAreCountedFromItsCorpus() throws {
        let (store, runs) = try RunComparisonTests.store([
            ["a": [("p1", .pass), ("p2", .pass), ("p3", .pass), ("p4", .pass)]],
            ["a": [("p1", .pass), ("p2", .fail)]],
        ], statuses: [.completed, .interrupted])
        try Self.recordCorpus(store, ["p1", "p2", "p3", "p4"])
        #expect(try store.incompleteRun(runs[0]) == nil, "a completed run lacks nothing")
        let incomplete = try #require(try store.incompleteRun(runs[1]))
        #expect(incomplete.status == .interrupted && incomplete.corpusCases == 4)
        #expect(incomplete.implementations.map(\.casesWithoutResult) == [2])
        #expect(incomplete.casesWithoutResult == 2 && incomplete.expectedResults == 4 && incomplete.implementationsNotReached == 0)
    }

    @Test func implementationsItNeverReachedCountWhole() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        try Self.recordCorpus(store, ["p1", "p2", "p3"])
        let run = try store.beginRun(RunStart(corpusFingerprint: "abc", gitCommit: nil, toolVersion: "t",
                                              options: ["implementations": ["a", "b", "c"]]))
        try store.insert([ResultsStoreTests.result("p1", .pass)], run: run, implementation: try store.register(ResultsStoreTests.info, run: run))
        try store.finishRun(run, status: .interrupted)
        let incomplete = try #require(try store.incompleteRun(run))
        #expect(incomplete.implementationsNotReached == 2)
        #expect(incomplete.casesWithoutResult == 2 + 2 * 3 && incomplete.expectedResults == 9)
        // Named, as the run was given them: the sentence no longer says only "2 implementations".
        #expect(incomplete.namesNotReached == ["b", "c"])
    }

    /// An implementation given by its command (`--adapter 'python3 x.py'`) that a killed run
    /// never reached is named as an earlier run that reached it stored it (its handshake's
    /// name), so that its badges and history keep their name; one no run reached keeps the
    /// label it was given.
    @Test func anImplementationNeverReachedIsNamedAsAnEarlierRunNamedIt() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        try Self.recordCorpus(store, ["p1"])
        let labels: JSONValue = ["implementations": ["reference", "python3 x.py", "python3 y.py"]]
        let first = try store.beginRun(RunStart(corpusFingerprint: "abc", gitCommit: nil, toolVersion: "t", options: labels))
        for name in ["reference", "vendor-x"] {
            try store.insert([ResultsStoreTests.result("p1", .pass)], run: first, implementation: try store.register(
                ImplementationInfo(name: name, version: "1", language: "", homepage: ""), run: first))
        }
        try store.finishRun(first, status: .interrupted)
        let killed = try store.beginRun(RunStart(corpusFingerprint: "abc", gitCommit: nil, toolVersion: "t", options: labels))
        try store.insert([ResultsStoreTests.result("p1", .pass)], run: killed, implementation: try store.register(
            ImplementationInfo(name: "reference", version: "1", language: "", homepage: ""), run: killed))
        try store.finishRun(killed, status: .interrupted)
        #expect(try store.incompleteRun(killed)?.namesNotReached == ["vendor-x", "python3 y.py"])
    }

    /// What the badges of an incomplete run need: the corpus's cases and the missing ones per suite.
    @Test func theCasesWithoutAResultAreCountedPerSuiteToo() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        try Self.recordCorpus(store, ["p1", "p2", "p3"])
        try store.pool.write { db in
            try db.execute(sql: "INSERT INTO corpusCase (corpusFingerprint, suite, caseId, title, file, line, input) VALUES ('abc', 'xcallback', 'x1', 't', 'f', 1, '{}')")
        }
        let run = try store.beginRun(RunStart(corpusFingerprint: "abc", gitCommit: nil, toolVersion: "t",
                                              options: ["implementations": ["a", "b", "c"]]))
        try store.insert([ResultsStoreTests.result("p1", .pass)], run: run, implementation: try store.register(ResultsStoreTests.info, run: run))
        try store.finishRun(run, status: .interrupted)
        let incomplete = try #require(try store.incompleteRun(run))
        #expect(incomplete.corpusCasesBySuite == ["ulc": 3, "xcallback": 1])
        #expect(incomplete.implementations.map(\.withoutResultBySuite) == [["ulc": 2, "xcallback": 1]])
        #expect(incomplete.implementations.map(\.casesWithoutResult) == [3])
    }

    @Test func withoutItsCorpusTheCountIsUnknownNotZero() throws {
        let (store, runs) = try RunComparisonTests.store([["a": [("p1", .pass)]]], statuses: [.interrupted])
        let incomplete = try #require(try store.incompleteRun(runs[0]))
        #expect(incomplete.corpusCases == nil && incomplete.casesWithoutResult == nil)
        #expect(incomplete.implementations.map(\.casesWithoutResult) == [nil])
    }

    @Test func aComparisonListsTheCasesTheLaterRunDidNotReachApart() throws {
        let (store, runs) = try RunComparisonTests.store([
            ["a": [("p1", .pass), ("p2", .pass), ("p3", .pass), ("p4", .fail), ("gone", .pass)]],
            ["a": [("p1", .pass), ("p2", .fail)]],
        ], statuses: [.completed, .interrupted])
        try Self.recordCorpus(store, ["p1", "p2", "p3", "p4"])
        let comparison = try store.compare(runs[0], runs[1])
        let a = try #require(comparison.implementations.first)
        #expect(a.regressions.map(\.caseID) == ["p2"])
        #expect(a.noResult.map(\.caseID) == ["p3", "p4"], "not reached: neither removed nor regressions")
        #expect(a.removed.map(\.caseID) == ["gone"], "not in the later run's corpus: removed")
        #expect(comparison.afterIncomplete?.casesWithoutResult == 2 && comparison.beforeIncomplete == nil)
        // The other way round, the incomplete run is the earlier one: its missing cases are new.
        let reversed = try store.compare(runs[1], runs[0])
        #expect(reversed.beforeIncomplete?.run == runs[1] && reversed.afterIncomplete == nil)
        #expect(Set(try #require(reversed.implementations.first).new.map(\.caseID)) == ["p3", "p4", "gone"])
    }
}
