import ArgumentParser
import Foundation
import Reports
import ResultsStore

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "What changed between two stored runs: regressions, fixes, new and removed cases.",
        discussion: """
            Compares the cases of each implementation (matched by name, so a new version is \
            compared with the old) between run BEFORE and run AFTER. Without arguments: the newest \
            run against the newest completed run before it; with one: that run against the newest \
            completed run before it.

            A case is bad when its outcome fails a run (fail, errored, crashed, timedOut, \
            protocolError; nonStrict with --strict) or when it did not reach the implementation \
            (notRun, skipped). A regression is a case that was not bad and is now; a fix, the \
            reverse. expectedFail is not bad: a case newly listed as an expected failure is no \
            regression. But a listed case that passed (unexpectedPass: its line is stale) and \
            fails again (expectedFail) is a regression, since the stale line hid the bug's return, \
            and the reverse a fix. A case judged under another requirement or level than before (the corpus \
            changed) is neither: it is listed as changed, with both. Other changes of outcome, new \
            and removed cases are listed but never change the exit code.

            If BEFORE is the later run, the changes are read backwards (a fix is listed as a \
            regression); a line says so.

            A run stopped by Ctrl-C or killed keeps its results but has none for the cases it did \
            not reach. Either run being incomplete (interrupted, failed, or still running) is said \
            first, with how many cases have no result; a case of the earlier run that the later, \
            incomplete run has no result for is listed as without a result, neither a regression \
            nor removed, and the comparison is no verdict: exit 2.

            Examples:
              linkconform compare                   the last two runs
              linkconform compare 41 42 --json      every change, for a program
              linkconform run --baseline previous   the same check, as part of a nightly run

            Exit codes: 0 no regression; 1 at least one regression; 2 no such run, no run to \
            compare with, a store that cannot be read, or the later run is incomplete; 64 usage.
            """)

    @Argument(help: ArgumentHelp("The earlier run (default: the newest completed run before AFTER).", valueName: "before"))
    var first: Int64?

    @Argument(help: ArgumentHelp("The later run (default: the newest run).", valueName: "after"))
    var second: Int64?

    @Option(help: ArgumentHelp("The results database (SQLite).", valueName: "path"))
    var db = "Reports/results.sqlite"

    @Flag(help: "Count nonStrict (a SHOULD not met) as bad.")
    var strict = false

    @Flag(help: "Print every change as JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Cases listed per kind and implementation in the text.", valueName: "n"))
    var limit = 20

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
        let store = try StoreOpening.open(db)
        // One argument is the later run; two are before and after.
        let (beforeArgument, afterArgument) = second == nil ? (nil, first) : (first, second)
        guard let after = try afterArgument ?? store.latestRunID(), try store.run(after) != nil else {
            Console.error(afterArgument.map { "no run \($0) in \(db)" } ?? "no runs in \(db)")
            throw Exit.harness
        }
        guard let before = try beforeArgument ?? store.previousCompletedRun(before: after) else {
            // Nothing to compare with; the later run's results are still read, as `report` reads
            // them, so that a damaged store is named (exit 2, StoreError) rather than taken for
            // a store with one run.
            _ = try store.summary(run: after)
            Console.error("no completed run before run \(after) in \(db) to compare with")
            throw Exit.harness
        }
        guard try store.run(before) != nil else {
            Console.error("no run \(before) in \(db)")
            throw Exit.harness
        }
        let comparison = try store.compare(before, after, strict: strict)
        if before > after {
            Console.error("run \(before) is later than run \(after): the changes are read backwards (a fix is listed as a regression); `compare \(after) \(before)` reads them forwards")
        }
        if json {
            Console.line(ComparisonReport.json(comparison).serialized(pretty: true))
        } else {
            Console.out(ComparisonReport.text(comparison, limit: limit))
        }
        // Cases the later run never reached are neither good nor bad: it answers nothing.
        if let incomplete = comparison.afterIncomplete {
            Console.error(IncompleteRunReport.sentence(incomplete) + "; compare a run that completed")
            throw Exit.harness
        }
        if comparison.regressionCount > 0 { throw Exit.failures }
    }
}

/// Opening an existing results database for reading, with the errors every reading command
/// gives (no file: say how to make one; a store that does not open: its `StoreError`, which
/// `LinkConformCommand.main` turns into exit 2).
enum StoreOpening {
    static func open(_ path: String) throws -> ResultsStore {
        guard FileManager.default.fileExists(atPath: path) else {
            Console.error("no results database at \(path); run `linkconform run` first or pass --db")
            throw Exit.harness
        }
        return try ResultsStore(path: path)
    }
}
