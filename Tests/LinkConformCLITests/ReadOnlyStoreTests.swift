import Foundation
import Testing

/// A store that cannot be written (an artifact unpacked read-only, another user's file) can
/// still be read by the commands that only read: they refused it before ("the file is not
/// writable"), though nothing they do writes to it.
struct ReadOnlyStoreTests {
    /// `arguments` run as a user who can read the store's folder but not write it: as root,
    /// through `setpriv` as `nobody` (root writes whatever the modes say); otherwise as is.
    static func asReader(_ arguments: [String]) async throws -> CLI.Result {
        guard getuid() == 0 else { return try await CLI.run(arguments) }
        return try await CLI.runTool(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary] + arguments)
    }

    @Test func theReadingCommandsReadAStoreTheyCannotWrite() async throws {
        if getuid() == 0 && !(ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains(where: {
            FileManager.default.isExecutableFile(atPath: "\($0)/setpriv")
        }) {
            Issue.record("setpriv (util-linux) is not installed: this test reads the store as another user through it")
            return
        }
        // A folder only its owner (root, or the test's user) can write, readable by all, and a
        // writable folder for the reports.
        let dir = "/tmp/linkconform-readonly-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let db = dir + "/r.sqlite"
        for _ in 0..<2 {
            let run = try await CLI.run(["run", "--suite", "mitid", "--db", db, "--no-reports", "--no-progress"])
            #expect(run.status == 0, "\(run.output)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir + "/out")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))

        let list = try await Self.asReader(["report", "--list", "--db", db])
        #expect(list.status == 0 && list.stdout.hasPrefix("2\tcompleted"), "\(list.output)")
        let compare = try await Self.asReader(["compare", "--db", db])
        #expect(compare.status == 0 && compare.stdout.contains("no regressions"), "\(compare.output)")
        let report = try await Self.asReader(["report", "--db", db, "--out", dir + "/out"])
        #expect(report.status == 0, "\(report.output)")
        #expect(FileManager.default.fileExists(atPath: dir + "/out/index.html"))
        let findings = try await Self.asReader(["findings", "--db", db])
        #expect(findings.status == 0 && findings.stdout.contains("no findings"), "\(findings.output)")
        // A command that writes still says it cannot.
        let run = try await Self.asReader(["run", "--suite", "mitid", "--db", db, "--no-reports", "--no-progress"])
        #expect(run.status == 2 && run.stderr.contains("not writable"), "\(run.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "reading left the file as it was")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["out", "r.sqlite"], "no -wal or -shm file made")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir)
    }

    /// Another user's store in a folder everyone may write (a sticky /tmp-like folder): reading
    /// it must make no file beside it. A plain read-only connection made the log and
    /// shared-memory files, owned by the reader, and the owner's next run then failed ("attempt
    /// to write a readonly database"; the review's finding). Needs root, to act as two users.
    @Test func readingAnotherUsersStoreMakesNoFileBesideIt() async throws {
        guard getuid() == 0 else { return }   // the test above covers a store this user cannot write
        let dir = "/tmp/linkconform-shared-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: dir)
        let db = dir + "/r.sqlite"
        func owner(_ arguments: [String]) async throws -> CLI.Result {
            try await CLI.runTool(["setpriv", "--reuid=1000", "--regid=1000", "--clear-groups", CLI.binary] + arguments)
        }
        let first = try await owner(["run", "--suite", "mitid", "--db", db, "--no-reports", "--no-progress"])
        try #require(first.status == 0, "\(first.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let list = try await Self.asReader(["report", "--list", "--db", db])
        #expect(list.status == 0 && list.stdout.hasPrefix("1\tcompleted"), "\(list.output)")
        let compare = try await Self.asReader(["compare", "--db", db])
        #expect(compare.status == 2 && compare.stderr.contains("no earlier results"), "\(compare.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == files, "reading made no file beside the store")
        let second = try await owner(["run", "--suite", "mitid", "--db", db, "--no-reports", "--no-progress"])
        #expect(second.status == 0, "the owner still writes it: \(second.output)")
    }
}
