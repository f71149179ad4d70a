import Conformance

/// The few lines a person (or a CI log) reads after a run.
public enum TerminalSummary {
    public static func render(_ data: ReportData, maxProblems: Int = 20) -> String {
        var lines: [String] = []
        let run = data.run
        lines.append("run \(run.id) \(run.status.rawValue), corpus \(run.corpusFingerprint.prefix(12)), \(data.results.count) results")
        for impl in data.implementations {
            lines.append(ImplementationTitle.plain(impl.info) + (impl.status == .ok ? "" : ": \(impl.status.rawValue)"))
            for note in impl.notes.suffix(3) { lines.append("  note: \(note)") }
            for row in data.summary where row.implementationID == impl.id {
                var parts = ["\(row.suite): \(row.total) cases"]
                for outcome in data.visibleColumns { parts.append("\(outcome.rawValue) \(row.count(outcome))") }
                let line = "  " + parts.joined(separator: "  ")
                lines.append(line + "  (null implementation would also pass \(row.nullAlsoPass) of \(row.count(.pass)))")
            }
        }
        let problems = data.problems
        if !problems.isEmpty {
            lines.append("")
            lines.append("not passed (\(problems.count)):")
            for stored in problems.prefix(maxProblems) {
                let r = stored.result
                let who = data.implementation(stored.implementationID)?.name ?? "?"
                lines.append("  \(r.outcome.rawValue)  \(who)  \(r.caseID)  [\(r.requirement) \(r.level.rawValue)]  \(r.message ?? "")")
            }
            if problems.count > maxProblems { lines.append("  ... and \(problems.count - maxProblems) more (see the reports)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
