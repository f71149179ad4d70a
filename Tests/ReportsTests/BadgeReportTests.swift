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

/// Badges: an SVG and a shields.io endpoint JSON per implementation and suite.
struct BadgeReportTests {
    static func counts(_ pass: Int, _ fail: Int, skipped: Int = 0) -> PassCount {
        PassCount([.pass: pass, .fail: fail, .skipped: skipped, .informational: 3])
    }

    @Test func messageAndColourFollowThePassRate() {
        #expect(BadgeReport.message(Self.counts(12, 0)) == "100% (12/12)")
        #expect(BadgeReport.color(Self.counts(12, 0)) == "brightgreen")
        // Rounded down: 99.96% is not shown as 100%.
        #expect(BadgeReport.message(Self.counts(2499, 1)) == "99.9% (2499/2500)")
        #expect(BadgeReport.color(Self.counts(2499, 1)) == "green")
        #expect(BadgeReport.color(Self.counts(9, 1)) == "yellowgreen")
        #expect(BadgeReport.color(Self.counts(3, 1)) == "yellow")
        #expect(BadgeReport.color(Self.counts(1, 1)) == "orange")
        #expect(BadgeReport.color(Self.counts(1, 3)) == "red")
        // Skipped and informational cases are not judged.
        #expect(BadgeReport.message(Self.counts(0, 0, skipped: 5)) == "not judged")
        #expect(BadgeReport.color(Self.counts(0, 0, skipped: 5)) == "lightgrey")
    }

    @Test func thePageShowsThePassRateAsTheBadgesDo() {
        // 2,499 of 2,500 is not 100%, on the page either (it once rounded to the nearest: 100.0%).
        #expect(HTMLReport.rateHTML(Self.counts(2499, 1)).contains(">99.9%<"))
        #expect(HTMLReport.rateHTML(Self.counts(12, 0)).contains(">100%<"))
        #expect(Self.counts(0, 0, skipped: 1).percentText == nil)
    }

    @Test func fileNamesAreSafeAndDistinct() {
        #expect(BadgeReport.fileStem("python-urllib") == "python-urllib")
        #expect(BadgeReport.fileStem("../../etc/Passwd") == "etc-passwd")
        #expect(BadgeReport.fileStem("  \u{202E}<script>  ") == "script")
        #expect(BadgeReport.fileStem("ü") == "implementation")
    }

    @Test func theFuzzReportsFileNameNeverEndsInADash() {
        #expect(FuzzFindingsReport.fileName(implementation: "ada-url") == "fuzz-ada-url.md")
        #expect(FuzzFindingsReport.fileName(implementation: String(repeating: "a", count: 59) + " b") == "fuzz-" + String(repeating: "a", count: 59) + ".md")
        #expect(FuzzFindingsReport.fileName(implementation: "\u{202E}") == "fuzz-adapter.md")
    }

    @Test func aRunGetsABadgePerImplementationAndSuiteOnDisk() throws {
        let data = try HostileInputTests.data()
        let dir = TestScratch.folder("badges")
        // A badge of an implementation from an earlier run is removed; other files stay.
        try FileManager.default.createDirectory(atPath: dir + "/badges", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/badges/gone.svg", contents: Data())
        _ = FileManager.default.createFile(atPath: dir + "/badges/README.txt", contents: Data())
        try BadgeReport.write(data, to: dir)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: dir + "/badges"))
        #expect(files == ["index.json", "README.txt", "plain.svg", "plain.json", "plain-ulc.svg", "plain-ulc.json",
                          "hostile-heading.svg", "hostile-heading.json", "hostile-heading-ulc.svg", "hostile-heading-ulc.json"])
        // The seeded run: pass, fail, errored, nonStrict judged; skipped not: 1 of 4.
        let endpoint = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/badges/plain-ulc.json"))))
        #expect(endpoint == ["schemaVersion": 1, "label": "plain ulc", "message": "25.0% (1/4)", "color": "red"])
        let index = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/badges/index.json"))))
        #expect(index["badges"]?.arrayValue?.count == 4)
        #expect(index["badges"]?.arrayValue?.first?["implementation"] == "plain")
    }

    /// "x"'s ulc badge and the overall badge of "x ulc" once shared x-ulc.svg, the later one
    /// overwriting the first; every badge now has a file of its own.
    @Test func anImplementationsSuiteBadgeAndAnotherNameNeverShareAFile() throws {
        let store = try ResultsStore(path: TestScratch.path("badge-names", "r.sqlite"))
        let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: nil, toolVersion: "0.1.0", options: [:]))
        for name in ["x", "x ulc", "x-ulc"] {
            let id = try store.register(ImplementationInfo(name: name, version: "1", language: "Swift", homepage: ""), run: run)
            try store.insert([CaseResult(suite: "ulc", caseID: "ulc/a", operation: "ulc.parse", requirement: "ULC-6", level: .must,
                                         outcome: .pass, nullWouldPass: false, actual: nil, expected: nil, message: nil, durationNanos: 1)],
                             run: run, implementation: id)
        }
        try store.finishRun(run, status: .completed)
        let badges = BadgeReport.badges(try #require(try ReportData.load(from: store, run: run)))
        #expect(badges.count == 6)
        #expect(Set(badges.map(\.fileStem)).count == 6, "\(badges.map(\.fileStem))")
        #expect(badges.first { $0.implementation == "x" && $0.suite == "ulc" }?.fileStem == "x-ulc")
    }

    /// The all-suites badge of a run of some suites only names them: its rate is over those
    /// suites, not over every suite as the same badge of a whole run.
    @Test func theOverallBadgeOfARunOfSomeSuitesNamesThem() throws {
        func overall(_ suites: [String]) throws -> String? {
            let store = try ResultsStore(path: TestScratch.path("badge-scope", "r.sqlite"))
            let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: nil, toolVersion: "0.1.0",
                                                  options: ["suites": .array(suites.map(JSONValue.string))]))
            let id = try store.register(ImplementationInfo(name: "x", version: "1", language: "Swift", homepage: ""), run: run)
            try store.insert([CaseResult(suite: "mitid", caseID: "mitid/a", operation: "mitid.authorize", requirement: "MITID-1", level: .must,
                                         outcome: .pass, nullWouldPass: false, actual: nil, expected: nil, message: nil, durationNanos: 1)],
                             run: run, implementation: id)
            try store.finishRun(run, status: .completed)
            return BadgeReport.badges(try #require(try ReportData.load(from: store, run: run))).first { $0.suite == nil }?.label
        }
        #expect(try overall(["mitid"]) == "x conformance (mitid)")
        #expect(try overall(SuiteRegistry.all.map(\.name)) == "x conformance")
    }

    @Test func theSVGIsWellFormedAndAHostileNameIsText() throws {
        let data = try HostileInputTests.data()
        for badge in BadgeReport.badges(data) {
            let svg = BadgeReport.svg(badge)
            let document = try XMLDocument(xmlString: svg)
            let texts = try document.nodes(forXPath: "//*[local-name()='text']").map { $0.stringValue ?? "" }
            #expect(texts.count == 4)
            #expect(texts[1] == badge.label && texts[3] == badge.message)
            #expect(try document.nodes(forXPath: "//*[local-name()='script']").isEmpty)
            #expect(HostileInputTests.raw(svg, allowing: ["\n"]).isEmpty, "raw control characters in \(badge.fileStem).svg")
        }
        let hostile = try #require(BadgeReport.badges(data).first { $0.implementation.hasPrefix("hostile") })
        #expect(hostile.label == "hostile\\n# Heading conformance")
        #expect(BadgeReport.svg(hostile).contains("hostile\\n# Heading"))
    }
}
