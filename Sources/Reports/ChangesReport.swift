import Conformance
import ResultsStore

/// Which cases got worse or better since each implementation's previous results, suite by
/// suite (``ResultsStore/comparedWithPreviousResults(_:names:strict:)``, what `run --baseline
/// previous` gates on), named case by case in summary.md and index.html: the summary's counts
/// and the history's triangles say how many, and a morning reader needs which.
enum ChangesReport {
    /// Cases listed per kind and implementation.
    static let listed = 50

    /// The run's changes; `strict` as the run was judged (its stored options).
    static func load(_ data: ReportData) throws -> PreviousResultsComparison {
        try data.store.comparedWithPreviousResults(data.run.id, names: data.implementations.map(\.info.name), strict: data.run.strict)
    }

    /// Per implementation with a change: its regressions and fixes (each list whole, in run order).
    static func moved(_ data: ReportData, _ changes: PreviousResultsComparison) -> [(name: String, worse: [CaseChange], better: [CaseChange], against: [Int64])] {
        data.implementations.compactMap { impl in
            let parts = changes.changes(of: impl.info.name)
            let worse = parts.flatMap(\.regressions), better = parts.flatMap(\.fixes)
            guard !worse.isEmpty || !better.isEmpty else { return nil }
            let against = changes.comparisons.filter { c in c.implementations.contains { $0.name == impl.info.name } }.map(\.before)
            return (impl.info.name, worse, better, against)
        }
    }

    static func line(_ change: CaseChange) -> (caseID: String, requirement: String, move: String, message: String?) {
        (change.caseID, "\(change.requirementID) \(change.level.rawValue)",
         "\(change.before?.rawValue ?? "none") -> \(change.after?.rawValue ?? "none")", change.message)
    }

    static func markdown(_ data: ReportData, to out: ReportOutput) throws {
        let changes = try load(data)
        let moved = moved(data, changes)
        try out.line()
        try out.line("## Changes since the previous results")
        try out.line()
        try out.line("Each suite of each implementation against its last earlier completed run of that suite.")
        if moved.isEmpty {
            try out.line()
            try out.line(changes.comparisons.isEmpty ? "No earlier results to compare with." : "No case got worse or better.")
        }
        for m in moved {
            try out.line()
            try out.line("### \(Escaping.markdownInline(m.name)) (against run\(m.against.count == 1 ? "" : "s") \(m.against.map(String.init).joined(separator: ", ")))")
            for (title, list) in [("worse", m.worse), ("better", m.better)] where !list.isEmpty {
                try out.line()
                try out.line("\(list.count) \(title):")
                try out.line()
                for change in list.prefix(listed) {
                    let l = line(change)
                    try out.line("- \(Escaping.markdownCode(l.caseID)) (\(Escaping.markdownInline(l.requirement))): \(l.move)"
                                 + (l.message.map { ": \(Escaping.markdownInline($0))" } ?? ""))
                }
                if list.count > listed { try out.line("- ... and \(list.count - listed) more (`linkconform compare`)") }
            }
        }
    }

    static func html(_ data: ReportData, to out: ReportOutput) throws {
        let changes = try load(data)
        let moved = moved(data, changes)
        try out.line(#"<section id="changes"><h2>Changes since the previous results</h2>"#)
        try out.line(#"<p class="lede">The cases that got worse or better, as this run was judged: each suite of each implementation against its last earlier completed run of that suite, at most \#(listed) of each kind (<code>linkconform compare</code> lists them all).</p>"#)
        if moved.isEmpty {
            try out.line(#"<p class="dim">\#(changes.comparisons.isEmpty ? "No earlier results to compare with." : "No case got worse or better.")</p>"#)
        }
        for m in moved {
            try out.line(#"<h3>\#(Escaping.html(m.name)) <small>against run\#(m.against.count == 1 ? "" : "s") \#(m.against.map(String.init).joined(separator: ", "))</small></h3>"#)
            for (title, css, list) in [("worse", "worse", m.worse), ("better", "better", m.better)] where !list.isEmpty {
                try out.line(#"<p><span class="\#(css)">\#(list.count) \#(title)</span></p><ul class="changes">"#)
                for change in list.prefix(listed) {
                    let l = line(change)
                    try out.line(#"<li><code>\#(Escaping.html(l.caseID))</code> <span class="dim">\#(Escaping.html(l.requirement))</span> \#(Escaping.html(l.move))"#
                                 + (l.message.map { ": " + Escaping.html($0) } ?? "") + "</li>")
                }
                if list.count > listed { try out.line(#"<li class="dim">... and \#(list.count - listed) more</li>"#) }
                try out.line("</ul>")
            }
        }
        try out.line("</section>")
    }
}
