import ArgumentParser
import Conformance
import Foundation
import Reports
import ResultsStore

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Regenerate the reports of a stored run, or list the runs.",
        discussion: """
            Reports are queries over the results database, so any earlier run can be reported again: \
            `linkconform report --run 3` writes summary.md, results.json and junit.xml for run 3, \
            and the badges (badges/: an SVG and a shields.io endpoint JSON per implementation and \
            suite) unless --format picks formats. \
            Without --run, the newest run is used. Exit 1 when the run has failures (as `run` would).
            """)

    @Option(help: ArgumentHelp("The results database (SQLite).", valueName: "path"))
    var db = "Reports/results.sqlite"

    @Option(name: .customLong("run"), help: ArgumentHelp("The run to report (default: the newest).", valueName: "id"))
    var runID: Int64?

    @Option(help: ArgumentHelp("Formats to write: md, json, junit (repeatable; default: all).", valueName: "format"))
    var format: [String] = []

    @Option(help: ArgumentHelp("Folder to write into.", valueName: "dir"))
    var out = "Reports"

    @Flag(help: "Print the chosen format to stdout instead of writing files (one format only).")
    var stdout = false

    @Flag(help: "List the stored runs and exit.")
    var list = false

    @Flag(help: "Count nonStrict as a failure for the exit code.")
    var strict = false

    func validate() throws {
        for f in format where ReportWriter.Format(rawValue: f) == nil {
            throw ValidationError("unknown format '\(f)'; use md, json or junit")
        }
        if stdout && format.count != 1 { throw ValidationError("--stdout needs exactly one --format") }
    }

    func run() throws {
        let store = try StoreOpening.open(db)
        if list {
            for r in try store.runs(limit: 50) {
                Console.line("\(r.id)\t\(r.status.rawValue)\t\(r.startedAt)\tcorpus \(r.corpusFingerprint.prefix(12))\t\(r.gitCommit ?? "-")")
            }
            return
        }
        guard let id = try runID ?? store.latestRunID(), let data = try ReportData.load(from: store, run: id) else {
            Console.error(runID.map { "no run \($0) in \(db); `linkconform report --list` shows the runs" } ?? "the database has no runs yet")
            throw Exit.harness
        }
        let formats = format.isEmpty ? ReportWriter.Format.allCases : format.compactMap(ReportWriter.Format.init(rawValue:))
        if stdout {
            try formats[0].write(data, to: ReportOutput(handle: FileHandle.standardOutput))
        } else {
            Console.out(try TerminalSummary.render(data))
            // Badges come with the full set of reports, not with a chosen format.
            let paths = try ReportWriter.write(data, formats: formats, badges: format.isEmpty, to: out)
            Console.line("reports: " + paths.joined(separator: ", "))
        }
        if data.hasFailures(strict: strict) { throw Exit.failures }
    }
}
