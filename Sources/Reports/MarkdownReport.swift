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
        for impl in data.implementations {
            out.append("")
            out.append("## Requirements: \(cell(impl.info.name))")
            out.append("")
            out.append("| requirement | level | title | cases | pass | fail | nonStrict | informational | other |")
            out.append("|---|---|---|---:|---:|---:|---:|---:|---:|")
            let mine = data.results.filter { $0.implementationID == impl.id }.map(\.result)
            for requirement in data.requirements {
                let rs = mine.filter { $0.suite == requirement.suite && $0.requirement == requirement.id }
                guard !rs.isEmpty else { continue }
                func n(_ o: Outcome) -> Int { rs.filter { $0.outcome == o }.count }
                let other = rs.count - n(.pass) - n(.fail) - n(.nonStrict) - n(.informational)
                let level = requirement.level.rawValue + (requirement.decided ? " (decided)" : "")
                out.append("| \(requirement.id) | \(level) | \(cell(requirement.title)) | \(rs.count) | \(n(.pass)) | \(n(.fail)) | \(n(.nonStrict)) | \(n(.informational)) | \(other) |")
            }
        }
        let problems = data.problems
        out.append("")
        out.append("## Cases that did not pass (\(problems.count))")
        if problems.isEmpty { out.append(""); out.append("None.") }
        for stored in problems {
            let r = stored.result
            let who = data.implementation(stored.implementationID)?.name ?? "?"
            out.append("")
            out.append("- **\(r.outcome.rawValue)** `\(r.caseID)` (\(who); \(r.requirement) \(r.level.rawValue))" + (r.message.map { ": \(inline($0))" } ?? ""))
            out.append("  - expected: `\(inline(r.expected.serialized()))`")
            if let actual = r.actual { out.append("  - actual: `\(inline(actual.serialized()))`") }
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
