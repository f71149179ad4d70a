import Conformance
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LinkJSON
import Testing
@testable import Reports
@testable import ResultsStore
import TestScratch

/// An implementation that never started: the run completed, but `run` exited 2, and every
/// report says why (it once showed a clean run: failures="0" errors="0", status completed, a grey
/// "not judged" badge).
struct NotStartedTests {
    static let why = "no answer to start within 3.0 s"

    /// A completed run of "reference" (one pass) and an adapter "late" that did not start (two
    /// cases not run), as a run session stores them.
    static func data() throws -> ReportData {
        let store = try ResultsStore(path: TestScratch.path("not-started", "r.sqlite"))
        let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: nil, toolVersion: "0.1.0",
                                              options: ["implementations": ["reference", "late"]]))
        func r(_ id: String, _ outcome: Outcome) -> CaseResult {
            CaseResult(suite: "mitid", caseID: id, operation: "mitid.parse", requirement: "MITID-1", level: .must, outcome: outcome,
                       nullWouldPass: false, actual: nil, expected: [:], message: outcome == .notRun ? "late did not start: \(why)" : nil,
                       durationNanos: 1)
        }
        let reference = try store.register(ImplementationInfo(name: "reference", version: "1", language: "Swift", homepage: ""), run: run)
        try store.insert([r("a", .pass)], run: run, implementation: reference)
        let late = try store.register(ImplementationInfo(name: "late", version: "", language: "", homepage: ""), run: run)
        try store.insert([r("a", .notRun), r("b", .notRun)], run: run, implementation: late)
        try store.setImplementationStatus(run: run, implementation: late, status: .failedToStart, notes: [why], expectedFailures: nil)
        try store.finishRun(run, status: .completed)
        return try #require(try ReportData.load(from: store, run: run))
    }

    static let sentence = "late did not start (\(why)): none of its 2 cases ran"

    @Test func everyReportSaysWhichImplementationDidNotStartAndWhy() throws {
        let data = try Self.data()
        #expect(data.notStarted.map(\.info.name) == ["late"])
        #expect(NotStartedReport.sentence(data.notStarted[0], data) == Self.sentence)
        let md = try MarkdownReport.render(data)
        #expect(md.contains("**Did not start:** \(Self.sentence); the run gives no verdict on it."))
        #expect(md.contains("- status: completed, but 1 implementation did not start"))
        let html = try HTMLReport.render(data)
        #expect(html.contains("<title>LinkConform run 1: completed, 1 did not start</title>"))
        #expect(html.contains(#"<span class="status st-failed">1 implementation did not start</span></h1>"#))
        #expect(html.contains("<strong>Did not start:</strong> \(Self.sentence); the run gives no verdict on it."))
        _ = try HTMLReportTests.parse(html)
    }

    @Test func junitHoldsAnErrorForIt() throws {
        let data = try Self.data()
        let document = try XMLDocument(xmlString: try JUnitReport.render(data))
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "errors")?.stringValue == "1" && root.attribute(forName: "tests")?.stringValue == "4")
        let suite = try #require(try document.nodes(forXPath: "//testsuite[@name='linkconform.run']").first as? XMLElement)
        #expect(suite.attribute(forName: "errors")?.stringValue == "1")
        #expect(try document.nodes(forXPath: "//testsuite[@name='linkconform.run']//property[@name='casesWithoutResult']").isEmpty,
                "the run is complete")
        let error = try #require(try document.nodes(forXPath: "//testcase[@name='late started']/error").first as? XMLElement)
        #expect(error.attribute(forName: "type")?.stringValue == "failed-to-start")
        #expect(error.attribute(forName: "message")?.stringValue == Self.sentence)
    }

    @Test func itsBadgesSayItDidNotStart() throws {
        let badges = BadgeReport.badges(try Self.data())
        let late = badges.filter { $0.implementation == "late" }
        #expect(late.count == 2 && late.allSatisfy { $0.message == "did not start" && $0.color == "red" })
        #expect(badges.first { $0.implementation == "reference" }?.message == "100% (1/1)")
    }
}
