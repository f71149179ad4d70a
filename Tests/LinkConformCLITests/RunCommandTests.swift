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
        for file in ["summary.md", "results.json", "junit.xml", "r.sqlite"] {
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
    }

    @Test func unknownSuiteIsAUsageError() async throws {
        let result = try await CLI.run(["run", "--suite", "nope", "--db", CLI.temporaryDirectory() + "/r.sqlite"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown suite 'nope'"))
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
        let runHelp = try await CLI.run(["run", "--help"])
        #expect(runHelp.stdout.contains("nonStrict"))
    }

    @Test func interruptedRunIsMarkedAndKeepsItsResults() async throws {
        // A corpus big enough to take a while (the repository's plus 12,000 generated cases),
        // answered one at a time by the reference behind a Python relay that waits 2 ms before
        // each request: at least 24 s of work, so the interruption lands mid-run however fast
        // the harness gets.
        let dir = CLI.temporaryDirectory()
        let relay = CLI.repository.appendingPathComponent("Tests/LinkConformCLITests/Fixtures/tee_adapter.py").path
        try FileManager.default.copyItem(atPath: corpus, toPath: dir + "/Corpus")
        let one = #"{"id": "ulc/bulk/c%d", "title": "t", "operation": "ulc.parse", "requirement": "ULC-1", "polarity": "violating", "provenance": {"kind": "spec"}, "input": {"link": "https://a.example/l?x=%d"}, "expect": {"kind": "notULC"}}"#
        let cases = (0..<12_000).map { String(format: one, $0, $0) }.joined(separator: ",\n")
        try Data("{\"suite\": \"ulc\", \"cases\": [\(cases)]}".utf8).write(to: URL(fileURLWithPath: dir + "/Corpus/ulc/cases/bulk.json"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["run", "--corpus", dir + "/Corpus", "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress",
                             "--adapter", "python3 \(relay) \(dir)/log \(CLI.binary) adapter", "--window", "1"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TEE_DELAY_SECONDS": "0.002"]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the run is recorded, then interrupt it.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: dir + "/r.sqlite"),
               (try? await CLI.run(["report", "--db", dir + "/r.sqlite", "--list"]))?.stdout.contains("\trunning\t") == true { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let listing = try await CLI.run(["report", "--db", dir + "/r.sqlite", "--list"])
        #expect(listing.stdout.contains("\tinterrupted\t"), "\(listing.output)")
        let json = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/results.json"))))
        let stored = json["results"]?.arrayValue?.count ?? -1
        #expect(stored >= 0 && stored < 12_286, "the interrupted run keeps what it ran: \(stored)")
        #expect(json["run"]?["status"] == "interrupted")
    }
}
