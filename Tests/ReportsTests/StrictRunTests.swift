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

/// A run made with `--strict` is stored so (its options' `strict`), and its reports judge it as
/// its exit code did: a SHOULD not met fails it in junit.xml, and counts as a regression in the
/// page's changes and history.
struct StrictRunTests {
    /// Runs of one implementation "vendor", one per night, each with its outcomes and strictness.
    static func store(_ nights: [(outcomes: [(String, Outcome)], strict: Bool)]) throws -> (ResultsStore, [Int64]) {
        let store = try ResultsStore(path: TestScratch.path("strict", "r.sqlite"))
        var ids: [Int64] = []
        for (n, night) in nights.enumerated() {
            let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: nil, toolVersion: "0.1.0",
                                                  options: ["strict": .bool(night.strict), "implementations": ["vendor"]]))
            let impl = try store.register(ImplementationInfo(name: "vendor", version: "1.\(n)", language: "", homepage: ""), run: run)
            try store.insert(night.outcomes.map { id, outcome in
                CaseResult(suite: "ulc", caseID: id, operation: "ulc.parse", requirement: "ULC-6",
                           level: outcome == .fail ? .must : .should, outcome: outcome, nullWouldPass: false,
                           actual: ["kind": "notULC"], expected: ["kind": "ulc"], message: "m-\(id)", durationNanos: 1)
            }, run: run, implementation: impl)
            try store.finishRun(run, status: .completed)
            ids.append(run)
        }
        return (store, ids)
    }

    static func junit(_ store: ResultsStore, _ run: Int64) throws -> XMLDocument {
        try XMLDocument(xmlString: try JUnitReport.render(try #require(try ReportData.load(from: store, run: run))))
    }

    @Test func aStrictRunsJUnitFailsASHOULDNotMet() throws {
        let outcomes: [(String, Outcome)] = [("a", .pass), ("b", .nonStrict), ("c", .fail)]
        let (store, runs) = try Self.store([(outcomes, false), (outcomes, true)])
        let lenient = try Self.junit(store, runs[0])
        #expect(lenient.rootElement()?.attribute(forName: "failures")?.stringValue == "1")
        #expect(try lenient.nodes(forXPath: "//testcase[@name='b']/failure").isEmpty, "without --strict a SHOULD passes")
        let strict = try Self.junit(store, runs[1])
        #expect(strict.rootElement()?.attribute(forName: "failures")?.stringValue == "2")
        #expect(try strict.nodes(forXPath: "//testsuite[@name='vendor.ulc']/@failures").first?.stringValue == "2")
        let failure = try #require(try strict.nodes(forXPath: "//testcase[@name='b']/failure").first as? XMLElement)
        #expect(failure.attribute(forName: "type")?.stringValue == "SHOULD")
        #expect(failure.attribute(forName: "message")?.stringValue == "m-b")
        #expect(try strict.nodes(forXPath: "//testcase[@name='b']/properties").isEmpty)
    }

    @Test func aPassThatBecameNonStrictIsARegressionOfAStrictRunOnly() throws {
        let (store, runs) = try Self.store([([("a", .pass), ("b", .pass)], false), ([("a", .pass), ("b", .nonStrict)], false),
                                            ([("a", .pass), ("b", .pass)], true), ([("a", .pass), ("b", .nonStrict)], true)])
        let history = try store.history(through: runs[3])
        #expect(history.map(\.regressions) == [0, 0, 0, 1], "each point as its own run was judged")
        #expect(history.map(\.fixes) == [0, 0, 1, 0], "nonStrict to pass is a fix of a strict run")
        let lenient = try HTMLReport.render(try #require(try ReportData.load(from: store, run: runs[1])))
        #expect(!lenient.contains("worse</span>") && lenient.contains(#"<span class="dim">no change</span>"#))
        #expect(!lenient.contains("<dt>Strict</dt>"))
        let strict = try HTMLReport.render(try #require(try ReportData.load(from: store, run: runs[3])))
        #expect(strict.contains(#"<td class="moves"><span class="worse">▼ 1 worse</span></td>"#))
        #expect(strict.contains("<dt>Strict</dt>"))
        _ = try HTMLReportTests.parse(strict)
    }

    @Test func summaryMarkdownSaysTheRunWasStrict() throws {
        let (store, runs) = try Self.store([([("b", .nonStrict)], false), ([("b", .nonStrict)], true)])
        let line = "- strict (`--strict`): a SHOULD not met (`nonStrict`) fails the run"
        #expect(!(try MarkdownReport.render(try #require(try ReportData.load(from: store, run: runs[0])))).contains(line))
        #expect(try MarkdownReport.render(try #require(try ReportData.load(from: store, run: runs[1]))).contains(line))
        #expect(try store.run(runs[1])?.strict == true && store.run(runs[0])?.strict == false)
    }
}
