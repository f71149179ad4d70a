import Conformance
import Foundation
import GRDB
import ResultsStore
import Testing

/// A store this version cannot read (altered by hand, written by a newer version, damaged) or
/// an output folder it cannot write is the harness's failure in every command: exit 2 and one
/// clean line naming the file and the problem, never a trap or a statement's SQL.
struct DamagedStoreTests {
    /// A store with one completed run of three results, closed, then changed by `change` (SQL) as
    /// another program would change it.
    static func store(_ change: String? = nil) throws -> String {
        let path = try CompareCommandTests.seeded()
        if let change {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in try db.execute(sql: change) }
            try queue.close()
        }
        return path
    }

    /// The command exited 2 with one line on stderr that names `path` and holds `problem`.
    static func expectHarnessFailure(_ result: CLI.Result, _ path: String, _ problem: String,
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 2, "\(result.output)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(path) && result.stderr.contains(problem), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("SELECT") && !result.stderr.contains("Error:"), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func aColumnRemovedByHandIsNamedByEveryCommand() async throws {
        let db = try Self.store("ALTER TABLE run DROP COLUMN host")
        for arguments in [["report", "--list"], ["report", "--out", CLI.temporaryDirectory()], ["compare", "1", "2"], ["findings"]] {
            Self.expectHarnessFailure(try await CLI.run(arguments + ["--db", db]), db, "the table run has no column host")
        }
    }

    @Test func aTableDroppedByHandIsNamed() async throws {
        let db = try Self.store("DROP TABLE finding")
        Self.expectHarnessFailure(try await CLI.run(["findings", "--db", db]), db, "the table finding is missing")
    }

    @Test func aStoreANewerVersionWroteIsRefused() async throws {
        let db = try Self.store("INSERT INTO grdb_migrations VALUES ('v7: future')")
        for arguments in [["report", "--list"], ["compare"]] {
            Self.expectHarnessFailure(try await CLI.run(arguments + ["--db", db]), db, "written by a newer LinkConform")
        }
    }

    /// A store with `runs` completed runs (two unless told) of `results` results each of the
    /// implementation "impl", and `findings` fuzz findings, every page written into the file
    /// (no WAL left).
    static func largeStore(results: Int, findings: Int = 0, runs: Int = 2) throws -> String {
        let path = CLI.temporaryDirectory() + "/large.sqlite"
        do {
            let store = try ResultsStore(path: path)
            for night in 0..<runs {
                let run = try store.beginRun(RunStart(corpusFingerprint: "f", gitCommit: nil, toolVersion: "t", options: [:]))
                let impl = try store.register(ImplementationInfo(name: "impl", version: "\(night)", language: "", homepage: ""), run: run)
                try store.insert((0..<results).map { i in
                    CaseResult(suite: "ulc", caseID: "ulc/case-\(i)", operation: "ulc.parse", requirement: "ULC-1", level: .must,
                               outcome: i % 7 == night ? .fail : .pass, nullWouldPass: false, actual: ["kind": "ulc"], expected: ["kind": "x"],
                               message: String(repeating: "a message long enough to fill pages ", count: 3), durationNanos: 1)
                }, run: run, implementation: impl)
                try store.finishRun(run, status: .completed)
            }
            for i in 0..<findings {
                try store.recordFinding(target: "ulc", kind: .crash, signature: "signature \(i)", message: "m",
                                        input: Array(repeating: UInt8(i % 256), count: 1_000), reproducerPath: "r\(i)")
            }
        }
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        return path
    }

    /// Overwrites the header of every page in the last half of the file, where the results and
    /// findings written last are: any query that reaches one of them fails (SQLITE_CORRUPT).
    static func damagePages(_ path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd(), page: UInt64 = 4_096
        #expect(size > 40 * page, "the store is too small to damage only its later pages")
        for offset in stride(from: size / 2 / page * page, to: size, by: Int(page)) {
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: Data(repeating: 0, count: 12))
        }
    }

    @Test func aStoreWithDamagedPagesIsAHarnessFailureInEveryCommand() async throws {
        let db = try Self.largeStore(results: 3_000)
        try Self.damagePages(db)
        #expect(try await CLI.run(["report", "--list", "--db", db]).status == 0, "the runs' own pages are whole")
        let out = CLI.temporaryDirectory()
        for arguments in [["report", "--out", out], ["report", "--statement", "impl", "--out", out], ["compare", "1", "2"],
                          ["compare", "2"], ["report", "--stdout", "--format", "junit"]] {
            Self.expectHarnessFailure(try await CLI.run(arguments + ["--db", db]), db, "database disk image is malformed")
        }
    }

    /// One run, its results damaged: `compare` has no run to compare it with, and says the
    /// store is damaged, as `report` does, rather than only that there is no earlier run.
    @Test func compareNamesTheDamageOfAStoreWithOneRun() async throws {
        let db = try Self.largeStore(results: 3_000, runs: 1)
        #expect(try await CLI.run(["compare", "--db", db]).stderr.contains("no earlier results to compare run 1 with"), "an undamaged store with one run")
        try Self.damagePages(db)
        Self.expectHarnessFailure(try await CLI.run(["compare", "--db", db]), db, "database disk image is malformed")
        Self.expectHarnessFailure(try await CLI.run(["report", "--db", db, "--out", CLI.temporaryDirectory()]), db, "database disk image is malformed")
    }

    @Test func findingsInADamagedStoreAreAHarnessFailureNotOpenFindings() async throws {
        let db = try Self.largeStore(results: 10, findings: 400)
        try Self.damagePages(db)
        Self.expectHarnessFailure(try await CLI.run(["findings", "--db", db]), db, "database disk image is malformed")
    }

    @Test func anOutputFolderThatCannotBeWrittenIsAHarnessFailureInEveryCommand() async throws {
        let db = try Self.store()
        let dir = CLI.temporaryDirectory(), file = dir + "/a-file"
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
        Self.expectHarnessFailure(try await CLI.run(["report", "--db", db, "--out", file]), file, "it is a file, where a folder is wanted")
        Self.expectHarnessFailure(try await CLI.run(["report", "--db", db, "--out", file + "/sub"]), file + "/sub", "Not a directory")
        Self.expectHarnessFailure(try await CLI.run(["report", "--db", db, "--statement", "impl", "--out", file]), file,
                                  "it is a file, where a folder is wanted")
        let run = try await CLI.run(["run", "--corpus", CLI.repository.appendingPathComponent("Corpus").path, "--suite", "ulc",
                                     "--db", dir + "/r.sqlite", "--reports", file, "--no-progress"])
        Self.expectHarnessFailure(run, file, "it is a file, where a folder is wanted")
        #expect(run.stdout.contains("run 1 completed"), "the run was stored and summed up before the reports")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("not a folder".utf8))
    }
}
