import Foundation
import LinkJSON
import Testing

/// `linkconform run`, `report` and `corpus`, end to end through the binary.
struct RunCommandTests {
    var corpus: String { CLI.repository.appendingPathComponent("Corpus").path }

    @Test func runStoresSummarisesAndWritesReports() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("reference"))
        #expect(result.stdout.contains("fail 0"))
        #expect(result.stdout.contains("null implementation would also pass"))
        for file in ["summary.md", "results.json", "junit.xml", "index.html", "r.sqlite"] {
            #expect(FileManager.default.fileExists(atPath: dir + "/" + file), "\(file)")
        }
        let json = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/results.json"))))
        #expect((json["results"]?.arrayValue?.count ?? 0) >= 150)

        // The reports come back from the store alone, later.
        try FileManager.default.removeItem(atPath: dir + "/summary.md")
        let report = try await CLI.run(["report", "--db", dir + "/r.sqlite", "--run", "1", "--out", dir])
        #expect(report.status == 0, "\(report.output)")
        #expect(FileManager.default.fileExists(atPath: dir + "/summary.md"))
        let listing = try await CLI.run(["report", "--db", dir + "/r.sqlite", "--list"])
        #expect(listing.stdout.hasPrefix("1\tcompleted"))
        let page = try await CLI.run(["report", "--db", dir + "/r.sqlite", "--format", "html", "--stdout"])
        #expect(page.status == 0 && page.stdout.hasPrefix("<!DOCTYPE html>") && page.stdout.hasSuffix("</html>\n"))
        #expect(page.stdout == (try String(contentsOfFile: dir + "/index.html", encoding: .utf8)), "the same page as the run wrote")
        let unknown = try await CLI.run(["report", "--db", dir + "/r.sqlite", "--format", "pdf"])
        #expect(unknown.status == 64 && unknown.stderr.contains("use md, json, junit or html"), "\(unknown.stderr)")
    }

    @Test func unknownSuiteIsAUsageError() async throws {
        let result = try await CLI.run(["run", "--suite", "nope", "--db", CLI.temporaryDirectory() + "/r.sqlite"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown suite 'nope'"))
    }

    @Test(arguments: ["0", "-1", "nan", "86401"])
    func anInProcessTimeoutOutOfRangeIsAUsageError(seconds: String) async throws {
        let result = try await CLI.run(["run", "--corpus", corpus, "--in-process-timeout=" + seconds, "--db", CLI.temporaryDirectory() + "/r.sqlite"])
        #expect(result.status == 64 && result.stderr.contains("--in-process-timeout must be more than 0 seconds"), "\(result.stderr)")
    }

    @Test func brokenCorpusStopsTheRunWithFileAndLine() async throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/Corpus/ulc/cases", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus + "/ulc/requirements.json", toPath: dir + "/Corpus/ulc/requirements.json")
        try Data("{\"suite\": \"ulc\",\n \"cases\": [}\n".utf8).write(to: URL(fileURLWithPath: dir + "/Corpus/ulc/cases/x.json"))
        let result = try await CLI.run(["run", "--corpus", dir + "/Corpus", "--db", dir + "/r.sqlite", "--reports", dir], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Corpus/ulc/cases/x.json:2:12: error: invalid JSON"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/summary.md"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/r.sqlite"), "a failed corpus leaves no empty database behind")
        let lint = try await CLI.run(["corpus", "lint", "--corpus", dir + "/Corpus"], in: dir)
        #expect(lint.status == 2)
        #expect(lint.stdout.contains("x.json:2:12"))
    }

    @Test func unwritableDatabaseIsReportedBeforeAnyWork() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await CLI.run(["run", "--corpus", corpus, "--db", "/proc/nope/results.sqlite", "--reports", dir])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/proc/nope/results.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/summary.md"))
    }

    @Test func lintAndStatsOnTheRepositoryCorpus() async throws {
        let lint = try await CLI.run(["corpus", "lint", "--corpus", corpus])
        #expect(lint.status == 0, "\(lint.output)")
        #expect(lint.stdout.contains("0 errors"))
        let stats = try await CLI.run(["corpus", "stats", "--corpus", corpus, "--json"])
        let json = try JSONParser.parse(stats.stdout)
        let ulc = json.arrayValue?.first
        #expect((ulc?["cases"]?.intValue ?? 0) >= 150)
        #expect(ulc?["judgedRequirementsFullyCovered"] == ulc?["judgedRequirements"])
    }

    @Test func helpTeaches() async throws {
        let help = try await CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Exit codes"))
        func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(flat(help.stdout).contains("130 `run` or `fuzz` interrupted"), "\(help.stdout)")
        let runHelp = try await CLI.run(["run", "--help"])
        #expect(runHelp.stdout.contains("nonStrict"))
        // The file findings fix writes, and the exit codes of fix and promote.
        let fix = flat(try await CLI.run(["findings", "fix", "--help"]).stdout)
        #expect(fix.contains("Corpus/fuzz/regressions/TARGET/finding-<hash>") && fix.contains("64 no finding has that id"), "\(fix)")
        let promote = flat(try await CLI.run(["findings", "promote", "--help"]).stdout)
        #expect(promote.contains("a finding promoted twice") && promote.contains("64 no differential finding has that id"), "\(promote)")
    }

    @Test func interruptedRunIsMarkedAndKeepsItsResults() async throws {
        // The zoo's slow adapter answers the ULC suite's 171 ulc.parse cases one a second (the
        // other operations are skipped at once), so the run lasts minutes: however late this
        // task wakes on a loaded machine, the interruption lands mid-run, and the case under
        // way when it does is answered within a second.
        let dir = CLI.temporaryDirectory()
        let answered = dir + "/answered"
        let parseCases = 171
        let process = try CLI.launch(["run", "--corpus", corpus, "--suite", "ulc", "--db", dir + "/r.sqlite", "--reports", dir,
                                      "--no-progress", "--timeout", "600", "--window", "1",
                                      "--adapter", "python3 \(AdapterRunTests.zoo) slow 1000 \(answered)"])
        // Interrupted once three answers are out, as the adapter's own log says (reading a file
        // starts no process and takes no lock).
        let stop = await CLI.signal(process, [SIGINT], when: { KillDuringRunTests.answerTimes(answered).count >= 3 }, within: 120)
        try #require(stop.wasRunning, "the run ended before the signal (status \(stop.status))")
        #expect(stop.status == 130)
        let listing = try await CLI.run(["report", "--db", dir + "/r.sqlite", "--list"])
        #expect(listing.stdout.contains("\tinterrupted\t"), "\(listing.output)")
        let json = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/results.json"))))
        let parsed = json["results"]?.arrayValue?.filter { $0["operation"]?.stringValue == "ulc.parse" }.count ?? -1
        #expect(parsed >= 3 && parsed < parseCases, "the interrupted run keeps what it ran, and no more: \(parsed)")
        #expect(json["run"]?["status"] == "interrupted")
    }
}
