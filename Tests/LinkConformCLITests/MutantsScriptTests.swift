import Foundation
import Testing

/// scripts/mutants.py (the mutation audit of the reference against the corpus) makes its
/// mutants by reading Swift text. Its selftest runs the site finder and every mutant it makes
/// on a known snippet: the sites are the expected ones (none inside a string, a comment or a
/// generic `where` clause), every mutant still parses (`swiftc -parse`), and the file is put
/// back as it was; and it reads the names of failed tests from Swift Testing's and XCTest's output
/// (`--tests`). A full audit builds for minutes, so it is not run here.
struct MutantsScriptTests {
    @Test func theMutantMakerFindsTheRightSitesAndEveryMutantParses() async throws {
        let script = CLI.repository.appendingPathComponent("scripts/mutants.py").path
        let result = try await CLI.runTool(["python3", script, "selftest"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("selftest: 9 sites, 0 problems"), "\(result.output)")
    }

    @Test func aMistypedCommandIsAUsageErrorThatNamesTheCommands() async throws {
        let script = CLI.repository.appendingPathComponent("scripts/mutants.py").path
        let result = try await CLI.runTool(["python3", script, "rnu"])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.stderr.contains("unknown command 'rnu' (list, run, recheck, report, selftest"), "\(result.output)")
        // An option without its value is refused before any worktree is made or build started.
        let bare = try await CLI.runTool(["python3", script, "recheck", "x.jsonl", "--tests"])
        #expect(bare.status == 64, "\(bare.output)")
        #expect(bare.stderr.contains("--tests needs a value"), "\(bare.output)")
    }
}
