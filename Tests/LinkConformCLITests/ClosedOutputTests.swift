import Foundation
import ResultsStore
import Testing

/// Output read by a reader that stops early (`linkconform ... | head -1`): the command goes on,
/// finishes, stores what it found and exits as it would have. Foundation's
/// `FileHandle.write(_:)` trapped on the broken pipe (exit 132 with SIGPIPE ignored, as the
/// harness ignores it), before the run's summary and reports were written.
struct ClosedOutputTests {
    @Test func aRunWhoseOutputIsCutShortFinishesAndStoresEverything() async throws {
        let dir = CLI.temporaryDirectory()
        let db = dir + "/r.sqlite"
        // `true` has long exited when the run first writes (its summary, after seconds of work),
        // so every write meets a pipe without a reader; `>&-` runs a command with no stdout at all.
        let script = """
            '\(CLI.binary)' run --suite ulc --db '\(db)' --reports '\(dir)/reports' --no-progress | true
            status=${PIPESTATUS[0]}
            '\(CLI.binary)' report --list --db '\(db)' >&-
            echo "$status $?"
            """
        let result = try await CLI.runTool(["bash", "-c", script])
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0 0", "\(result.output)")
        let store = try ResultsStore(path: db)
        let run = try #require(try store.runs().first)
        #expect(run.status == .completed)
        let ulcCases = try store.results(run: run.id).count
        #expect(ulcCases > 250, "\(ulcCases) results stored")
        #expect(FileManager.default.fileExists(atPath: dir + "/reports/index.html"))
    }
}
