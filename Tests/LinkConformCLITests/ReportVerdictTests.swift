import Foundation
import LinkJSON
import Testing

/// What `run` decided, its reports and `report` say too: a CI that reads only junit.xml, or only
/// `report`'s exit code, sees what `run`'s exit code said.
struct ReportVerdictTests {
    var corpus: String { CLI.repository.appendingPathComponent("Corpus").path }

    /// The xcallback suite with one SHOULD case's expectation changed, so that the reference
    /// meets every MUST and misses that SHOULD: a `nonStrict` result.
    func corpusWithANonStrictCase(_ dir: String) throws -> String {
        let copy = dir + "/Corpus"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus + "/xcallback", toPath: copy + "/xcallback")
        let file = copy + "/xcallback/cases/parse-structure.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let start = try #require(text.range(of: #""id": "xcallback/parse-structure/host-mixed-case""#))
        let action = try #require(text.range(of: #""action": "open""#, range: start.upperBound..<text.endIndex))
        try Data(text.replacingCharacters(in: action, with: #""action": "opened""#).utf8).write(to: URL(fileURLWithPath: file))
        return copy
    }

    @Test func aStrictRunsReportsAndReportsExitCodeFailASHOULDNotMet() async throws {
        let dir = CLI.temporaryDirectory(), db = dir + "/r.sqlite"
        let copy = try corpusWithANonStrictCase(dir)
        let strict = try await CLI.run(["run", "--corpus", copy, "--suite", "xcallback", "--db", db, "--reports", dir + "/s", "--no-progress", "--strict"])
        #expect(strict.status == 1, "\(strict.output)")
        #expect(strict.stdout.contains("nonStrict 1"), "\(strict.stdout)")
        let junit = try String(contentsOfFile: dir + "/s/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"failures="1""#) && junit.contains(#"<failure type="SHOULD""#), "\(junit.prefix(400))")
        #expect(try String(contentsOfFile: dir + "/s/index.html", encoding: .utf8).contains("<dt>Strict</dt>"))
        let report = try await CLI.run(["report", "--db", db, "--run", "1", "--out", dir + "/s2"])
        #expect(report.status == 1, "report judges a strict run strictly: \(report.output)")
        #expect(try String(contentsOfFile: dir + "/s2/junit.xml", encoding: .utf8) == junit)

        // The same run without --strict passes, and so does its report, unless --strict is asked for.
        let lenient = try await CLI.run(["run", "--corpus", copy, "--suite", "xcallback", "--db", db, "--reports", dir + "/l", "--no-progress"])
        #expect(lenient.status == 0, "\(lenient.output)")
        #expect(try String(contentsOfFile: dir + "/l/junit.xml", encoding: .utf8).contains(#"failures="0""#))
        #expect(try await CLI.run(["report", "--db", db, "--run", "2", "--out", dir + "/l2"]).status == 0)
        #expect(try await CLI.run(["report", "--db", db, "--run", "2", "--out", dir + "/l3", "--strict"]).status == 1)
    }
}

extension ReportVerdictTests {
    /// `--adapter false` exits at once, before any handshake: run exits 2, and so must what is
    /// read of the run afterwards.
    @Test func anImplementationThatNeverStartedIsAHarnessFailureInEveryReport() async throws {
        let dir = CLI.temporaryDirectory(), db = dir + "/r.sqlite"
        let run = try await CLI.run(["run", "--corpus", corpus, "--db", db, "--suite", "mitid", "--implementation", "reference",
                                     "--adapter", "false", "--start-timeout", "3", "--reports", dir + "/t", "--no-progress"])
        #expect(run.status == 2, "\(run.output)")
        let junit = try String(contentsOfFile: dir + "/t/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"<error type="failed-to-start" message="false did not start ("#), "\(junit.suffix(600))")
        #expect(try String(contentsOfFile: dir + "/t/summary.md", encoding: .utf8).contains("**Did not start:** false did not start ("))
        let badge = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/t/badges/false.json"))))
        #expect(badge["message"] == "did not start" && badge["color"] == "red")
        let report = try await CLI.run(["report", "--db", db, "--run", "1", "--out", dir + "/t2"])
        #expect(report.status == 2, "\(report.output)")
        #expect(report.stderr.contains("false did not start ("), "\(report.stderr)")
        #expect(try String(contentsOfFile: dir + "/t2/junit.xml", encoding: .utf8) == junit)
    }
}
