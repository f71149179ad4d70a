import Conformance
import Foundation
import GRDB
import ResultsStore
import Testing

/// A store this version cannot read (altered by hand, written by a newer version) is the
/// harness's failure: exit 2 and one clean line naming the file and the problem, never a trap.
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
}
