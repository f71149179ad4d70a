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

/// One hostile implementation rendered in every format: its name starts a Markdown heading,
/// its version ends in CR LF, its language recolours a terminal and ends in a bidi override, its
/// homepage starts a heading and carries a script tag, and its notes, messages and outputs carry
/// all of that, a NUL and BEL. The store keeps every text whole, so the NUL in the homepage
/// reaches the reports too.
struct HostileInputTests {
    static let hostile = "x\n# Injected heading\r\n\u{1B}]0;pwned\u{07}\u{1B}[31mred\u{0} \u{202E}evil <script>alert(1)</script> | pipe `tick`"
    static let info = ImplementationInfo(name: "hostile\n# Heading", version: "2.1.0\r\n", language: "\u{1B}[31mPython\u{202E}",
                                         homepage: "https://h.example/\u{0}\n# Homepage <script>alert(1)</script>")

    static func storedRun() throws -> (ResultsStore, Int64) {
        let store = try ResultsStore(path: TestScratch.path("hostile", "r.sqlite"))
        let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: nil, toolVersion: "0.1.0", options: [:]))
        let plain = try store.register(ImplementationInfo(name: "plain", version: "1", language: "Swift", homepage: ""), run: run)
        let impl = try store.register(info, run: run)
        try store.pool.write { db in
            try db.exactExecute("""
                INSERT INTO runRequirement (runId, suite, requirementId, level, title, decided) VALUES (?, ?, ?, ?, ?, ?)
                """, [.integer(run), .text("ulc"), .text("ULC-6"), .raw(RequirementLevel.must), .text("A <b>title</b> | with a pipe"),
                      .bool(false)])
        }
        func r(_ id: String, _ outcome: Outcome) -> CaseResult {
            CaseResult(suite: "ulc", caseID: id, operation: "ulc.parse", requirement: "ULC-6", level: .must, outcome: outcome,
                       nullWouldPass: false, actual: outcome == .skipped ? nil : ["kind": .string(hostile)], expected: ["kind": "ulc"],
                       message: hostile, durationNanos: 1_000)
        }
        let results = [r("ulc/h/fail", .fail), r("ulc/h/skip", .skipped), r("ulc/h/err", .errored),
                       r("ulc/h/should", .nonStrict), r("ulc/h/pass", .pass)]
        try store.insert(results, run: run, implementation: impl)
        try store.insert(results, run: run, implementation: plain)
        try store.setImplementationStatus(run: run, implementation: impl, status: .ok, notes: [hostile, "- \(hostile)"],
                                          expectedFailures: nil)
        try store.finishRun(run, status: .completed)
        return (store, run)
    }

    static func data() throws -> ReportData {
        let (store, run) = try storedRun()
        return try #require(try ReportData.load(from: store, run: run))
    }

    /// Characters no human-facing output may carry raw: C0 controls but the line feed, DEL, C1
    /// controls and the bidi controls.
    static func raw(_ text: String, allowing allowed: Set<Unicode.Scalar> = ["\n"]) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { s in
            guard !allowed.contains(s) else { return false }
            switch s.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
    }

    /// Lines as a CommonMark renderer splits them (LF, CR or CR LF).
    static func renderedLines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    }

    /// Cells of a table row: pipes not escaped by a backslash, less the two at the ends.
    static func cellCount(_ row: Substring) -> Int {
        var pipes = 0, backslashes = 0
        for c in row {
            if c == "|" && backslashes % 2 == 0 { pipes += 1 }
            backslashes = c == "\\" ? backslashes + 1 : 0
        }
        return pipes - 1
    }

    @Test func markdownKeepsItsStructure() throws {
        let md = try MarkdownReport.render(Self.data())
        #expect(Self.raw(md).isEmpty, "raw control or bidi characters: \(Self.raw(md).map { String($0.value, radix: 16) })")
        #expect(!md.lowercased().contains("<script"))
        let lines = Self.renderedLines(md)
        let headings = ["# LinkConform run ", "## Summary", "## Changes since the previous results", "### ", "## Implementations",
                        "## Requirements by implementation", "## Not passed: "]
        for line in lines where line.hasPrefix("#") {
            #expect(headings.contains { line.hasPrefix($0) }, "a heading the report did not write: \(line)")
        }
        #expect(lines.contains { $0.hasPrefix("  - ") }, "the hostile notes are listed, so the loop below looks at them")
        #expect(lines.contains { line in line.hasPrefix("|") } && lines.contains { $0.hasPrefix("#") })
        for line in lines {
            // The first word of a list item's text must not open a block (heading, quote, list).
            let item = line.drop { $0 == " " }
            guard item.hasPrefix("- ") else { continue }
            let text = item.dropFirst(2)
            let digits = text.prefix { $0.isASCII && $0.isNumber }
            let ordered = !digits.isEmpty && [". ", ") "].contains { text.dropFirst(digits.count).hasPrefix($0) }
            #expect(!ordered && !["#", ">", "- ", "+ ", "* "].contains { text.hasPrefix($0) }, "a list item opens a block: \(line)")
        }
        // Every row of a table has the header's number of cells.
        var expected: Int?
        for line in lines {
            guard line.hasPrefix("|") else { expected = nil; continue }
            let n = Self.cellCount(line)
            if let expected { #expect(n == expected, "\(n) cells instead of \(expected): \(line)") } else { expected = n }
        }
        #expect(md.contains("2.1.0"))
        #expect(md.contains("\\x1b\\[31m"), "ESC is shown, not dropped (and the bracket after it escaped)")
        #expect(md.contains("\\u{202E}"), "the bidi override is shown, not dropped")
    }

    /// A name of 300 KB is cut on the terminal (it once made 7 MB of output, repeated on every
    /// line of cases not passed); the reports keep it whole.
    @Test func aHugeNameIsCutOnTheTerminal() throws {
        let store = try ResultsStore(path: TestScratch.path("huge-name", "r.sqlite"))
        let run = try store.beginRun(RunStart(corpusFingerprint: "f00d", gitCommit: nil, toolVersion: "0.1.0", options: [:]))
        let name = String(repeating: "n", count: 300_000)
        let id = try store.register(ImplementationInfo(name: name, version: "1", language: "Swift", homepage: ""), run: run)
        let failed = (0..<30).map { i in
            CaseResult(suite: "ulc", caseID: "ulc/f/\(i)", operation: "ulc.parse", requirement: "ULC-6", level: .must, outcome: .fail,
                       nullWouldPass: false, actual: nil, expected: nil, message: String(repeating: "m", count: 8_000), durationNanos: 1)
        }
        try store.insert(failed, run: run, implementation: id)
        try store.finishRun(run, status: .completed)
        let text = try TerminalSummary.render(try #require(try ReportData.load(from: store, run: run)))
        #expect(text.utf8.count < 20_000, "\(text.utf8.count) bytes")
        #expect(text.contains(String(repeating: "n", count: 70) + "..."))
    }

    /// The names a statement could not find are listed on one line, escaped: a name holding a
    /// line break cannot write a line of its own on the terminal.
    @Test func theStatementsUnknownNameMessageIsOneEscapedLine() throws {
        let data = try Self.data()
        do {
            _ = try ConformanceStatement.make(data, implementation: "nope\nlinkconform: all good")
            Issue.record("a statement was made for a name the run does not have")
        } catch let failure as ConformanceStatement.Failure {
            let text = failure.description
            #expect(!text.contains("\n") && Self.raw(text).isEmpty, "\(text)")
            #expect(text.contains("'hostile\\n# Heading'"), "\(text)")
        }
    }

    @Test func jsonStaysExact() throws {
        let json = try JSONParser.parse(JSONReport.render(Self.data()))
        let impl = try #require(json["implementations"]?.arrayValue?.first { $0["name"]?.stringValue == Self.info.name })
        #expect(impl["version"]?.stringValue == Self.info.version)
        #expect(impl["language"]?.stringValue == Self.info.language)
        #expect(impl["homepage"]?.stringValue == Self.info.homepage)
        #expect(impl["notes"]?.arrayValue?.first?.stringValue == Self.hostile)
        let results = json["results"]?.arrayValue ?? []
        let fail = try #require(results.first { $0["case"] == "ulc/h/fail" && $0["implementation"]?.stringValue == Self.info.name })
        #expect(fail["message"]?.stringValue == Self.hostile)
        #expect(fail["actual"]?["kind"]?.stringValue == Self.hostile)
        #expect(json["matrix"]?.arrayValue?.first?["implementations"]?[Self.info.name]?["fail"] == 1)
    }

    @Test func junitIsWellFormedAndShowsControlsVisibly() throws {
        let xml = try JUnitReport.render(Self.data())
        let forbidden = xml.unicodeScalars.filter { s in
            let v = s.value
            return (v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D) || v == 0xFFFE || v == 0xFFFF
        }
        #expect(forbidden.isEmpty)
        #expect(Self.raw(xml).isEmpty, "raw control or bidi characters: \(Self.raw(xml).map { String($0.value, radix: 16) })")
        let document = try XMLDocument(xmlString: xml)
        let suites = try document.nodes(forXPath: "//testsuite").compactMap { $0 as? XMLElement }
        #expect(suites.count == 2)
        let name = try #require(suites.last?.attribute(forName: "name")?.stringValue)
        #expect(name == "hostile\n# Heading.ulc", "line feeds survive as character references")
        let failure = try #require(try document.nodes(forXPath: "//testsuite[2]//failure").first as? XMLElement)
        let message = try #require(failure.attribute(forName: "message")?.stringValue)
        #expect(message.contains("\\x1b]0;pwned\\x07\\x1b[31mred\\x00 \\u{202E}evil <script>"), "controls are shown: \(message)")
        #expect(message.contains("heading\r\n"), "CR LF is kept")
        #expect(!message.contains("\u{FFFD}"))
    }

    @Test func terminalSummaryHasNoControlCharacters() throws {
        let text = try TerminalSummary.render(Self.data())
        #expect(Self.raw(text).isEmpty, "raw control or bidi characters: \(Self.raw(text).map { String($0.value, radix: 16) })")
        #expect(text.contains("hostile\\n# Heading 2.1.0\\r\\n (\\x1b[31mPython\\u{202E})"))
        #expect(text.contains("note: x\\n# Injected heading\\r\\n\\x1b]0;pwned\\x07"))
    }

    @Test func writtenFilesMatchTheRenderings() throws {
        let data = try Self.data()
        let dir = TestScratch.folder("hostile-out")
        try ReportWriter.write(data, to: dir)
        func file(_ name: String) throws -> String { try String(contentsOfFile: dir + "/" + name, encoding: .utf8) }
        #expect(try file("summary.md") == MarkdownReport.render(data))
        #expect(try file("results.json") == JSONReport.render(data))
        #expect(try file("junit.xml") == JUnitReport.render(data))
        #expect(try file("index.html") == HTMLReport.render(data))
    }
}
