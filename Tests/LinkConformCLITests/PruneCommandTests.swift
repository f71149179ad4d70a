import Conformance
import Foundation
import ResultsStore
import Testing

/// `linkconform prune` as a nightly calls it.
struct PruneCommandTests {
    @Test func pruneKeepsTheNewestRunsAndSaysWhatItRemoved() async throws {
        let db = try CompareCommandTests.seeded()   // two runs of one implementation, and a third:
        let store = try ResultsStore(path: db)
        let third = try store.beginRun(RunStart(corpusFingerprint: "f", gitCommit: nil, toolVersion: "t", options: [:]))
        let impl = try store.register(ImplementationInfo(name: "impl", version: "2", language: "", homepage: ""), run: third)
        try store.insert([CaseResult(suite: "ulc", caseID: "ulc/a", operation: "ulc.parse", requirement: "ULC-1", level: .must, outcome: .pass,
                                     nullWouldPass: false, actual: nil, expected: [:], message: nil, durationNanos: 1)], run: third, implementation: impl)
        try store.finishRun(third, status: .completed)
        // Run 2 stays with run 3, as run 3's baseline; run 1 goes.
        let dry = try await CLI.run(["prune", "--keep", "1", "--db", db, "--dry-run"])
        #expect(dry.status == 0, "\(dry.output)")
        #expect(dry.stdout.contains("kept 2 runs (the 1 newest, and run 2: the two latest results of an implementation in a suite)")
                && dry.stdout.contains("would remove 1 run (run 1) with 3 results"), "\(dry.stdout)")
        let real = try await CLI.run(["prune", "--keep", "1", "--db", db])
        #expect(real.status == 0 && real.stdout.contains("removed 1 run (run 1) with 3 results"), "\(real.output)")
        #expect(real.stdout.contains("\(db): ") && real.stdout.contains(" MB -> "), "\(real.stdout)")
        let list = try await CLI.run(["report", "--list", "--db", db])
        #expect(list.stdout.hasPrefix("3\t") && list.stdout.contains("\n2\t") && !list.stdout.contains("\n1\t"), "\(list.stdout)")
        let again = try await CLI.run(["prune", "--keep", "1", "--db", db])
        #expect(again.status == 0 && again.stdout.contains("nothing to remove"))
        #expect(try await CLI.run(["prune", "--keep", "0", "--db", db]).status == 64)
        let missing = CLI.temporaryDirectory() + "/none.sqlite"
        let none = try await CLI.run(["prune", "--keep", "5", "--db", missing])
        #expect(none.status == 2 && none.stderr.contains("no results database"))
        #expect(!FileManager.default.fileExists(atPath: missing), "a store that is not there is not made")
    }
}
