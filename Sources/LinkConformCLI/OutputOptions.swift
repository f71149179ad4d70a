import ArgumentParser
import ResultsStore

/// Where `run` and `fuzz` store what they find and write their reports, and whether they show
/// progress.
struct OutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The results database (SQLite).", valueName: "path"))
    var db = "Reports/results.sqlite"

    @Option(help: ArgumentHelp("Folder for the reports (run: summary.md, results.json, junit.xml, index.html, badges/; fuzz: fuzz-<implementation>.md).",
                               valueName: "dir"))
    var reports = "Reports"

    @Flag(help: "Do not write report files (what was found is still stored).")
    var noReports = false

    @Flag(help: "No progress indicator.")
    var noProgress = false

    /// Opens the store; a store that cannot be opened is the harness's failure (its
    /// `StoreError`: exit 2, `LinkConformCommand.main`).
    func openStore() throws -> ResultsStore {
        try ResultsStore(path: db)
    }
}
