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

/// `index.html`: one well-formed page holding the summary, the history chart, the matrix and the
/// cases that did not pass, with every outside text shown as text.
struct HTMLReportTests {
    /// Elements the page may hold; anything else would have come from outside.
    static let elements: Set<String> = [
        "html", "head", "meta", "title", "style", "body", "header", "nav", "main", "section", "footer", "article", "div", "p",
        "h1", "h2", "h3", "h4", "span", "small", "strong", "code", "pre", "mark", "a", "dl", "dt", "dd", "ul", "li", "table", "thead",
        "tbody", "tr", "th", "td", "details", "summary", "figure", "figcaption", "svg", "g", "line", "path", "circle", "text",
    ]

    /// The page parsed by a strict XML parser (it is written to be well-formed XML), with
    /// every element and attribute checked: no element outside ``elements``, no event handler
    /// attribute, and no link but in-page anchors and http(s) URLs.
    static func parse(_ html: String) throws -> XMLDocument {
        let document = try XMLDocument(xmlString: html)
        let all = try document.nodes(forXPath: "//*").compactMap { $0 as? XMLElement }
        #expect(all.count > 50)
        for element in all {
            let name = element.name ?? ""
            #expect(elements.contains(name), "an element the report does not write: <\(name)>")
            for attribute in element.attributes ?? [] {
                let key = (attribute.name ?? "").lowercased()
                #expect(!key.hasPrefix("on"), "an event handler attribute: \(key)")
                if key == "href" {
                    let href = attribute.stringValue ?? ""
                    #expect(href.hasPrefix("#") || href.hasPrefix("https://") || href.hasPrefix("http://"), "a link to \(href)")
                }
                #expect(key != "src" && key != "srcdoc" && key != "action" && key != "formaction")
            }
        }
        return document
    }

    static func nodes(_ document: XMLNode, _ xpath: String) throws -> [XMLElement] {
        try document.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    // MARK: contents

    /// Records ULC-6 as a requirement of `run` (what a run over the corpus does for every requirement).
    static func recordULC6(_ store: ResultsStore, _ run: Int64) throws {
        try store.pool.write { db in
            try db.exactExecute("""
                INSERT INTO runRequirement (runId, suite, requirementId, level, title, decided) VALUES (?, ?, ?, ?, ?, ?)
                """, [.integer(run), .text("ulc"), .text("ULC-6"), .raw(RequirementLevel.must), .text("Both callbacks are https"), .bool(false)])
        }
    }

    @Test func thePageHoldsEverySection() throws {
        let (store, run) = try ReportsTests.storedRun()
        try Self.recordULC6(store, run)
        let data = try #require(try ReportData.load(from: store, run: run))
        let html = try HTMLReport.render(data)
        let document = try Self.parse(html)
        #expect(try Self.nodes(document, "//h1").first?.stringValue?.contains("Run \(run)") == true)
        #expect(try Self.nodes(document, "//table[@class='summary']//td[@class='suite']").map(\.stringValue) == ["ulc"])
        // The matrix: a row for ULC-6 with the implementation's cell, and the null column.
        let row = try #require(try Self.nodes(document, "//table[@class='matrix']//tr[th[@class='rid']='ULC-6']").first)
        let cell = try #require(try Self.nodes(row, "td[contains(@class, 'cell')]").first)
        #expect(cell.attribute(forName: "class")?.stringValue == "cell w-fail", "a MUST failed: the cell is red")
        #expect(cell.stringValue?.hasPrefix("1/4") == true, "1 pass of 4 judged: \(cell.stringValue ?? "")")
        #expect(try Self.nodes(row, "td[contains(@class, 'null')]").first?.stringValue == "1")
        // Every problem is a case with its message and expected and actual output.
        let cases = try Self.nodes(document, "//details[@class='case']")
        #expect(try cases.map { try Self.nodes($0, ".//code[@class='cid']").first?.stringValue ?? "" } == ["ulc/a/fail", "ulc/a/should", "ulc/a/err"])
        let fail = cases[0]
        #expect(fail.stringValue?.contains(#"kind: expected "ulc", got "notULC" & <more>\x00"#) == true, "the message, NUL shown")
        let kind = try #require(try Self.nodes(fail, ".//table[@class='diff']//tr[th/code='kind']").first)
        #expect(kind.attribute(forName: "class")?.stringValue == "d-differs")
        #expect(try Self.nodes(kind, ".//mark").map(\.stringValue) == ["ulc", "notULC"], "the differing part is marked")
        // The history: one panel, one point, for the single run.
        let svg = try #require(try Self.nodes(document, "//svg[@class='trend']").first)
        #expect(try Self.nodes(svg, ".//circle").count == 1)
        #expect(try Self.nodes(svg, ".//g/title").first?.stringValue?.contains("1 of 4 passed (25.0%)") == true)
    }

    @Test func theChartMarksRegressionsAndFixesOverTheRuns() throws {
        let (store, runs) = try Self.nights([
            [("a", .pass), ("b", .fail), ("c", .pass)],
            [("a", .fail), ("b", .pass), ("c", .pass)],
            [("a", .fail), ("b", .pass), ("c", .fail)],
        ])
        let data = try #require(try ReportData.load(from: store, run: runs[2]))
        let document = try Self.parse(try HTMLReport.render(data))
        let svg = try #require(try Self.nodes(document, "//svg[@class='trend']").first)
        #expect(try Self.nodes(svg, ".//circle").count == 3, "a point per run")
        #expect(try Self.nodes(svg, ".//path[contains(@class, 'line')]").count == 1, "joined by one line")
        #expect(try Self.nodes(svg, ".//path[@class='regression']").count == 2, "runs 2 and 3 each made a case worse")
        #expect(try Self.nodes(svg, ".//path[@class='fix']").count == 1, "run 2 fixed one")
        let titles = try Self.nodes(svg, ".//g/title").compactMap(\.stringValue)
        #expect(titles.contains { $0.contains("run \(runs[1]): 2 of 3 passed") && $0.contains("1 worse, 1 better") }, "\(titles)")
        let labels = try Self.nodes(svg, ".//text[@class='axis']").compactMap(\.stringValue)
        #expect(runs.allSatisfy { run in labels.contains { $0.hasPrefix("#\(run)run \(run), ") } }, "\(labels)")
        let moves = try Self.nodes(document, "//td[@class='moves']").first?.stringValue
        #expect(moves == "▼ 1 worse")
    }

    @Test func pointsOnOneSpotBecomeRingsSoNoneIsHidden() throws {
        func point(_ run: Int64, _ name: String, passed: Int, failed: Int) -> HistoryPoint {
            HistoryPoint(runID: run, startedAt: "2026-11-2\(run)", status: .completed, gitCommit: nil, implementation: name, version: "1",
                         suite: "ulc", counts: [.pass: passed, .fail: failed], regressions: 0, fixes: 0, previousRun: nil)
        }
        // Run 1: all three at 100 %; run 2: "a" and "c" at 50 %, "b" at 75 %.
        let chart = TrendChart(history: [point(1, "a", passed: 4, failed: 0), point(1, "b", passed: 4, failed: 0), point(1, "c", passed: 4, failed: 0),
                                         point(2, "a", passed: 2, failed: 2), point(2, "b", passed: 3, failed: 1), point(2, "c", passed: 2, failed: 2)],
                               first: ["a", "b", "c"])
        let panel = try #require(chart.panels.first)
        let radii = chart.radii(panel, dot: 4, ring: 2, floor: chart.axis(panel).floor)
        #expect(radii == [[8, 6], [6, 4], [4, 4]], "the first drawn is the widest ring; a point alone keeps the plain size")
        let svg = chart.svg(panel)
        let drawn = svg.components(separatedBy: #" r=""#).dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(drawn == ["8.4", "6.2", "6.2", "4.0", "4.0", "4.0"], "the page draws rings 2.2 apart: \(drawn)")
    }

    /// One implementation, one suite, one run per night with these outcomes.
    static func nights(_ nights: [[(String, Outcome)]]) throws -> (ResultsStore, [Int64]) {
        let store = try ResultsStore(path: TestScratch.path("html", "r.sqlite"))
        var runs: [Int64] = []
        for night in nights {
            let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: "c0ffee", toolVersion: "0.1.0", options: [:]))
            let impl = try store.register(ImplementationInfo(name: "vendor", version: "1", language: "Swift", homepage: ""), run: run)
            try store.insert(night.map { id, outcome in
                CaseResult(suite: "ulc", caseID: "ulc/\(id)", operation: "ulc.parse", requirement: "ULC-6", level: .must, outcome: outcome,
                           nullWouldPass: false, actual: ["kind": "x"], expected: ["kind": "ulc"], message: "m", durationNanos: 1)
            }, run: run, implementation: impl)
            try store.finishRun(run, status: .completed)
            runs.append(run)
        }
        return (store, runs)
    }

    @Test func aCaseShowsItsInputFromTheStore() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let corpus = Corpus.load(from: repository.appendingPathComponent("Corpus").path, suites: ["ulc"])
        try #require(corpus.errors.isEmpty)
        let c = try #require(corpus.suites.first?.cases.first)
        let store = try ResultsStore(path: TestScratch.path("html", "r.sqlite"))
        let run = try store.beginRun(RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: nil, toolVersion: "0.1.0", options: [:]))
        try store.recordCases(corpus: corpus)
        try store.recordCases(corpus: corpus)   // a second run over the same corpus adds nothing
        let impl = try store.register(ImplementationInfo(name: "vendor", version: "1", language: "", homepage: ""), run: run)
        try store.insert([CaseResult(suite: "ulc", caseID: c.id, operation: c.operation, requirement: c.requirement, level: .must,
                                     outcome: .fail, nullWouldPass: false, actual: ["kind": "x"], expected: c.expect, message: "m",
                                     durationNanos: 1)], run: run, implementation: impl)
        try store.finishRun(run, status: .completed)
        let document = try Self.parse(try HTMLReport.render(try #require(try ReportData.load(from: store, run: run))))
        let details = try #require(try Self.nodes(document, "//details[@class='case']").first)
        #expect(try Self.nodes(details, ".//p[@class='ctitle']").first?.stringValue?.contains(c.title) == true)
        #expect(try Self.nodes(details, ".//span[@class='where']").first?.stringValue?.contains("\(c.file):\(c.line)") == true)
        let input = try #require(try Self.nodes(details, ".//pre[@class='json']").first?.stringValue)
        #expect(try JSONParser.parse(input) == c.input, "the input, whole and readable")
    }

    @Test func problemsAreCappedPerImplementationWithAPointerToTheJSON() throws {
        let store = try ResultsStore(path: TestScratch.path("html", "r.sqlite"))
        let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: nil, toolVersion: "0.1.0", options: [:]))
        let impl = try store.register(ImplementationInfo(name: "many", version: "1", language: "", homepage: ""), run: run)
        let extra = 37
        try store.insert((0..<(ReportData.listedProblems + extra)).map { i in
            CaseResult(suite: "ulc", caseID: "ulc/\(i)", operation: "ulc.parse", requirement: "ULC-6", level: .must, outcome: .fail,
                       nullWouldPass: false, actual: ["kind": "x"], expected: ["kind": "ulc"], message: "m", durationNanos: 1)
        }, run: run, implementation: impl)
        try store.finishRun(run, status: .completed)
        let document = try Self.parse(try HTMLReport.render(try #require(try ReportData.load(from: store, run: run))))
        #expect(try Self.nodes(document, "//details[@class='case']").count == ReportData.listedProblems)
        let more = try #require(try Self.nodes(document, "//p[@class='more']").first?.stringValue)
        #expect(more.contains("\(extra) more") && more.contains("results.json"), "\(more)")
    }

    // MARK: hostile input

    /// The hostile run of ``HostileInputTests``, and one more implementation whose every word
    /// tries to close an attribute or open an element, with a `javascript:` homepage.
    static let markup = ImplementationInfo(name: #""><img src=x onerror=alert(1)>"#, version: "<svg onload=alert(2)>",
                                           language: "'><iframe src=javascript:alert(3)>", homepage: "javascript:alert(document.domain)")

    static func hostileData() throws -> ReportData {
        let (store, run) = try HostileInputTests.storedRun()
        let impl = try store.register(markup, run: run)
        let hostile = HostileInputTests.hostile + #" "><img src=x onerror=alert(4)> '><b>"#
        try store.insert([
            CaseResult(suite: "ulc", caseID: #"ulc/"><img src=x onerror=alert(5)>"#, operation: "ulc.parse", requirement: "ULC-6",
                       level: .must, outcome: .fail, nullWouldPass: false, actual: ["kind": .string(hostile), hostile: "x"],
                       expected: ["kind": "ulc"], message: hostile, durationNanos: 1),
            CaseResult(suite: "ulc", caseID: "ulc/h/crash", operation: "ulc.parse", requirement: "ULC-6", level: .must, outcome: .crashed,
                       nullWouldPass: false, actual: nil, expected: ["kind": "ulc"], message: hostile, durationNanos: 1),
        ], run: run, implementation: impl)
        try store.setImplementationStatus(run: run, implementation: impl, status: .gaveUp, notes: [hostile], expectedFailures: "<x>.txt")
        return try #require(try ReportData.load(from: store, run: run))
    }

    @Test func hostileTextsAreShownAsText() throws {
        let html = try HTMLReport.render(Self.hostileData())
        #expect(HostileInputTests.raw(html, allowing: ["\n", "\t"]).isEmpty,
                "raw control or bidi characters: \(HostileInputTests.raw(html, allowing: ["\n", "\t"]).map { String($0.value, radix: 16) })")
        let document = try Self.parse(html)   // no element, handler or link that the report did not write
        let text = document.rootElement()?.stringValue ?? ""
        #expect(text.contains(Self.markup.name), "the name is there, as text")
        #expect(text.contains(Self.markup.version) && text.contains(Self.markup.language))
        #expect(text.contains("javascript:alert(document.domain)"), "the homepage is shown as text")
        #expect(text.contains(#"ulc/"><img src=x onerror=alert(5)>"#), "the case id, as text")
        #expect(text.contains("<script>alert(1)</script>"))
        #expect(text.contains(#"\x1b]0;pwned\x07\x1b[31mred\x00 \u{202E}evil"#), "controls and the bidi override shown as escapes")
        #expect(try Self.nodes(document, "//a[@href]").allSatisfy { $0.attribute(forName: "href")?.stringValue?.hasPrefix("#") == true },
                "neither homepage is a link: one is javascript:, the other holds a NUL and a line break")
        // Each implementation's title is one text in one span, whatever it tries to close.
        let names = try Self.nodes(document, "//article[@class='card']//span[@class='name']").compactMap(\.stringValue)
        #expect(names == ["plain", HostileInputTests.info.name, Self.markup.name])
    }

    @Test func anHTTPSHomepageIsALink() {
        #expect(HTMLReport.homepage("https://example.com/a?b=1&c=2")
                == #"<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">https://example.com/a?b=1&amp;c=2</a>"#)
        #expect(HTMLReport.homepage("HTTP://example.com/").hasPrefix("<a "))
        #expect(HTMLReport.homepage("javascript:alert(1)") == "javascript:alert(1)")
        #expect(HTMLReport.homepage("https://x.example/\"onmouseover=\"alert(1)") == "https://x.example/&quot;onmouseover=&quot;alert(1)")
        #expect(HTMLReport.homepage(" https://x.example/") == " https://x.example/")
        #expect(HTMLReport.homepage("data:text/html,<script>") == "data:text/html,&lt;script&gt;")
    }

    // MARK: the member diff

    @Test func membersAreSortedByHowTheyCompare() {
        let rows = FieldDiff.rows(expected: ["kind": "ulc", "violations": ["a", "b"], "error": nil, "success": "s", "gone": nil],
                                  actual: ["kind": "invalid", "violations": ["b", "a"], "error": "e", "action": "x", "gone": nil])
        #expect(rows.map(\.field) == ["kind", "violations", "error", "success", "gone", "action"])
        #expect(rows.map(\.status) == [.differs, .reordered, .differs, .missing, .same, .unchecked])
        let whole = FieldDiff.rows(expected: ["kind": "ulc"], actual: nil)
        #expect(whole.count == 1 && whole[0].field == nil && whole[0].status == .missing)
        #expect(FieldDiff.rows(expected: "a", actual: "a").map(\.status) == [.same])
        #expect(!FieldDiff.sameItems(["a", "a", "b"], ["a", "b", "b"]))
    }

    @Test func theDifferingMiddleIsFound() {
        #expect(FieldDiff.commonEnds("https://a/success", "https://a/error") == (10, 0))
        #expect(FieldDiff.commonEnds("abcXdef", "abcYYdef") == (3, 3))
        #expect(FieldDiff.commonEnds("aaa", "aa") == (2, 0), "the ends never overlap")
        #expect(FieldDiff.commonEnds("", "x") == (0, 0))
    }

    @Test func aLongValueIsCutAroundItsDifference() throws {
        let a = String(repeating: "a", count: 5_000) + "X" + String(repeating: "b", count: 5_000)
        let b = String(repeating: "a", count: 5_000) + "Y" + String(repeating: "b", count: 5_000)
        let page = try HTMLReport.Page(data: #require(try ReportData.load(from: ReportsTests.storedRun().0, run: 1)),
                                       chart: TrendChart(history: [], first: []), history: [], out: ReportOutput())
        let shown = page.marked(a, FieldDiff.commonEnds(a, b))
        #expect(shown.contains("<mark>X</mark>"))
        #expect(shown.hasPrefix("…") && shown.contains("10,001 characters in all"))
        #expect(shown.count < HTMLReport.valueLimit + 200)
    }
}
