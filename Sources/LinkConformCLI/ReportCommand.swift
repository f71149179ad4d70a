import ArgumentParser
import Conformance
import Foundation
import Reports
import ResultsStore

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Regenerate the reports of a stored run, list the runs, or write and check conformance statements.",
        discussion: """
            Reports are queries over the results database, so any earlier run can be reported again: \
            `linkconform report --run 3` writes summary.md, results.json, junit.xml and index.html \
            (one self-contained page with the history of the runs up to it) for run 3, and the badges (badges/: an SVG and a shields.io endpoint JSON per implementation and \
            suite) unless --format picks formats. \
            Without --run, the newest run is used. \
            The exit code judges the run's own results as `run` without --baseline judges them: 1 \
            when it has a fail, an error, a crash, a timeout, a protocol error or an unexpected pass, \
            and a nonStrict too when the run was made with --strict (stored with the run) or when \
            --strict is given here (which changes the exit code only). It does not repeat a --baseline verdict: the run does not store \
            its baseline, and a failure the baseline run had as well still exits 1 here; \
            `linkconform compare` judges regressions between two runs. junit.xml and index.html \
            follow the run's stored strictness too. \
            A run stopped by Ctrl-C or killed keeps its results but has none for the cases it did \
            not reach: every report of a run that is incomplete (interrupted, failed, still running) \
            says so with how many cases have no result (junit.xml: a test case in error), and \
            report exits 2 once they are written, since the run gives no verdict. So does a run in \
            which an implementation never started (an adapter that did not answer its handshake, \
            for which run exited 2): every report names it with the reason stored, and junit.xml \
            holds a test case in error for it.

            Conformance statement: `linkconform report --statement NAME [--run N] [--out DIR]` writes \
            statement-<name>.json and statement-<name>.html (one self-contained page) for the \
            implementation NAME of the run: its name, version, language and homepage; LinkConform's \
            version and commit; the corpus fingerprint; the run's id, dates and status; per suite, \
            MUST and SHOULD cases passed, failed and other, and requirements met, not met and \
            unverified; each failed MUST case; the expected-failures lines that matched a case of the run (read from the file the \
            run recorded); and a SHA-256 over the canonical JSON: the statement object without its \
            "sha256" member, members sorted by key at every level, no whitespace. \
            `linkconform report --verify-statement FILE` recomputes that digest: exit 0 when it \
            matches, 1 when the file was edited or is not a statement. docs/statement.md has the format.

            Exit codes: 0 done (a statement is written whatever the results); 1 the run has failures \
            (reports), or a statement does not verify; \
            2 the run is incomplete or an implementation in it never started (reports), no database, no such run or implementation, an unreadable file, a store that cannot be \
            read (damaged, changed by hand, written by a newer LinkConform), a folder that cannot be \
            written; 64 usage.
            """)

    @Option(help: ArgumentHelp("The results database (SQLite).", valueName: "path"))
    var db = "Reports/results.sqlite"

    @Option(name: .customLong("run"), help: ArgumentHelp("The run to report (default: the newest).", valueName: "id"))
    var runID: Int64?

    @Option(help: ArgumentHelp("Formats to write: md, json, junit, html (repeatable; default: all).", valueName: "format"))
    var format: [String] = []

    @Option(help: ArgumentHelp("Folder to write into.", valueName: "dir"))
    var out = "Reports"

    @Flag(help: "Print the chosen format to stdout instead of writing files (one format only).")
    var stdout = false

    @Flag(help: "List the stored runs and exit.")
    var list = false

    @Flag(help: "Count nonStrict as a failure for the exit code of a run not made with --strict (a strict run's always does); the files follow the run as stored.")
    var strict = false

    @Option(help: ArgumentHelp("Write the conformance statement of this implementation in the run (statement-<name>.json and .html in --out).",
                               valueName: "name"))
    var statement: String?

    @Option(help: ArgumentHelp("Check that a statement's JSON file matches its SHA-256 (exit 0) or not (exit 1).", valueName: "file"))
    var verifyStatement: String?

    func validate() throws {
        for f in format where ReportWriter.Format(rawValue: f) == nil {
            throw ValidationError("unknown format '\(f)'; use \(ReportWriter.Format.names)")
        }
        if stdout && format.count != 1 { throw ValidationError("--stdout needs exactly one --format") }
        if statement != nil || verifyStatement != nil {
            if statement != nil && verifyStatement != nil { throw ValidationError("--statement and --verify-statement do not go together") }
            if list || stdout || !format.isEmpty || strict {
                throw ValidationError("--statement and --verify-statement do not go with --list, --stdout, --format or --strict")
            }
            if verifyStatement != nil && runID != nil { throw ValidationError("--verify-statement reads a file, not a run: drop --run") }
        }
    }

    func run() throws {
        if let verifyStatement { return try verify(verifyStatement) }
        let store = try StoreOpening.open(db, readOnly: true)
        if list {
            let shown = 50
            let runs = try store.runs(limit: shown + 1)
            for r in runs.prefix(shown) {
                Console.line("\(r.id)\t\(r.status.rawValue)\t\(r.startedAt)\tcorpus \(r.corpusFingerprint.prefix(12))\t\(r.gitCommit ?? "-")")
            }
            if runs.count > shown, let oldest = runs.prefix(shown).last {
                Console.line("(the \(shown) newest runs; older ones, before run \(oldest.id), are stored too: --run N reports any of them)")
            }
            return
        }
        guard let id = try runID ?? store.latestRunID(), let data = try ReportData.load(from: store, run: id) else {
            Console.error(runID.map { "no run \($0) in \(db); `linkconform report --list` shows the runs" } ?? "the database has no runs yet")
            throw Exit.harness
        }
        if let statement { return try writeStatement(statement, data) }
        let formats = format.isEmpty ? ReportWriter.Format.allCases : format.compactMap(ReportWriter.Format.init(rawValue:))
        if stdout {
            try formats[0].write(data, to: ReportOutput(handle: FileHandle.standardOutput))
        } else {
            Console.out(try TerminalSummary.render(data))
            // Badges come with the full set of reports, not with a chosen format.
            let paths = try ReportWriter.write(data, formats: formats, badges: format.isEmpty, to: out)
            Console.line("reports: " + paths.joined(separator: ", "))
        }
        if let incomplete = data.incomplete {
            Console.error(IncompleteRunReport.sentence(incomplete) + "; its reports say so, and give no verdict")
            throw Exit.harness
        }
        if !data.notStarted.isEmpty {
            for implementation in data.notStarted {
                Console.error(NotStartedReport.sentence(implementation, data) + "; its reports say so")
            }
            throw Exit.harness
        }
        if data.hasFailures(strict: strict || data.run.strict) { throw Exit.failures }
    }

    func writeStatement(_ name: String, _ data: ReportData) throws {
        let statement: ConformanceStatement
        do {
            statement = try ConformanceStatement.make(data, implementation: name)
        } catch let error as ConformanceStatement.Failure {
            Console.error("\(error.description) (\(db))")
            throw Exit.harness
        }
        let paths = try statement.write(to: out)
        Console.line(Escaping.terminal("statement of \(name) in run \(data.run.id): " + paths.joined(separator: ", ")))
        Console.line("sha256 \(statement.sha256)")
        if let used = statement.expectedFailures, !used.notListed.isEmpty {
            Console.error("\(used.path) does not list \(used.notListed.count) case(s) the run counted as listed (changed since the run, or unreadable); the statement says so")
        }
    }

    func verify(_ path: String) throws {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            Console.error("cannot read \(path)")
            throw Exit.harness
        }
        switch ConformanceStatement.verify(Array(bytes)) {
        case .verified(let digest):
            Console.line(Escaping.terminal("\(path): verified: its content hashes to the SHA-256 it carries (\(digest))"))
        case .mismatch(let recorded, let computed):
            Console.line(Escaping.terminal("\(path): NOT verified: it carries SHA-256 \(recorded), but its content hashes to \(computed); it was edited after it was made"))
            throw Exit.failures
        case .invalid(let why):
            Console.line(Escaping.terminal("\(path): NOT verified: not a LinkConform statement (\(why))"))
            throw Exit.failures
        }
    }
}
