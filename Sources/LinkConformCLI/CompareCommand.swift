import ArgumentParser
import Foundation
import LinkJSON
import Reports
import ResultsStore

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "What changed between two stored runs: regressions, fixes, new and removed cases.",
        discussion: """
            Compares the cases of each implementation (matched by name, so a new version is \
            compared with the old) between run BEFORE and run AFTER. Without BEFORE (no argument: \
            the newest run; one: that run), each suite of each implementation is compared with its \
            previous results in that suite, as `run --baseline previous` does: the newest completed \
            run before AFTER in which the implementation started and has results in the suite. A \
            night it did not start (against which every case looks fixed) and a run of other \
            suites (against which every case looks new) are skipped; an implementation that did \
            not start in AFTER is not compared. With BEFORE, the two runs are compared as given.

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
              linkconform compare                   the newest run against its previous results
              linkconform compare 41 42 --json      every change, for a program
              linkconform run --baseline previous   the same check, as part of a nightly run

            Exit codes: 0 no regression; 1 at least one regression; 2 no such run, no run to \
            compare with, a store that cannot be read, or the later run is incomplete; 64 usage.
            """)

    @Argument(help: ArgumentHelp("The earlier run (default: each suite of each implementation against its previous results).", valueName: "before"))
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
        let store = try StoreOpening.open(db, readOnly: true)
        // One argument is the later run; two are before and after.
        let (beforeArgument, afterArgument) = second == nil ? (nil, first) : (first, second)
        guard let after = try afterArgument ?? store.latestRunID(), try store.run(after) != nil else {
            Console.error(afterArgument.map { "no run \($0) in \(db)" } ?? "no runs in \(db)")
            throw Exit.harness
        }
        guard let before = beforeArgument else { return try compareWithPreviousResults(store, after) }
        guard try store.run(before) != nil else {
            Console.error("no run \(before) in \(db)")
            throw Exit.harness
        }
        let comparison = try store.compare(before, after, strict: strict)
        // Said because the default comparison skips such runs (and `run --baseline previous`
        // never uses them), while an explicit one takes the runs as given.
        for implementation in comparison.implementations where implementation.versionBefore != nil && implementation.versionAfter != nil {
            if try !store.started(implementation.name, in: before) {
                Console.error("\(Escaping.terminal(implementation.name)) did not start in run \(before): against it every case looks fixed; "
                              + "`compare \(after)` compares each suite with its previous results")
            }
        }
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

    /// No earlier run given: each suite of each implementation of `after` is compared with that
    /// implementation's previous results in the suite, as `run --baseline previous` gates on and
    /// the reports list the changes (a night an implementation did not start, or a run of other
    /// suites, is skipped rather than read as every case fixed or new). One baseline run prints
    /// and writes JSON as an explicit comparison; several print one after another, and JSON is
    /// `{"after", "regressions", "fixes", "comparisons": [...]}`.
    func compareWithPreviousResults(_ store: ResultsStore, _ after: Int64) throws {
        let names = try store.implementations(run: after).map(\.info.name)
        let previous = try store.comparedWithPreviousResults(after, names: names, strict: strict)
        let comparisons = previous.comparisons
        guard !comparisons.isEmpty else {
            _ = try store.summary(run: after)   // a damaged store is named (exit 2), not taken for a first run
            Console.error("no earlier results to compare run \(after) with in \(db): no implementation of it has results in "
                          + "a suite of an earlier completed run in which it started")
            throw Exit.harness
        }
        if json {
            let value: JSONValue = comparisons.count == 1 ? ComparisonReport.json(comparisons[0]) : [
                "after": .int(Int(after)),
                "regressions": .int(comparisons.reduce(0) { $0 + $1.regressionCount }),
                "fixes": .int(comparisons.reduce(0) { $0 + $1.fixCount }),
                "comparisons": .array(comparisons.map(ComparisonReport.json)),
            ]
            Console.line(value.serialized(pretty: true))
        } else {
            for (i, comparison) in comparisons.enumerated() {
                Console.out((i == 0 ? "" : "\n") + ComparisonReport.text(comparison, limit: limit))
            }
            for name in names {
                if try !store.started(name, in: after) {
                    Console.line("\(Escaping.terminal(name)): did not start in run \(after); not compared")
                } else if let unseen = previous.firstResults[name] {
                    Console.line("\(Escaping.terminal(name)): first results in \(unseen.joined(separator: ", ")); nothing to compare with")
                }
            }
        }
        if let incomplete = comparisons.first?.afterIncomplete {
            Console.error(IncompleteRunReport.sentence(incomplete) + "; compare a run that completed")
            throw Exit.harness
        }
        if comparisons.contains(where: { $0.regressionCount > 0 }) { throw Exit.failures }
    }
}

/// Opening an existing results database, with the errors every command that needs one gives
/// (no file: say how to make one; a store that does not open: its `StoreError`, which
/// `LinkConformCommand.main` turns into exit 2). A command that only reads passes `readOnly`,
/// so that a store it cannot write (an artifact unpacked read-only, a full disk) can still be
/// read (``ResultsStore/init(path:readOnly:)``).
enum StoreOpening {
    /// `makesOne`: the command that fills a store, for the hint.
    static func open(_ path: String, readOnly: Bool = false, makesOne: String = "`linkconform run`") throws -> ResultsStore {
        guard FileManager.default.fileExists(atPath: path) else {
            Console.error("no results database at \(path); run \(makesOne) first or pass --db")
            throw Exit.harness
        }
        return try ResultsStore(path: path, readOnly: readOnly)
    }
}
