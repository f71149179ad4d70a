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

/// Reports are rendered from store queries.
struct ReportsTests {
    static func storedRun() throws -> (ResultsStore, Int64) {
        let store = try ResultsStore(path: TestScratch.path("reports", "r.sqlite"))
        let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: nil, toolVersion: "0.1.0", options: [:]))
        let impl = try store.register(ImplementationInfo(name: "vendor <x>", version: "1", language: "Swift", homepage: ""), run: run)
        func r(_ id: String, _ outcome: Outcome, _ level: RequirementLevel, _ message: String?) -> CaseResult {
            CaseResult(suite: "ulc", caseID: id, operation: "ulc.parse", requirement: "ULC-6", level: level, outcome: outcome,
                       nullWouldPass: outcome == .pass, actual: ["kind": "notULC"], expected: ["kind": "ulc"],
                       message: message, durationNanos: 2_000)
        }
        try store.insert([
            r("ulc/a/pass", .pass, .must, nil),
            r("ulc/a/fail", .fail, .must, "kind: expected \"ulc\", got \"notULC\" & <more>\u{0}"),
            r("ulc/a/should", .nonStrict, .should, "a SHOULD"),
            r("ulc/a/info", .informational, .info, nil),
            r("ulc/a/skip", .skipped, .must, "not implemented"),
            r("ulc/a/err", .errored, .must, "boom"),
        ], run: run, implementation: impl)
        try store.finishRun(run, status: .completed)
        return (store, run)
    }

    /// summary.md and index.html name the cases that got worse or better since each
    /// implementation's previous results in their suite (before, only counts and triangles did):
    /// night 1 has ulc and xcallback, night 2 only xcallback, night 3 only ulc, where u1 failed.
    @Test func theCasesThatMovedAreNamed() throws {
        let store = try ResultsStore(path: TestScratch.path("reports", "moves.sqlite"))
        var runs: [Int64] = []
        for night in [["ulc/u1": Outcome.pass, "ulc/u2": .fail, "xcallback/x1": .pass], ["xcallback/x1": .pass], ["ulc/u1": .fail, "ulc/u2": .pass]] {
            let run = try store.beginRun(RunStart(corpusFingerprint: "f", gitCommit: nil, toolVersion: "0.1.0", options: [:]))
            let impl = try store.register(ImplementationInfo(name: "vendor", version: "1", language: "", homepage: ""), run: run)
            try store.insert(night.sorted { $0.key < $1.key }.map { id, outcome in
                CaseResult(suite: String(id.prefix { $0 != "/" }), caseID: id, operation: "op", requirement: "R-1", level: .must, outcome: outcome,
                           nullWouldPass: false, actual: nil, expected: [:], message: "said \(id)", durationNanos: 1)
            }, run: run, implementation: impl)
            try store.finishRun(run, status: .completed)
            runs.append(run)
        }
        let data = try #require(try ReportData.load(from: store, run: runs[2]))
        let markdown = try MarkdownReport.render(data)
        #expect(markdown.contains("### vendor (against run \(runs[0]))"), "\(markdown)")
        #expect(markdown.contains("1 worse:\n\n- `ulc/u1` (R-1 MUST): pass -> fail: said ulc/u1"))
        #expect(markdown.contains("1 better:\n\n- `ulc/u2` (R-1 MUST): fail -> pass"))
        let html = try HTMLReport.render(data)
        #expect(html.contains(#"<li><code>ulc/u1</code> <span class="dim">R-1 MUST</span> pass -&gt; fail: said ulc/u1</li>"#), "\(html)")
        let first = try #require(try ReportData.load(from: store, run: runs[0]))
        #expect(try MarkdownReport.render(first).contains("No earlier results to compare with."))
    }

    @Test func junitIsWellFormedAndMapsOutcomes() throws {
        let (store, run) = try Self.storedRun()
        let data = try #require(try ReportData.load(from: store, run: run))
        let xml = try JUnitReport.render(data)
        let document = try XMLDocument(xmlString: xml)
        let suite = try #require(try document.nodes(forXPath: "//testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "tests")?.stringValue == "6")
        #expect(suite.attribute(forName: "failures")?.stringValue == "1")
        #expect(suite.attribute(forName: "errors")?.stringValue == "1")
        #expect(suite.attribute(forName: "skipped")?.stringValue == "1")
        #expect(try document.nodes(forXPath: "//testcase[@name='ulc/a/should']/failure").isEmpty, "a SHOULD does not fail CI")
        #expect(xml.contains("&amp; &lt;more&gt;"))
        #expect(!xml.contains("\u{0}"))
    }

    @Test func markdownListsEverythingThatDidNotPass() throws {
        let (store, run) = try Self.storedRun()
        let md = try MarkdownReport.render(try #require(try ReportData.load(from: store, run: run)))
        #expect(md.contains("| vendor &lt;x> 1 | ulc | 6 | 1 | 1 | 1 | 1 | 1 | 1 | 1 |"), "the name's tag is escaped")
        #expect(md.contains("`ulc/a/fail`"))
        #expect(md.contains("`ulc/a/err`"))
        #expect(!md.contains("`ulc/a/info`"))
    }

    @Test func jsonReportRoundTripsThroughTheParser() throws {
        let (store, run) = try Self.storedRun()
        let data = try #require(try ReportData.load(from: store, run: run))
        let text = try JSONReport.render(data)
        let parsed = try JSONParser.parse(text)
        #expect(parsed["results"]?.arrayValue?.count == 6)
        #expect(parsed["summary"]?.arrayValue?.first?["outcomes"]?["fail"]?.intValue == 1)
        #expect(parsed["summary"]?.arrayValue?.first?["nullAlsoPasses"]?.intValue == 1)
    }

    @Test func terminalSummaryAndExitDecisionComeFromTheStore() throws {
        let (store, run) = try Self.storedRun()
        let data = try #require(try ReportData.load(from: store, run: run))
        let text = try TerminalSummary.render(data)
        #expect(text.contains("ulc: 6 cases  pass 1  fail 1  nonStrict 1  informational 1  skipped 1  errored 1"))
        #expect(text.contains("null implementation would also pass 1 of 1"))
        #expect(data.hasFailures(strict: false))
    }

    /// What fails the run is listed before what does not (the list is cut at `maxProblems`):
    /// the errored case ran after the nonStrict one, and the nonStrict one is what is cut.
    @Test func theTerminalListsWhatFailsTheRunFirst() throws {
        let (store, run) = try Self.storedRun()
        let text = try TerminalSummary.render(try #require(try ReportData.load(from: store, run: run)), maxProblems: 2)
        let listed = text.split(separator: "\n").filter { $0.hasPrefix("  fail") || $0.hasPrefix("  errored") || $0.hasPrefix("  nonStrict") }
        #expect(listed.map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["fail", "errored"], "\(text)")
        #expect(text.contains("  ... and 1 more (see the reports)"))
        let all = try TerminalSummary.render(try #require(try ReportData.load(from: store, run: run)))
        #expect(all.contains("ulc/a/should"), "with room, the rest follow: \(all)")
    }

    /// Beside a case that did not pass, every report says what its requirement asks and where
    /// that comes from, and shows the case's input: a vendor reading only summary.md,
    /// junit.xml or results.json could not tell which rule it broke with what.
    @Test func everyReportSaysWhatTheFailedRequirementAsksAndShowsTheInput() throws {
        let corpus = Corpus.load(from: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus").path, suites: ["ulc"])
        let suite = try #require(corpus.suites.first)
        let store = try ResultsStore(path: TestScratch.path("reports", "texts.sqlite"))
        try store.recordCases(corpus: corpus)
        try store.recordCases(corpus: corpus)   // a second run over the same corpus adds nothing
        let run = try store.beginRun(RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: nil, toolVersion: "0.1.0", options: [:]))
        try store.recordRequirements(run: run, corpus: corpus)
        let impl = try store.register(ImplementationInfo(name: "vendor", version: "1", language: "", homepage: ""), run: run)
        let c = try #require(suite.cases.first { $0.operation == "ulc.parse" && suite.registry[$0.requirement]?.level == .must })
        let result = Runner(corpus: corpus).judge(c, in: suite, answer: .output(["kind": "notULC"]), nanos: 1)
        try #require(result.outcome == .fail)
        try store.insert([result], run: run, implementation: impl)
        try store.finishRun(run, status: .completed)
        let data = try #require(try ReportData.load(from: store, run: run))
        let requirement = try #require(suite.registry[c.requirement])
        let document = try #require(suite.registry.documents.first { $0.key == requirement.document })
        let input = String(decoding: c.encodedInput, as: UTF8.self)
        let inputStart = String(input.prefix(60))
        #expect(requirement.statement.count > 20 && !input.isEmpty)

        let markdown = try MarkdownReport.render(data)
        #expect(markdown.contains("  - requirement: " + Escaping.markdownInline(requirement.statement)), "\(markdown)")
        #expect(markdown.contains(Escaping.markdownInline(requirement.section)))
        #expect(markdown.contains("  - input (\(Escaping.markdownInline(c.file)):\(c.line)): `" + inputStart), "\(markdown)")
        let junit = try JUnitReport.render(data)
        #expect(junit.contains("&#10;requirement: " + Escaping.xml(requirement.statement)), "\(junit)")
        #expect(junit.contains(Escaping.xml(document.title)))
        #expect(junit.contains("&#10;input (" + Escaping.xml(c.file)), "\(junit)")
        let json = try JSONParser.parse(try JSONReport.render(data))
        let stated = json["requirements"]?.arrayValue?.first { $0["id"]?.stringValue == c.requirement }
        #expect(stated?["statement"]?.stringValue == requirement.statement)
        #expect(stated?["source"]?["section"]?.stringValue == requirement.section && stated?["source"]?["document"]?.stringValue == document.title)
        #expect(json["results"]?.arrayValue?.first?["corpusCase"]?["input"]?.stringValue == input)
        #expect(json["results"]?.arrayValue?.first?["corpusCase"]?["file"]?.stringValue == c.file)
        let html = try HTMLReport.render(data)
        #expect(html.contains("<h4>Requirement</h4><p class=\"rtext\"><strong>\(Escaping.html(c.requirement)) MUST</strong> \(Escaping.html(requirement.statement))"),
                "\(html.suffix(3_000))")
        #expect(html.contains(Escaping.html(requirement.section)))
    }

    /// A report killed before its rename leaves `.NAME.PID.partial`; the next write of NAME
    /// removes it once its process is gone, and leaves a live writer's file alone.
    @Test func temporaryFilesOfAKilledWriterAreRemoved() throws {
        let dir = TestScratch.folder("partials")
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = dir + "/.summary.md.\(gone.processIdentifier).partial", live = dir + "/.summary.md.1.partial"
        let other = dir + "/.junit.xml.\(gone.processIdentifier).partial"
        for file in [dead, live, other] { #expect(FileManager.default.createFile(atPath: file, contents: Data())) }
        _ = try ReportWriter.replace("summary.md", in: dir) { out in
            try out.line("x")
            try out.flush()
        }
        #expect(!FileManager.default.fileExists(atPath: dead), "the dead writer's file is gone")
        #expect(FileManager.default.fileExists(atPath: live), "pid 1 is alive: its file stays")
        #expect(FileManager.default.fileExists(atPath: other), "another report's file waits for that report's next write")
        #expect(try String(contentsOfFile: dir + "/summary.md", encoding: .utf8) == "x\n")
    }

    @Test func writerWritesTheFourFiles() throws {
        let (store, run) = try Self.storedRun()
        let dir = TestScratch.folder("out")
        let paths = try ReportWriter.write(try #require(try ReportData.load(from: store, run: run)), to: dir)
        // The four reports, then the badges folder (written by default since the badges came).
        #expect(paths.map { ($0 as NSString).lastPathComponent } == ["summary.md", "results.json", "junit.xml", "index.html", "badges"])
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    /// A run of the ULC corpus, stopped after `vendor` answered its first 10 cases, that was
    /// also to run `other`.
    static func interruptedRun() throws -> (ResultsStore, Int64) {
        let corpus = Corpus.load(from: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus").path, suites: ["ulc"])
        let store = try ResultsStore(path: TestScratch.path("reports", "r.sqlite"))
        try store.recordCases(corpus: corpus)
        let run = try store.beginRun(RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: nil, toolVersion: "0.1.0",
                                              options: ["implementations": ["vendor", "other"]]))
        let impl = try store.register(ImplementationInfo(name: "vendor", version: "1", language: "", homepage: ""), run: run)
        let runner = Runner(corpus: corpus)
        try store.insert(corpus.suites[0].cases.prefix(10).map { c in
            runner.judge(c, in: corpus.suites[0], answer: .skipped(reason: "no"), nanos: 1)
        }, run: run, implementation: impl)
        try store.finishRun(run, status: .interrupted)
        #expect(corpus.caseCount > 100)
        return (store, run)
    }

    @Test func everyReportOfAnIncompleteRunSaysSoWithTheCasesWithoutAResult() throws {
        let (store, run) = try Self.interruptedRun()
        let data = try #require(try ReportData.load(from: store, run: run))
        let cases = try #require(data.incomplete?.corpusCases)
        let sentence = "run \(run) is incomplete (interrupted): \(2 * cases - 10) of the \(2 * cases) cases it was to run have no result "
            + "(vendor \(cases - 10) of \(cases); 1 implementation it was started with never ran, \(cases) cases each: other)"
        #expect(try TerminalSummary.render(data).contains(sentence))
        #expect(try MarkdownReport.render(data).contains("**Incomplete run:** " + sentence))
        #expect(try HTMLReport.render(data).contains(#"<p class="incomplete" id="incomplete"><strong>Incomplete run:</strong> "# + sentence))
        let json = try JSONParser.parse(try JSONReport.render(data))
        #expect(json["run"]?["incomplete"]?["casesWithoutResult"]?.intValue == 2 * cases - 10)
        #expect(json["run"]?["incomplete"]?["message"]?.stringValue == sentence)
        let document = try XMLDocument(xmlString: try JUnitReport.render(data))
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "errors")?.stringValue == "1" && root.attribute(forName: "tests")?.stringValue == "11")
        let error = try #require(try document.nodes(forXPath: "//testsuite[@name='linkconform.run']/testcase/error").first as? XMLElement)
        #expect(error.attribute(forName: "type")?.stringValue == "incomplete")
        #expect(error.attribute(forName: "message")?.stringValue == sentence)
        let property = try document.nodes(forXPath: "//testsuite[@name='linkconform.run']//property[@name='casesWithoutResult']/@value")
        #expect(property.first?.stringValue == "\(2 * cases - 10)")
    }

    @Test func aCompletedRunSaysNothingOfTheKind() throws {
        let (store, run) = try Self.storedRun()
        let data = try #require(try ReportData.load(from: store, run: run))
        #expect(data.incomplete == nil)
        #expect(!(try JUnitReport.render(data)).contains("linkconform.run"))
        #expect(!(try MarkdownReport.render(data)).contains("Incomplete"))
        #expect(try JSONParser.parse(try JSONReport.render(data))["run"]?["incomplete"] == .null)
    }
}
