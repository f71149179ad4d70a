import ArgumentParser
import Foundation
import ResultsStore

struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Keep the newest runs of the results store, remove the older ones, and compact the file.",
        discussion: """
            Every run adds its results to the store (the bundled matrix, about 10,000 results, \
            adds about 4 MB a night), and nothing removes them: a nightly that keeps its store \
            should prune it. `linkconform prune --keep 60` removes every run but the 60 newest, \
            with their results, then what no remaining run needs (large outputs stored once, the \
            case inputs and requirement texts of corpora no remaining run used), then compacts \
            the file (VACUUM, which needs free space about the size of what is kept; \
            --no-vacuum leaves the freed pages for SQLite to reuse).

            Kept whatever their age: a run still running, and for each implementation and suite \
            the two newest completed runs in which the implementation started and ran that suite, \
            so the next `run --baseline previous`, and `compare` of the newest run, are compared \
            with what they would have been compared with before (a suite run now and then with \
            `run --suite` keeps its last two runs). Run ids are never reused. The history in index.html shows the last 30 runs \
            that remain. Differential and libFuzzer findings are not touched. Each run is removed \
            in a transaction of its own, so a run writing to the store meanwhile is delayed, not \
            refused; the compaction at the end locks the file while it lasts.

            Examples:
              linkconform prune --keep 60 --dry-run   what would go, and nothing removed
              linkconform prune --keep 60             in the nightly, after the run

            Exit codes: 0 done (or nothing to remove); 2 no store at --db, or a store that cannot \
            be read or written; 64 usage.
            """)

    @Option(help: ArgumentHelp("How many of the newest runs to keep (at least 1).", valueName: "n"))
    var keep: Int

    @Option(help: ArgumentHelp("The results database (SQLite).", valueName: "path"))
    var db = "Reports/results.sqlite"

    @Flag(help: "Say what would be removed, and remove nothing.")
    var dryRun = false

    @Flag(help: "Do not compact the file after removing (faster; the file keeps its size).")
    var noVacuum = false

    func validate() throws {
        if keep < 1 { throw ValidationError("--keep must be 1 or more") }
    }

    func run() throws {
        let store = try StoreOpening.open(db)
        let summary = try store.prune(keepNewest: keep, dryRun: dryRun, vacuum: !noVacuum)
        let baselines = summary.keptAsBaselines.isEmpty ? ""
            : " (the \(keep) newest, and \(Self.list(summary.keptAsBaselines.sorted())): the two latest results of an implementation in a suite)"
        Console.line("kept \(summary.kept.count) run\(summary.kept.count == 1 ? "" : "s")\(baselines)")
        guard !summary.removed.isEmpty else {
            Console.line("nothing to remove")
            return
        }
        let verb = dryRun ? "would remove" : "removed"
        Console.line("\(verb) \(summary.removed.count) run\(summary.removed.count == 1 ? "" : "s") (\(Self.list(summary.removed))) "
                     + "with \(summary.resultsRemoved) result\(summary.resultsRemoved == 1 ? "" : "s")")
        if let after = summary.bytesAfter {
            Console.line("and \(summary.outputsRemoved) stored output\(summary.outputsRemoved == 1 ? "" : "s") and \(summary.corpusRowsRemoved) "
                         + "case and requirement row\(summary.corpusRowsRemoved == 1 ? "" : "s") of corpora no run uses; "
                         + "\(db): \(Self.megabytes(summary.bytesBefore)) -> \(Self.megabytes(after))"
                         + (noVacuum ? " (not compacted: --no-vacuum)" : ""))
        }
    }

    /// "3-7, 9, 12": runs of consecutive ids as ranges.
    static func list(_ ids: [Int64]) -> String {
        var parts: [String] = []
        var start: Int64?, last: Int64?
        func close() {
            guard let s = start, let l = last else { return }
            parts.append(s == l ? "\(s)" : "\(s)-\(l)")
        }
        for id in ids {
            if let l = last, id == l + 1 { last = id; continue }
            close()
            start = id
            last = id
        }
        close()
        return "run" + (ids.count == 1 ? " " : "s ") + parts.joined(separator: ", ")
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
