import Conformance
import Foundation
import LinkJSON
import Testing
@testable import Reports
@testable import ResultsStore
import TestScratch

/// Badges of an incomplete run: no pass rate over the few cases that ran first, a badge for the
/// implementation the run never reached, and index.json that says the run is incomplete.
struct IncompleteBadgeTests {
    @Test func anIncompleteRunsBadgesSayHowManyCasesRanAndKeepTheImplementationNotReached() throws {
        let (store, run) = try ReportsTests.interruptedRun()
        let data = try #require(try ReportData.load(from: store, run: run))
        let cases = try #require(data.incomplete?.corpusCases)
        let message = "incomplete: 10 of \(HTMLReport.grouped(cases)) cases run"
        let badges = BadgeReport.badges(data)
        #expect(badges.map(\.fileStem) == ["vendor", "vendor-ulc", "other", "other-ulc"])
        let vendor = badges.filter { $0.implementation == "vendor" }
        #expect(vendor.allSatisfy { $0.message == message && $0.color == "blue" && $0.state == .incomplete }, "\(vendor)")
        let other = badges.filter { $0.implementation == "other" }
        #expect(other.map(\.suite) == [nil, "ulc"])
        #expect(other.allSatisfy { $0.message == "incomplete: 0 of \(HTMLReport.grouped(cases)) cases run" && $0.color == "blue" })

        let dir = TestScratch.folder("incomplete-badges")
        try BadgeReport.write(data, to: dir)
        let endpoint = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/badges/other.json"))))
        #expect(endpoint["message"]?.stringValue?.hasPrefix("incomplete: 0 of ") == true)
        let index = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/badges/index.json"))))
        #expect(index["incomplete"]?["casesWithoutResult"]?.intValue == 2 * cases - 10)
        #expect(index["incomplete"]?["status"] == "interrupted")
        #expect(index["badges"]?.arrayValue?.compactMap { $0["state"]?.stringValue } == Array(repeating: "incomplete", count: 4))
    }

    /// An implementation that ran every case before the stop keeps its rate; a suite it never
    /// reached gets a badge that says so.
    @Test func whatRanWholeKeepsItsRateAndASuiteNotReachedSaysSo() throws {
        let corpus = Corpus.load(from: CLIPaths.corpus, suites: ["ulc", "xcallback"])
        let store = try ResultsStore(path: TestScratch.path("incomplete-badges", "r.sqlite"))
        try store.recordCases(corpus: corpus)
        let run = try store.beginRun(RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: nil, toolVersion: "0.1.0",
                                              options: ["implementations": ["whole", "half"]]))
        try store.recordRequirements(run: run, corpus: corpus)
        let runner = Runner(corpus: corpus)
        func judged(_ suite: SuiteCorpus, _ count: Int? = nil) -> [CaseResult] {
            suite.cases.prefix(count ?? suite.cases.count).map { runner.judge($0, in: suite, answer: .skipped(reason: "no"), nanos: 1) }
        }
        let ulc = try #require(corpus.suites.first { $0.name == "ulc" }), xcallback = try #require(corpus.suites.first { $0.name == "xcallback" })
        let whole = try store.register(ImplementationInfo(name: "whole", version: "1", language: "", homepage: ""), run: run)
        try store.insert(judged(ulc) + judged(xcallback), run: run, implementation: whole)
        let half = try store.register(ImplementationInfo(name: "half", version: "1", language: "", homepage: ""), run: run)
        try store.insert(judged(ulc, 5), run: run, implementation: half)
        try store.finishRun(run, status: .interrupted)

        let badges = BadgeReport.badges(try #require(try ReportData.load(from: store, run: run)))
        let byStem = Dictionary(uniqueKeysWithValues: badges.map { ($0.fileStem, $0) })
        for stem in ["whole", "whole-ulc", "whole-xcallback"] {
            #expect(byStem[stem]?.message == "not judged" && byStem[stem]?.state == .complete, "every case skipped, every case ran: \(stem)")
        }
        #expect(byStem["half-ulc"]?.message == "incomplete: 5 of \(ulc.cases.count) cases run")
        #expect(byStem["half-xcallback"]?.message == "incomplete: 0 of \(xcallback.cases.count) cases run")
        #expect(byStem["half"]?.message == "incomplete: 5 of \(HTMLReport.grouped(corpus.caseCount)) cases run")
    }

    @Test func withoutItsCorpusAnIncompleteRunsBadgesSaySoWithoutCounts() throws {
        let store = try ResultsStore(path: TestScratch.path("incomplete-badges", "r.sqlite"))
        let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: nil, toolVersion: "0.1.0",
                                              options: ["implementations": ["vendor", "other"]]))
        let impl = try store.register(ImplementationInfo(name: "vendor", version: "1", language: "", homepage: ""), run: run)
        try store.insert([CaseResult(suite: "ulc", caseID: "a", operation: "ulc.parse", requirement: "ULC-6", level: .must, outcome: .pass,
                                     nullWouldPass: false, actual: nil, expected: nil, message: nil, durationNanos: 1)],
                         run: run, implementation: impl)
        try store.finishRun(run, status: .interrupted)
        let badges = BadgeReport.badges(try #require(try ReportData.load(from: store, run: run)))
        #expect(badges.map(\.fileStem) == ["vendor", "vendor-ulc", "other"])
        #expect(badges.allSatisfy { $0.message == "incomplete run" && $0.color == "blue" && $0.state == .incomplete })
    }

    @Test func aCompletedRunsIndexSaysSo() throws {
        let dir = TestScratch.folder("complete-badges")
        try BadgeReport.write(try HostileInputTests.data(), to: dir)
        let index = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/badges/index.json"))))
        #expect(index["incomplete"] == .null)
        #expect(index["badges"]?.arrayValue?.allSatisfy { $0["state"] == "complete" } == true)
    }
}

enum CLIPaths {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus").path
}
