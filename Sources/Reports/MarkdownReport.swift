import Conformance
import ResultsStore

/// `summary.md`: the run, a summary table, per-requirement counts, and every case that did not
/// pass (up to 500 per implementation) with expected and actual output. Written line by line
/// as results are read from the store; every text from outside goes through ``Escaping``.
public enum MarkdownReport {
    /// The report as a string (tests, small runs); ``write(_:to:)`` streams it.
    public static func render(_ data: ReportData) throws -> String {
        try ReportOutput.string { try write(data, to: $0) }
    }

    public static func write(_ data: ReportData, to out: ReportOutput) throws {
        let run = data.run
        try out.line("# LinkConform run \(run.id)")
        try out.line()
        if let incomplete = data.incomplete {
            try out.line("**Incomplete run:** \(Escaping.markdownInline(IncompleteRunReport.sentence(incomplete))). The counts below are of the results it has.")
            try out.line()
        }
        for implementation in data.notStarted {
            try out.line("**Did not start:** \(Escaping.markdownInline(NotStartedReport.sentence(implementation, data))); the run gives no verdict on it.")
            try out.line()
        }
        let notStarted = data.notStarted.count
        try out.line("- status: \(run.status.rawValue)" + (notStarted == 0 ? "" : ", but \(notStarted) implementation\(notStarted == 1 ? "" : "s") did not start"))
        if run.strict { try out.line("- strict (`--strict`): a SHOULD not met (`nonStrict`) fails the run") }
        try out.line("- started: \(run.startedAt)" + (run.finishedAt.map { ", finished: \($0)" }
            ?? (run.status == .interrupted ? ", finished: not known (killed; found interrupted later)" : "")))
        try out.line("- corpus fingerprint (SHA-256): \(Escaping.markdownCode(run.corpusFingerprint))")
        try out.line("- LinkConform \(Escaping.markdownInline(run.toolVersion))" + (run.gitCommit.map { ", commit \(Escaping.markdownCode($0))" } ?? ""))
        try out.line()
        try out.line("Outcomes: `pass`; `fail` = a MUST not met; `nonStrict` = a SHOULD not met; `informational` = the")
        try out.line("source is silent or says MAY (recorded, not judged). \"Null\" counts the passes that an implementation")
        try out.line("which does nothing (always \"not a callback\", \"refused\", \"nothing opened\") would also have earned.")
        try out.line()
        try summary(data, to: out)
        try ChangesReport.markdown(data, to: out)
        try implementations(data, to: out)
        try matrix(data, to: out)
        for impl in data.implementations { try problems(of: impl, data, to: out) }
    }

    static func summary(_ data: ReportData, to out: ReportOutput) throws {
        try out.line("## Summary")
        try out.line()
        let columns = data.visibleColumns
        try out.line("| implementation | suite | cases | " + columns.map(\.rawValue).joined(separator: " | ") + " | null also passes |")
        try out.line("|---|---|---:|" + columns.map { _ in "---:|" }.joined() + "---:|")
        for row in data.summary {
            let name = data.implementation(row.implementationID).map { "\($0.name) \($0.version)" } ?? "?"
            try out.line("| \(Escaping.markdownCell(name)) | \(Escaping.markdownCell(row.suite)) | \(row.total) | "
                         + columns.map { String(row.count($0)) }.joined(separator: " | ") + " | \(row.nullAlsoPass) |")
        }
    }

    static func implementations(_ data: ReportData, to out: ReportOutput) throws {
        try out.line()
        try out.line("## Implementations")
        try out.line()
        for impl in data.implementations {
            let info = impl.info
            var line = "- **\(Escaping.markdownCell(info.name))**" + ImplementationTitle.details(info, { Escaping.markdownInline($0) }).map { " " + $0 }.joined()
            if !info.homepage.isEmpty { line += ", \(Escaping.markdownInline(info.homepage))" }
            if impl.status != .ok { line += ": **\(impl.status.rawValue)**" }
            try out.line(line)
            if let file = impl.expectedFailures {
                try out.line("  - expected failures: \(data.count([.expectedFail], implementation: impl.id)), listed in \(Escaping.markdownCode(file))")
            }
            for note in impl.notes.prefix(20) { try out.line("  - \(Escaping.markdownInline(note, opensBlock: true))") }
            if impl.notes.count > 20 { try out.line("  - ... and \(impl.notes.count - 20) more notes") }
        }
    }

    static func matrix(_ data: ReportData, to out: ReportOutput) throws {
        try out.line()
        try out.line("## Requirements by implementation")
        try out.line()
        try out.line("Each cell: pass / fail / nonStrict / informational, then `+n` for other outcomes (skipped, errors, expected failures).")
        try out.line("\"null\" is how many of the requirement's cases an implementation that does nothing would pass.")
        try out.line()
        try out.line("| requirement | level | title | cases | null | " + data.implementations.map { Escaping.markdownCell($0.info.name) }.joined(separator: " | ") + " |")
        try out.line("|---|---|---|---:|---:|" + data.implementations.map { _ in "---:|" }.joined())
        for row in data.matrix {
            let r = row.requirement
            let level = r.level.rawValue + (r.decided ? " (decided)" : "")
            let cells = data.implementations.map { impl -> String in
                guard let counts = row.cells[impl.id] else { return "" }
                func n(_ o: Outcome) -> Int { counts[o] ?? 0 }
                let other = counts.values.reduce(0, +) - n(.pass) - n(.fail) - n(.nonStrict) - n(.informational)
                return "\(n(.pass))/\(n(.fail))/\(n(.nonStrict))/\(n(.informational))" + (other > 0 ? " +\(other)" : "")
            }
            try out.line("| \(Escaping.markdownCell(r.id)) | \(level) | \(Escaping.markdownCell(r.title)) | \(row.cases) | \(row.nullPasses) | "
                         + cells.joined(separator: " | ") + " |")
        }
    }

    /// The most of a case's input shown (the HTML report shows up to the 4 KiB the store keeps).
    static let inputLimit = 500

    static func problems(of impl: StoredImplementation, _ data: ReportData, to out: ReportOutput) throws {
        let count = data.count(ReportData.problemOutcomes, implementation: impl.id)
        try out.line()
        try out.line("## Not passed: \(Escaping.markdownCell(impl.info.name)) (\(count))")
        if count == 0 { try out.line(); try out.line("None.") }
        try data.forEachProblem(implementation: impl.id, limit: ReportData.listedProblems, withCases: true) { stored in
            let r = stored.result
            try out.line()
            try out.line("- **\(r.outcome.rawValue)** \(Escaping.markdownCode(r.caseID)) (\(Escaping.markdownInline(r.requirement)) \(r.level.rawValue))"
                         + (r.message.map { ": \(Escaping.markdownInline($0))" } ?? ""))
            if let text = data.requirementText(r) { try out.line("  - requirement: \(Escaping.markdownInline(ReportData.plain(text)))") }
            if let c = stored.corpusCase {
                try out.line("  - input (\(Escaping.markdownInline(c.file)):\(c.line)): \(Escaping.markdownJSON(Escaping.clipped(c.input, to: inputLimit)))")
            }
            try out.line("  - expected: \(Escaping.markdownJSON(r.expected.serialized()))")
            if let actual = r.actual { try out.line("  - actual: \(Escaping.markdownJSON(actual.serialized()))") }
        }
        if count > ReportData.listedProblems { try out.line(); try out.line("... and \(count - ReportData.listedProblems) more in results.json.") }
    }
}
