import Conformance
import Foundation
import ResultsStore
import Testing

/// Comparing runs (what a nightly gates on) and the history the HTML report draws.
struct RunComparisonTests {
    typealias Night = [String: [(String, Outcome)]]   // implementation name -> (case, outcome)

    /// One run per night, with the implementations and outcomes given; returns the run ids.
    static func store(_ nights: [Night], statuses: [RunStatus]? = nil,
                      failedToStart: Set<Int> = []) throws -> (ResultsStore, [Int64]) {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        var ids: [Int64] = []
        for (n, night) in nights.enumerated() {
            let run = try store.beginRun(ResultsStoreTests.start)
            for name in night.keys.sorted() {
                // A new version every night: implementations are matched by name.
                let impl = try store.register(ImplementationInfo(name: name, version: "1.\(n)", language: "", homepage: ""), run: run)
                try store.insert(night[name]!.map { id, outcome in
                    CaseResult(suite: id.hasPrefix("x") ? "xcallback" : "ulc", caseID: id, operation: "op", requirement: "R-\(id)",
                               level: .must, outcome: outcome, nullWouldPass: false, actual: nil, expected: [:],
                               message: "m-\(id)", durationNanos: 1)
                }, run: run, implementation: impl)
                if failedToStart.contains(n) {
                    try store.setImplementationStatus(run: run, implementation: impl, status: .failedToStart, notes: [],
                                                      expectedFailures: nil)
                }
            }
            try store.finishRun(run, status: statuses?[n] ?? .completed)
            ids.append(run)
        }
        return (store, ids)
    }

    @Test func everyKindOfChangeIsSortedOut() throws {
        let (store, runs) = try Self.store([
            ["a": [("pass", .pass), ("fix", .fail), ("worse", .pass), ("crash", .fail), ("gone", .pass), ("listed", .pass),
                   ("unrun", .pass), ("same", .fail)]],
            ["a": [("pass", .pass), ("fix", .pass), ("worse", .fail), ("crash", .crashed), ("listed", .expectedFail),
                   ("unrun", .notRun), ("same", .fail), ("fresh", .fail)]],
        ])
        let comparison = try store.compare(runs[0], runs[1])
        let a = try #require(comparison.implementations.first)
        #expect(a.regressions.map(\.caseID) == ["worse", "unrun"])
        #expect(a.fixes.map(\.caseID) == ["fix"])
        #expect(Set(a.changed.map(\.caseID)) == ["crash", "listed"])
        #expect(a.new.map(\.caseID) == ["fresh"])
        #expect(a.removed.map(\.caseID) == ["gone"])
        #expect(a.versionBefore == "1.0" && a.versionAfter == "1.1")
        let worse = a.regressions[0]
        #expect(worse.before == .pass && worse.after == .fail && worse.requirementID == "R-worse" && worse.message == "m-worse")
        #expect(comparison.regressionCount == 2 && comparison.fixCount == 1)
    }

    /// A listed case that passed (an unexpected pass: its line is stale) and fails again is a
    /// regression, which nobody noticed since the line still lists it; the reverse is a fix.
    /// The history's triangles count them the same way.
    @Test func aStaleExpectedFailureThatFailsAgainIsARegression() throws {
        let (store, runs) = try Self.store([
            ["a": [("back", .expectedFail), ("gone", .unexpectedPass), ("newly", .pass)]],
            ["a": [("back", .unexpectedPass), ("gone", .expectedFail), ("newly", .expectedFail)]],
        ])
        let a = try #require(try store.compare(runs[0], runs[1]).implementations.first)
        #expect(a.regressions.map(\.caseID) == ["gone"])
        #expect(a.fixes.map(\.caseID) == ["back"])
        #expect(a.changed.map(\.caseID) == ["newly"], "a passing case newly listed as failing was listed on purpose")
        let point = try #require(try store.history().first { $0.runID == runs[1] })
        #expect(point.regressions == 1 && point.fixes == 1)
    }

    @Test func nonStrictGatesOnlyWhenStrict() throws {
        let (store, runs) = try Self.store([["a": [("c", .pass)]], ["a": [("c", .nonStrict)]]])
        #expect(try store.compare(runs[0], runs[1]).regressionCount == 0)
        #expect(try store.compare(runs[0], runs[1]).implementations[0].changed.count == 1)
        #expect(try store.compare(runs[0], runs[1], strict: true).regressionCount == 1)
    }

    /// A case id the corpus kept but judged under another requirement or level is "changed",
    /// with both in its message, not a fix or a regression (the corpus moved, not the
    /// implementation); the history's triangles do not count it either.
    @Test func aCaseJudgedUnderAnotherRequirementIsChangedNotFixed() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        var runs: [Int64] = []
        for (requirement, level, outcome) in [("ULC-6", RequirementLevel.must, Outcome.fail), ("ULC-20", .should, .nonStrict)] {
            let run = try store.beginRun(ResultsStoreTests.start)
            let impl = try store.register(ImplementationInfo(name: "a", version: "1", language: "", homepage: ""), run: run)
            try store.insert([CaseResult(suite: "ulc", caseID: "ulc/c", operation: "op", requirement: requirement, level: level, outcome: outcome,
                                         nullWouldPass: false, actual: nil, expected: [:], message: "m", durationNanos: 1)], run: run, implementation: impl)
            try store.finishRun(run, status: .completed)
            runs.append(run)
        }
        let a = try #require(try store.compare(runs[0], runs[1]).implementations.first)
        #expect(a.fixes.isEmpty && a.regressions.isEmpty && a.changed.count == 1)
        #expect(a.changed.first?.message == "judged under another requirement or level (ULC-6 MUST -> ULC-20 SHOULD); m")
        let point = try #require(try store.history().last)
        #expect(point.fixes == 0 && point.regressions == 0)
    }

    @Test func implementationsAreMatchedByNameAndNewOnesAreNotRegressions() throws {
        let (store, runs) = try Self.store([
            ["old": [("c", .pass)], "kept": [("c", .pass)]],
            ["kept": [("c", .fail)], "newcomer": [("c", .fail)]],
        ])
        let comparison = try store.compare(runs[0], runs[1])
        #expect(comparison.implementations.map(\.name) == ["kept", "newcomer", "old"])
        #expect(comparison.implementations[0].regressions.count == 1)
        #expect(comparison.implementations[1].isNewImplementation && comparison.implementations[1].new.count == 1)
        #expect(comparison.implementations[1].regressions.isEmpty)
        #expect(comparison.implementations[2].isRemovedImplementation && comparison.implementations[2].removed.count == 1)
    }

    @Test func theBaselineIsTheLastCompletedRunInWhichTheImplementationStarted() throws {
        let (store, runs) = try Self.store(
            [["a": [("c", .pass)]], ["a": [("c", .pass)]], ["a": [("c", .notRun)]], ["a": [("c", .pass)]], ["a": [("c", .fail)]],
             ["b": [("c", .pass)]]],
            statuses: [.completed, .completed, .completed, .interrupted, .completed, .completed], failedToStart: [2])
        #expect(try store.baselineRun(for: "a", suite: "ulc", before: runs[4]) == runs[1])   // not the failed start, not the interrupted run
        #expect(try store.baselineRun(for: "a", suite: "ulc", before: runs[1]) == runs[0])
        #expect(try store.baselineRun(for: "a", suite: "ulc", before: runs[0]) == nil)
        #expect(try store.baselineRun(for: "b", suite: "ulc", before: runs[5]) == nil)
        #expect(try store.started("a", in: runs[1]) && !(try store.started("a", in: runs[2])) && !(try store.started("b", in: runs[1])))
    }

    /// A night an implementation failed to start is compared with nothing: its every case
    /// (notRun) was listed as worse, 72 of them beside the reports' "did not start".
    @Test func aNightAnImplementationFailedToStartIsComparedWithNothing() throws {
        let (store, runs) = try Self.store([["a": [("c", .pass), ("d", .informational)]], ["a": [("c", .notRun), ("d", .notRun)]]],
                                           failedToStart: [1])
        let previous = try store.comparedWithPreviousResults(runs[1], names: ["a"], strict: false)
        #expect(previous.comparisons.isEmpty && previous.firstResults.isEmpty)
        let point = try #require(try store.history().last)
        #expect(point.runID == runs[1] && point.regressions == 0 && point.previousRun == nil)
    }

    /// A run of other suites (`run --suite`) is not a suite's baseline, nor its previous point
    /// in the history: each suite is compared with the last run that has results in it. Before,
    /// run 2 (xcallback only) was the baseline of run 3, and run 3's ulc regression was "new".
    @Test func eachSuiteIsComparedWithItsOwnPreviousResults() throws {
        let (store, runs) = try Self.store([
            ["a": [("u1", .pass), ("x1", .pass)]],
            ["a": [("x1", .pass)]],
            ["a": [("u1", .fail)]],
        ])
        #expect(try store.suites(of: "a", in: runs[2]) == ["ulc"])
        #expect(try store.baselineRun(for: "a", suite: "ulc", before: runs[2]) == runs[0])
        #expect(try store.baselineRun(for: "a", suite: "xcallback", before: runs[2]) == runs[1])
        let comparison = try store.compare(runs[0], runs[2]).only(suites: ["a": ["ulc"]])
        #expect(comparison.regressionCount == 1 && comparison.implementations[0].removed.isEmpty)
        let point = try #require(try store.history().first { $0.runID == runs[2] && $0.suite == "ulc" })
        #expect(point.regressions == 1 && point.previousRun == runs[0])
        // Beyond the history's window too: the first point of a window has its previous result.
        let windowed = try #require(try store.history(runs: 1).first { $0.suite == "ulc" })
        #expect(windowed.regressions == 1 && windowed.previousRun == runs[0])
        #expect(try store.history().first { $0.runID == runs[0] }?.previousRun == nil)
    }

    @Test func historyCountsPerRunImplementationAndSuiteWithItsMoves() throws {
        let (store, runs) = try Self.store([
            ["a": [("u1", .pass), ("u2", .fail), ("x1", .pass)]],
            ["a": [("u1", .pass), ("u2", .pass), ("x1", .fail)], "b": [("u1", .skipped)]],
            ["a": [("u1", .fail), ("u2", .pass), ("x1", .fail)]],
        ], statuses: [.completed, .interrupted, .completed])
        let history = try store.history()
        // The interrupted run is left out (its pass rate would mislead), unless it is the newest.
        #expect(Set(history.map(\.runID)) == [runs[0], runs[2]])
        let last = history.filter { $0.runID == runs[2] }
        let ulc = try #require(last.first { $0.suite == "ulc" })
        #expect(ulc.passed == 1 && ulc.judged == 2 && ulc.passRate == 0.5)
        // Against the previous point of "a" in the history (run 0, the interrupted run skipped):
        // u1 got worse, u2 got better.
        #expect(ulc.regressions == 1 && ulc.fixes == 1)
        let x = try #require(last.first { $0.suite == "xcallback" })
        #expect(x.regressions == 1 && x.fixes == 0)
        #expect(history.filter { $0.runID == runs[0] }.allSatisfy { $0.regressions == 0 && $0.fixes == 0 })
        // The newest run is included whatever its status, and a limit keeps the newest runs.
        #expect(Set(try store.history(through: runs[1]).map(\.runID)) == [runs[0], runs[1]])
        #expect(Set(try store.history(runs: 1).map(\.runID)) == [runs[2]])
        #expect(try store.history(through: runs[1]).first { $0.implementation == "b" }?.passRate == nil)
    }
}
