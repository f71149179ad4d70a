import Conformance

/// The few lines a person (or a CI log) reads after a run. Each line goes through
/// ``Escaping/terminalLines(_:)``: a name, note or message that carries a line break, an
/// escape sequence or a bidi control is shown escaped, on its own line. Names, notes and messages
/// are cut (``nameLimit``, ``messageLimit``): an adapter's name of 300 KB repeated on each line
/// once made 7 MB of terminal output; the reports keep them whole.
public enum TerminalSummary {
    static let nameLimit = 80
    static let messageLimit = 600

    public static func render(_ data: ReportData, maxProblems: Int = 20) throws -> String {
        var lines: [String] = []
        let run = data.run
        lines.append("run \(run.id) \(run.status.rawValue), corpus \(run.corpusFingerprint.prefix(12)), \(data.resultCount) results")
        if let incomplete = data.incomplete { lines.append(IncompleteRunReport.sentence(incomplete)) }
        for impl in data.implementations {
            lines.append(Escaping.clipped(ImplementationTitle.plain(impl.info), to: 2 * nameLimit) + (impl.status == .ok ? "" : ": \(impl.status.rawValue)"))
            for note in impl.notes.suffix(3) { lines.append("  note: \(Escaping.clipped(note, to: messageLimit))") }
            for row in data.summary where row.implementationID == impl.id {
                var parts = ["\(row.suite): \(row.total) cases"]
                for outcome in data.visibleColumns { parts.append("\(outcome.rawValue) \(row.count(outcome))") }
                let line = "  " + parts.joined(separator: "  ")
                lines.append(line + "  (null implementation would also pass \(row.nullAlsoPass) of \(row.count(.pass)))")
            }
        }
        let problems = data.count(ReportData.problemOutcomes)
        if problems > 0 {
            lines.append("")
            lines.append("not passed (\(problems)):")
            // What fails the run first (a CI log is read for it), then the rest, each in the
            // order the cases ran.
            let failing = Set(Outcome.allCases.filter { $0.isFailure(strict: run.strict) })
            var listed = 0
            for outcomes in [failing, Set(Outcome.allCases).subtracting(failing)] where listed < maxProblems {
                try data.forEachProblem(limit: maxProblems - listed, only: outcomes) { stored in
                    let r = stored.result
                    let who = Escaping.clipped(data.implementation(stored.implementationID)?.name ?? "?", to: nameLimit)
                    lines.append("  \(r.outcome.rawValue)  \(who)  \(r.caseID)  [\(r.requirement) \(r.level.rawValue)]  \(Escaping.clipped(r.message ?? "", to: messageLimit))")
                    listed += 1
                }
            }
            if problems > maxProblems { lines.append("  ... and \(problems - maxProblems) more (see the reports)") }
        }
        return Escaping.terminalLines(lines) + "\n"
    }
}
