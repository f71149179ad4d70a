import Foundation
import Testing

/// What a CI log (stderr not a terminal) shows while a run is under way.
struct ProgressLogTests {
    @Test func aSlowRunWritesPlainProgressLinesToALog() async throws {
        let dir = CLI.temporaryDirectory()
        let adapter = CLI.repository.appendingPathComponent("Tests/LinkConformCLITests/Fixtures/slow_adapter.py").path
        // The first answer takes 6.5 s, longer than the 5 s between lines: the log must not go
        // silent while the adapter is, so a line that says nothing was answered yet comes first.
        let result = try await CLI.run(["run", "--suite", "ulc", "--adapter", "python3 \(adapter) 0.005 6.5", "--window", "1", "--timeout", "20",
                                        "--db", dir + "/r.sqlite", "--no-reports"])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("slow_adapter.py: ") || $0.hasPrefix("slow: ") }
        #expect(!lines.isEmpty, "no progress line in: \(result.stderr)")
        for line in lines {
            #expect(!line.contains("\u{1B}") && !line.contains("\r"), "a log line is plain text: \(line)")
            #expect(line.contains(" cases (") && line.hasSuffix(" s"), "\(line)")
        }
        #expect(lines.first?.contains(": 0/") == true, "the first line comes before the first answer: \(lines)")
        #expect(lines.last?.contains("100%") == true, "the last line says the run finished: \(lines)")
    }
}
