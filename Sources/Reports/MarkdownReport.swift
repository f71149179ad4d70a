import Conformance

/// `summary.md`: the run, a summary table, per-requirement counts, and every case that did not
/// pass with expected and actual output.
public enum MarkdownReport {
    public static func render(_ data: ReportData) -> String {
        var out: [String] = []
        let run = data.run
        out.append("# LinkConform run \(run.id)")
        out.append("")
        out.append("- status: \(run.status.rawValue)")
        out.append("- started: \(run.startedAt)" + (run.finishedAt.map { ", finished: \($0)" } ?? ""))
        out.append("- corpus fingerprint (SHA-256): `\(run.corpusFingerprint)`")
        out.append("- LinkConform \(run.toolVersion)" + (run.gitCommit.map { ", commit `\($0)`" } ?? ""))
        out.append("")
        out.append("Outcomes: `pass`; `fail` = a MUST not met; `nonStrict` = a SHOULD not met; `informational` = the")
        out.append("source is silent or says MAY (recorded, not judged). \"Null\" counts the passes that an implementation")
        out.append("which does nothing (always \"not a callback\", \"refused\", \"nothing opened\") would also have earned.")
        out.append("")
        out.append("## Summary")
        out.append("")
        let columns = data.visibleColumns
        out.append("| implementation | suite | cases | " + columns.map(\.rawValue).joined(separator: " | ") + " | null also passes |")
        out.append("|---|---|---:|" + columns.map { _ in "---:|" }.joined() + "---:|")
        for row in data.summary {
            let name = data.implementation(row.implementationID).map { "\($0.name) \($0.version)" } ?? "?"
            out.append("| \(cell(name)) | \(row.suite) | \(row.total) | " + columns.map { String(row.count($0)) }.joined(separator: " | ") + " | \(row.nullAlsoPass) |")
        }
        out.append("")
        out.append("## Implementations")
        out.append("")
        for impl in data.implementations {
            let info = impl.info
            var line = "- **\(cell(info.name))**" + ImplementationTitle.details(info).map { " " + $0 }.joined()
            if !info.homepage.isEmpty { line += ", \(info.homepage)" }
            if impl.status != .ok { line += ": **\(impl.status.rawValue)**" }
            out.append(line)
            if let file = impl.expectedFailures {
                let expected = data.results.filter { $0.implementationID == impl.id && $0.result.outcome == .expectedFail }.count
                out.append("  - expected failures: \(expected), listed in `\(file)`")
            }
            for note in impl.notes.prefix(20) { out.append("  - \(inline(note))") }
            if impl.notes.count > 20 { out.append("  - ... and \(impl.notes.count - 20) more notes") }
        }

        let matrix = data.matrix
        out.append("")
        out.append("## Requirements by implementation")
        out.append("")
        out.append("Each cell: pass / fail / nonStrict / informational, then `+n` for other outcomes (skipped, errors, expected failures).")
        out.append("\"null\" is how many of the requirement's cases an implementation that does nothing would pass.")
        out.append("")
        out.append("| requirement | level | title | cases | null | " + data.implementations.map { cell($0.info.name) }.joined(separator: " | ") + " |")
        out.append("|---|---|---|---:|---:|" + data.implementations.map { _ in "---:|" }.joined())
        for row in matrix {
            let r = row.requirement
            let level = r.level.rawValue + (r.decided ? " (decided)" : "")
            let cells = data.implementations.map { impl -> String in
                guard let counts = row.cells[impl.id] else { return "" }
                func n(_ o: Outcome) -> Int { counts[o] ?? 0 }
                let other = counts.values.reduce(0, +) - n(.pass) - n(.fail) - n(.nonStrict) - n(.informational)
                return "\(n(.pass))/\(n(.fail))/\(n(.nonStrict))/\(n(.informational))" + (other > 0 ? " +\(other)" : "")
            }
            out.append("| \(r.id) | \(level) | \(cell(r.title)) | \(row.cases) | \(row.nullPasses) | " + cells.joined(separator: " | ") + " |")
        }

        let problems = data.problems
        for impl in data.implementations {
            let mine = problems.filter { $0.implementationID == impl.id }
            out.append("")
            out.append("## Not passed: \(cell(impl.info.name)) (\(mine.count))")
            if mine.isEmpty { out.append(""); out.append("None.") }
            for stored in mine.prefix(500) {
                let r = stored.result
                out.append("")
                out.append("- **\(r.outcome.rawValue)** `\(r.caseID)` (\(r.requirement) \(r.level.rawValue))" + (r.message.map { ": \(inline($0))" } ?? ""))
                out.append("  - expected: `\(inline(r.expected.serialized()))`")
                if let actual = r.actual { out.append("  - actual: `\(inline(actual.serialized()))`") }
            }
            if mine.count > 500 { out.append(""); out.append("... and \(mine.count - 500) more in results.json.") }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Text safe inside a table cell.
    static func cell(_ s: String) -> String {
        inline(s).replacingOccurrences(of: "|", with: "\\|")
    }

    /// Text on one line, without backticks that would end a code span, and bounded in length.
    static func inline(_ s: String) -> String {
        var t = s.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "`", with: "'")
        if t.count > 600 { t = String(t.prefix(597)) + "..." }
        return t
    }
}
