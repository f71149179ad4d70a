import Conformance
import Foundation
import LinkJSON
import ResultsStore

/// `index.html`: the run as one self-contained page (inline style sheet and SVG, no script, no
/// font, image or file from anywhere else; a Content-Security-Policy that forbids them), readable
/// from disk or as a CI artifact. In order: the run's facts; a summary per implementation and
/// suite with pass rates and the change since each implementation's previous run; the history of
/// the last ``historyRuns`` runs as a chart (``TrendChart``); the requirement by implementation
/// matrix with the null implementation's column; the implementations and their notes; and, per
/// implementation, the first ``ReportData/listedProblems`` cases that did not pass, each with its
/// input, message, and expected and actual output compared member by member (``FieldDiff``).
///
/// Written as it is read, like the other reports: the counts come from the store's aggregates
/// and the cases stream from a cursor into the output, so memory does not grow with the run.
/// Every text an implementation or the store can influence goes through ``Escaping/html(_:)``
/// or ``Escaping/htmlAttribute(_:)``; a homepage becomes a link only when it is an http(s) URL.
/// The page is also well-formed XML (void elements closed, no named entities), which the tests
/// check with a strict parser.
public enum HTMLReport {
    /// Runs the history chart covers (the reported run and the completed runs before it).
    public static let historyRuns = 30
    /// Characters of one value (an input, an output member, a message) shown before it is cut;
    /// results.json has every value whole.
    static let valueLimit = 1_500

    /// The report as a string (tests, small runs); ``write(_:to:)`` streams it.
    public static func render(_ data: ReportData) throws -> String {
        try ReportOutput.string { try write(data, to: $0) }
    }

    public static func write(_ data: ReportData, to out: ReportOutput) throws {
        let history = try data.store.history(runs: historyRuns, through: data.run.id)
        let chart = TrendChart(history: history, first: data.implementations.map(\.info.name))
        let page = Page(data: data, chart: chart, history: history, out: out)
        try page.head()
        try page.masthead()
        try out.line("<main>")
        try page.summary()
        try ChangesReport.html(data, to: out)
        try page.trend()
        try page.matrix()
        try page.implementations()
        try out.line(#"<section id="problems"><h2>Not passed</h2>"#)
        try out.line(#"<p class="lede">Per implementation, every case whose outcome is a problem (not <span class="o o-pass">pass</span>, <span class="o o-informational">informational</span>, <span class="o o-skipped">skipped</span> or <span class="o o-expectedFail">expectedFail</span>), in the order they ran, at most \#(ReportData.listedProblems) each. Open a case for its input, the message and the output against the expectation, member by member.</p>"#)
        for impl in data.implementations { try page.problems(of: impl) }
        try out.line("</section>")
        try out.line("</main>")
        try page.footer()
    }

    /// One page being written: the run's data and the helpers every section shares.
    struct Page {
        let data: ReportData
        let chart: TrendChart
        let history: [HistoryPoint]
        let out: ReportOutput

        // MARK: head and facts

        func head() throws {
            let run = data.run
            try out.line("<!DOCTYPE html>")
            try out.line(#"<html lang="en">"#)
            try out.line("<head>")
            try out.line(#"<meta charset="utf-8"/>"#)
            try out.line(#"<meta name="viewport" content="width=device-width, initial-scale=1"/>"#)
            // Nothing but the inline style sheet may load or run, whatever the page holds.
            try out.line(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"/>"#)
            try out.line(#"<meta name="generator" content="LinkConform \#(Escaping.htmlAttribute(run.toolVersion))"/>"#)
            let notStarted = data.notStarted.isEmpty ? "" : ", \(data.notStarted.count) did not start"
            try out.line("<title>LinkConform run \(run.id): \(run.status.rawValue)\(notStarted)</title>")
            try out.line("<style>")
            try out.write(HTMLStyle.sheet)
            try out.line("</style>")
            try out.line("</head>")
            try out.line("<body>")
        }

        func masthead() throws {
            let run = data.run
            let problems = data.count(ReportData.problemOutcomes)
            try out.line(#"<header class="masthead"><div class="wrap">"#)
            try out.line(#"<p class="eyebrow">LinkConform conformance report</p>"#)
            let notStarted = data.notStarted.isEmpty ? ""
                : #" <span class="status st-failed">\#(data.notStarted.count) implementation\#(data.notStarted.count == 1 ? "" : "s") did not start</span>"#
            try out.line(#"<h1>Run \#(run.id) <span class="status st-\#(run.status.rawValue)">\#(run.status.rawValue)</span>\#(notStarted)</h1>"#)
            let suites = Set(data.summary.map(\.suite)).count, impls = data.implementations.count
            let verdict = problems == 0 ? "every case passed or was expected" : "\(grouped(problems)) not passed"
            try out.line(#"<p class="headline">\#(grouped(data.resultCount)) results from \#(impls) implementation\#(impls == 1 ? "" : "s") over \#(suites) suite\#(suites == 1 ? "" : "s"); \#(verdict)</p>"#)
            if let incomplete = data.incomplete {
                try out.line(#"<p class="incomplete" id="incomplete"><strong>Incomplete run:</strong> \#(Escaping.html(IncompleteRunReport.sentence(incomplete))). The counts on this page are of the results it has.</p>"#)
            }
            for implementation in data.notStarted {
                try out.line(#"<p class="incomplete not-started"><strong>Did not start:</strong> \#(Escaping.html(NotStartedReport.sentence(implementation, data))); the run gives no verdict on it.</p>"#)
            }
            try out.line(#"<dl class="facts">"#)
            try fact("Started", Escaping.html(time(run.startedAt)))
            if let finished = run.finishedAt {
                try fact("Finished", Escaping.html(time(finished)) + (duration(from: run.startedAt, to: finished).map { #" <span class="dim">(\#($0))</span>"# } ?? ""))
            } else if run.status == .interrupted {
                try fact("Finished", #"<span class="dim">not known: the process ended without saying so (killed), and the run was found interrupted later</span>"#)
            }
            if run.strict {
                try fact("Strict", #"yes (<code>--strict</code>): a SHOULD not met, <span class="o o-nonStrict">nonStrict</span>, fails the run"#)
            }
            try fact("LinkConform", Escaping.html(run.toolVersion))
            try fact("Results", grouped(data.resultCount))
            try fact("Git commit", run.gitCommit.map { "<code>\(Escaping.html($0))</code>" } ?? #"<span class="dim">not a git checkout</span>"#)
            try fact("Corpus fingerprint (SHA-256)", "<code>\(Escaping.html(run.corpusFingerprint))</code>")
            try out.line("</dl>")
            try out.line("</div></header>")
            try out.line(##"<nav class="toc"><div class="wrap"><a href="#summary">Summary</a><a href="#changes">Changes</a><a href="#history">History</a><a href="#matrix">Requirements</a><a href="#implementations">Implementations</a><a href="#problems">Not passed</a></div></nav>"##)
        }

        func fact(_ name: String, _ html: String) throws {
            try out.line("<div><dt>\(name)</dt><dd>\(html)</dd></div>")
        }

        func footer() throws {
            try out.line(#"<footer><div class="wrap">Written by LinkConform \#(Escaping.html(data.run.toolVersion)) from the results store (<code>linkconform report --run \#(data.run.id) --format html</code> writes it again). One self-contained file: no script, nothing loaded from elsewhere. Every result of the run, whole, is in <code>results.json</code>.</div></footer>"#)
            try out.line("</body>")
            try out.line("</html>")
        }

        // MARK: summary

        func summary() throws {
            let columns = data.visibleColumns
            try out.line(#"<section id="summary"><h2>Summary</h2>"#)
            try out.line(#"<p class="lede">Pass rate: passes (and unexpected passes) of the judged cases, that is all but <span class="o o-informational">informational</span>, <span class="o o-skipped">skipped</span> and <span class="o o-notRun">notRun</span> ones. "Null" counts the passes an implementation that does nothing (always "not a callback", "refused", "nothing opened") would also have earned: a score is only as good as the passes beyond it.</p>"#)
            try legend(columns)
            // Up to twelve outcome columns: the table scrolls sideways in its own box on a
            // narrow window rather than pushing the page wider than the window.
            try out.line(#"<div class="scroll"><table class="summary"><thead><tr><th>implementation</th><th>suite</th><th class="num">cases</th><th>pass rate</th>"#
                         + columns.map { #"<th class="num"><span class="o o-\#($0.rawValue)">\#($0.rawValue)</span></th>"# }.joined()
                         + #"<th class="num" title="passes a do-nothing implementation would also earn">null</th><th title="cases that got worse or better since the implementation's previous run">change</th></tr></thead>"#)
            for (index, impl) in data.implementations.enumerated() {
                let all = data.summary.filter { $0.implementationID == impl.id }
                // A suite whose every case was skipped (operations the implementation does not do)
                // takes one line for all such suites, not a row of zeros each.
                let skippedWhole = all.filter { $0.total > 0 && $0.count(.skipped) == $0.total }
                let rows = all.filter { row in !skippedWhole.contains { $0.suite == row.suite } }
                guard !all.isEmpty else { continue }
                let span = rows.count + (skippedWhole.isEmpty ? 0 : 1)
                try out.line("<tbody>")
                for (i, row) in rows.enumerated() {
                    var line = "<tr>"
                    if i == 0 {
                        line += #"<th scope="rowgroup" rowspan="\#(span)" class="impl">\#(implementationTitle(impl, colour: index))</th>"#
                    }
                    let rate = PassCount(row.counts)
                    line += #"<td class="suite">\#(Escaping.html(row.suite))</td><td class="num">\#(grouped(row.total))</td>"#
                    line += #"<td class="rate">\#(bar(row.counts, total: row.total))\#(HTMLReport.rateHTML(rate))</td>"#
                    line += columns.map { outcome in
                        let n = row.count(outcome)
                        return n == 0 ? #"<td class="num zero">0</td>"# : #"<td class="num">\#(grouped(n))</td>"#
                    }.joined()
                    line += #"<td class="num">\#(grouped(row.nullAlsoPass))</td><td class="moves">\#(moves(impl.info.name, row.suite))</td></tr>"#
                    try out.line(line)
                }
                if !skippedWhole.isEmpty {
                    let suites = skippedWhole.map { "\(Escaping.html($0.suite)) (\(grouped($0.total)))" }.joined(separator: ", ")
                    let head = rows.isEmpty ? #"<th scope="rowgroup" class="impl">\#(implementationTitle(impl, colour: index))</th>"# : ""
                    try out.line(#"<tr class="skipped-whole">\#(head)<td colspan="\#(columns.count + 5)"><span class="o o-skipped">skipped</span> every case of \#(suites): operations it does not do</td></tr>"#)
                }
                try out.line("</tbody>")
            }
            try out.line("</table></div></section>")
        }

        func legend(_ columns: [Outcome]) throws {
            try out.line(#"<ul class="legend">"# + columns.map { #"<li><span class="o o-\#($0.rawValue)">\#($0.rawValue)</span> \#(HTMLReport.meaning($0))</li>"# }.joined() + "</ul>")
        }

        /// The outcomes of one row as a bar of proportional segments.
        func bar(_ counts: [Outcome: Int], total: Int) -> String {
            guard total > 0 else { return "" }
            let segments = ReportData.columns.compactMap { outcome -> String? in
                guard let n = counts[outcome], n > 0 else { return nil }
                let share = Double(n) * 100 / Double(total)
                return #"<span class="seg o-\#(outcome.rawValue)" style="width:\#(String(format: "%.2f", share))%" title="\#(outcome.rawValue) \#(n)"></span>"#
            }
            return #"<span class="bar">\#(segments.joined())</span>"#
        }

        /// Regressions and fixes of an implementation and suite against its previous result in
        /// that suite (the reported run's point; the previous may be older than the chart's runs).
        func moves(_ implementation: String, _ suite: String) -> String {
            let points = history.filter { $0.implementation == implementation && $0.suite == suite }
            guard let last = points.last, last.runID == data.run.id else { return "" }
            guard last.previousRun != nil else { return #"<span class="dim">first run</span>"# }
            if last.regressions == 0 && last.fixes == 0 { return #"<span class="dim">no change</span>"# }
            var parts: [String] = []
            if last.regressions > 0 { parts.append(#"<span class="worse">▼ \#(last.regressions) worse</span>"#) }
            if last.fixes > 0 { parts.append(#"<span class="better">▲ \#(last.fixes) better</span>"#) }
            return parts.joined(separator: " ")
        }

        // MARK: history

        func trend() throws {
            try out.line(#"<section id="history"><h2>History</h2>"#)
            let runs = chart.runs
            let span: String
            if let first = runs.first, let last = runs.last, runs.count > 1 {
                span = "The last \(runs.count) runs: run \(first.id) to run \(last.id) (completed runs, and this one whatever its status)."
            } else {
                // No point at all: this run has no result (killed before its first case) and no
                // completed run before it has one.
                span = runs.isEmpty ? "No run in the store has a result yet: each run that has one adds a point."
                    : "Only this run is in the store so far: each later run adds a point."
            }
            try out.line(#"<p class="lede">Pass rate per implementation and suite. \#(span) A red triangle under a point counts the cases that got worse since the implementation's previous results in that suite (a pass, or an expected failure, that is now a failure, an error, a skip or not run, or, in a run made with <code>--strict</code>, a SHOULD not met), a green one above it those that got better. Hover a point for its numbers.</p>"#)
            guard !chart.panels.isEmpty else {
                try out.line(#"<p class="dim">No implementation judged any case in these runs.</p></section>"#)
                return
            }
            try out.line(#"<ul class="series">"# + chart.implementations.enumerated().map { i, name in
                #"<li><span class="swatch s\#(i % TrendChart.colours)"></span>\#(Escaping.html(name))</li>"#
            }.joined() + #"<li><svg class="key" viewBox="0 0 12 12"><path class="regression" d="M1 2 L11 2 L6 11 Z"/></svg>worse</li><li><svg class="key" viewBox="0 0 12 12"><path class="fix" d="M1 10 L11 10 L6 1 Z"/></svg>better</li></ul>"#)
            try out.line(#"<div class="charts">"#)
            for panel in chart.panels {
                try out.line(#"<figure><figcaption>\#(Escaping.html(panel.suite))</figcaption>\#(chart.svg(panel))</figure>"#)
            }
            try out.line("</div></section>")
        }

        // MARK: matrix

        func matrix() throws {
            let impls = data.implementations
            try out.line(#"<section id="matrix"><h2>Requirements by implementation</h2>"#)
            try out.line(#"<p class="lede">Each cell: passes of the judged cases, then what else happened. Its colour is its worst outcome: <span class="o o-fail">a MUST failed</span>, <span class="o o-errored">the implementation broke</span>, <span class="o o-nonStrict">a SHOULD not met</span>, <span class="o o-expectedFail">only expected failures</span>, <span class="o o-pass">all passed</span>, <span class="o o-informational">recorded, not judged</span>, <span class="o o-skipped">skipped</span>. "Null" is how many of the requirement's cases an implementation that does nothing would pass; when it passes all of them, the requirement's cases cannot tell doing it from doing nothing.</p>"#)
            try out.line(#"<table class="matrix"><thead><tr><th>requirement</th><th>level</th><th>title</th><th class="num">cases</th><th class="num">null</th>"#
                         + impls.enumerated().map { i, impl in
                             #"<th class="implcol"><span class="swatch s\#(i % TrendChart.colours)"></span>\#(Escaping.html(impl.info.name))"#
                                 + (impl.info.version.isEmpty ? "" : #"<small>\#(Escaping.html(impl.info.version))</small>"#) + "</th>"
                         }.joined() + "</tr></thead>")
            var suite: String?
            for row in data.matrix {
                let r = row.requirement
                if r.suite != suite {
                    if suite != nil { try out.line("</tbody>") }
                    suite = r.suite
                    let count = data.matrix.count { $0.requirement.suite == r.suite }
                    try out.line(#"<tbody><tr class="suiterow"><th colspan="\#(5 + impls.count)">\#(Escaping.html(r.suite)) <small>\#(count) requirement\#(count == 1 ? "" : "s") judged</small></th></tr>"#)
                }
                var line = #"<tr><th scope="row" class="rid">\#(Escaping.html(r.id))</th>"#
                line += #"<td><span class="lv lv-\#(r.level.rawValue.lowercased())">\#(r.level.rawValue)</span>\#(r.decided ? #"<span class="decided" title="a LinkConform decision where the source is silent">decided</span>"# : "")</td>"#
                line += #"<td class="rtitle">\#(Escaping.html(r.title))</td><td class="num">\#(row.cases)</td>"#
                let allNull = row.cases > 0 && row.nullPasses == row.cases
                line += #"<td class="num null\#(allNull ? " all" : "")"\#(allNull ? #" title="a do-nothing implementation passes every case""# : "")>\#(row.nullPasses)</td>"#
                line += impls.map { cell(row.cells[$0.id], implementation: $0.id) }.joined()
                try out.line(line + "</tr>")
            }
            if suite != nil { try out.line("</tbody>") }
            try out.line("</table></section>")
        }

        /// One implementation's outcomes for one requirement.
        func cell(_ counts: [Outcome: Int]?, implementation: Int64) -> String {
            guard let counts, !counts.isEmpty else { return #"<td class="cell empty"></td>"# }
            let rate = PassCount(counts)
            let worst = HTMLReport.worst(counts)
            let title = ReportData.columns.compactMap { o in counts[o].map { "\(o.rawValue) \($0)" } }.joined(separator: ", ")
            let main = rate.judged > 0 ? "\(rate.passed)/\(rate.judged)"
                : counts.keys.contains(.informational) ? "info" : counts.keys.contains(.skipped) ? "skipped" : "not run"
            let others = ReportData.columns.filter { ![.pass, .unexpectedPass].contains($0) && (counts[$0] ?? 0) > 0 && !(rate.judged == 0 && $0 == worst) }
                .map { "\(counts[$0]!) \(HTMLReport.short($0))" }
            let detail = others.isEmpty ? "" : #"<small>\#(others.joined(separator: " · "))</small>"#
            let problems = counts.contains { ReportData.problemOutcomes.contains($0.key) && $0.value > 0 }
            let body = problems ? ##"<a href="#problems-\##(implementation)">\##(main)</a>"## : main
            return #"<td class="cell w-\#(worst.rawValue)" title="\#(title)">\#(body)\#(detail)</td>"#
        }

        // MARK: implementations

        func implementations() throws {
            try out.line(#"<section id="implementations"><h2>Implementations</h2><div class="cards">"#)
            for (index, impl) in data.implementations.enumerated() {
                let info = impl.info
                try out.line(#"<article class="card"><h3>\#(implementationTitle(impl, colour: index))</h3><dl>"#)
                if !info.language.isEmpty { try out.line("<dt>language</dt><dd>\(Escaping.html(info.language))</dd>") }
                if !info.homepage.isEmpty { try out.line("<dt>homepage</dt><dd>\(HTMLReport.homepage(info.homepage))</dd>") }
                try out.line(#"<dt>status</dt><dd><span class="status st-\#(impl.status == .ok ? "completed" : "failed")">\#(impl.status.rawValue)</span></dd>"#)
                if let file = impl.expectedFailures {
                    try out.line("<dt>expected failures</dt><dd>\(grouped(data.count([.expectedFail], implementation: impl.id))), listed in <code>\(Escaping.html(file))</code></dd>")
                }
                try out.line("</dl>")
                if !impl.notes.isEmpty {
                    try out.line(#"<details class="notes"\#(impl.notes.count <= 3 ? #" open="open""# : "")><summary>\#(impl.notes.count) note\#(impl.notes.count == 1 ? "" : "s") (restarts, what the adapter said)</summary>"#)
                    for note in impl.notes { try out.line(#"<pre class="note">\#(Escaping.html(clip(note)))</pre>"#) }
                    try out.line("</details>")
                }
                try out.line("</article>")
            }
            try out.line("</div></section>")
        }

        /// The swatch, the name, and the version and language in small type.
        func implementationTitle(_ impl: StoredImplementation, colour: Int) -> String {
            let details = ImplementationTitle.details(impl.info, Escaping.html)
            return #"<span class="swatch s\#(colour % TrendChart.colours)"></span><span class="name">\#(Escaping.html(impl.info.name))</span>"#
                + (details.isEmpty ? "" : #" <small>\#(details.joined(separator: " "))</small>"#)
        }

        // MARK: problems

        func problems(of impl: StoredImplementation) throws {
            let count = data.count(ReportData.problemOutcomes, implementation: impl.id)
            let index = data.implementations.firstIndex(of: impl) ?? 0
            try out.line(#"<section class="impl-problems" id="problems-\#(impl.id)"><h3>\#(implementationTitle(impl, colour: index)) <span class="count">\#(grouped(count)) not passed</span></h3>"#)
            let byOutcome = ReportData.columns.compactMap { o -> String? in
                let n = data.count([o], implementation: impl.id)
                return n == 0 || !ReportData.problemOutcomes.contains(o) ? nil : #"<span class="o o-\#(o.rawValue)">\#(o.rawValue) \#(grouped(n))</span>"#
            }
            if !byOutcome.isEmpty { try out.line(#"<p class="chips">\#(byOutcome.joined(separator: " "))</p>"#) }
            let expected = data.count([.expectedFail], implementation: impl.id)
            if expected > 0 {
                try out.line(#"<p class="dim">\#(grouped(expected)) expected failure\#(expected == 1 ? "" : "s") (listed in the implementation's expected-failures file) are not shown.</p>"#)
            }
            if count == 0 { try out.line(#"<p class="none">None.</p>"#) }
            var shown = 0
            try data.forEachProblem(implementation: impl.id, limit: ReportData.listedProblems, withCases: true) { stored in
                shown += 1
                try problem(stored)
            }
            if count > shown {
                try out.line(#"<p class="more">… and \#(grouped(count - shown)) more not shown (a report lists the first \#(ReportData.listedProblems) per implementation); <code>results.json</code> has every result.</p>"#)
            }
            try out.line("</section>")
        }

        func problem(_ stored: StoredResult) throws {
            let r = stored.result
            let o = r.outcome.rawValue
            var summary = #"<span class="o o-\#(o)">\#(o)</span><code class="cid">\#(Escaping.html(r.caseID))</code><span class="req">\#(Escaping.html(r.requirement)) <span class="lv lv-\#(r.level.rawValue.lowercased())">\#(r.level.rawValue)</span></span>"#
            if let message = r.message { summary += #"<span class="msg">\#(Escaping.html(shortLine(message)))</span>"# }
            try out.line(#"<details class="case"><summary>\#(summary)</summary><div class="case-body">"#)
            if let c = stored.corpusCase {
                try out.line(#"<p class="ctitle">\#(Escaping.html(c.title)) <span class="where">\#(Escaping.html(r.operation)) · \#(Escaping.html(c.file)):\#(c.line)</span></p>"#)
            } else {
                try out.line(#"<p class="ctitle"><span class="where">\#(Escaping.html(r.operation))</span></p>"#)
            }
            if let text = data.requirementText(r) {
                try out.line(#"<h4>Requirement</h4><p class="rtext"><strong>\#(Escaping.html(r.requirement)) \#(r.level.rawValue)</strong> \#(Escaping.html(text.statement)) <span class="where">\#(Escaping.html(text.document)), \#(Escaping.html(text.section))</span></p>"#)
                if let rationale = text.rationale {
                    try out.line(#"<p class="rtext dim">Decided by LinkConform (the source is silent): \#(Escaping.html(rationale))</p>"#)
                }
            }
            if let message = r.message { try out.line(#"<h4>Message</h4><pre class="message">\#(Escaping.html(clip(message)))</pre>"#) }
            try out.line("<h4>Input</h4>")
            if let c = stored.corpusCase {
                try out.line(#"<pre class="json">\#(Escaping.html(clip(readable(c.input))))</pre>"#)
            } else {
                try out.line(#"<p class="dim">Not in the store (the run was stored before case inputs were kept, or without its corpus).</p>"#)
            }
            try out.line("<h4>Expected and actual output</h4>")
            if r.actual == nil { try out.line(#"<p class="dim">No output: the implementation answered \#(o).</p>"#) }
            try out.line(#"<table class="diff"><thead><tr><th>member</th><th>expected</th><th>actual</th><th></th></tr></thead><tbody>"#)
            for row in FieldDiff.rows(expected: r.expected, actual: r.actual) { try out.line(diffRow(row)) }
            try out.line("</tbody></table></div></details>")
        }

        func diffRow(_ row: FieldDiff.Row) -> String {
            let field = row.field.map { "<code>\(Escaping.html($0))</code>" } ?? #"<span class="dim">(whole output)</span>"#
            var expected = row.expected.map { Escaping.html(clip($0.serialized())) } ?? ""
            var actual = row.actual.map { Escaping.html(clip($0.serialized())) } ?? #"<span class="dim">absent</span>"#
            if row.expected?.isNull == true { expected = #"<span class="dim">absent (must be)</span>"# }
            if row.expected == nil { expected = #"<span class="dim">—</span>"# }
            if row.status == .differs, let e = row.expected, let a = row.actual, !e.isNull {
                let (x, y) = (e.serialized(), a.serialized())
                let ends = FieldDiff.commonEnds(x, y)
                expected = marked(x, ends)
                actual = marked(y, ends)
            }
            let label: String = switch row.status {
            case .same: "same"
            case .differs: "differs"
            case .reordered: "same items, other order"
            case .missing: "not in the output"
            case .unchecked: "not checked"
            }
            return #"<tr class="d-\#(row.status.rawValue)"><th scope="row">\#(field)</th><td>\#(expected)</td><td>\#(actual)</td><td class="dstatus">\#(label)</td></tr>"#
        }

        /// `text` with the part between its common beginning and end `<mark>`ed, cut around that part.
        func marked(_ text: String, _ ends: (prefix: Int, suffix: Int)) -> String {
            let scalars = Array(text.unicodeScalars)
            let start = ends.prefix, end = scalars.count - ends.suffix
            // Some context before the difference, and at most valueLimit characters in all.
            let from = max(0, start - 80)
            let to = min(scalars.count, max(end + 80, from + HTMLReport.valueLimit))
            func piece(_ a: Int, _ b: Int) -> String {
                a < b ? Escaping.html(String(String.UnicodeScalarView(scalars[a..<b]))) : ""
            }
            let markEnd = min(end, to)
            return (from > 0 ? "…" : "") + piece(from, start) + "<mark>" + piece(start, markEnd) + "</mark>" + piece(markEnd, to)
                + (to < scalars.count ? #"… <span class="dim">(\#(grouped(scalars.count)) characters in all)</span>"# : "")
        }
    }

    // MARK: shared pieces

    /// What an outcome means, for the legend.
    static func meaning(_ outcome: Outcome) -> String {
        switch outcome {
        case .pass: "the output shows what the requirement asks"
        case .fail: "a MUST not met"
        case .nonStrict: "a SHOULD not met"
        case .informational: "MAY or the source is silent: recorded, not judged"
        case .skipped: "the implementation does not do the operation"
        case .errored: "answered with an error"
        case .crashed: "died on the case"
        case .timedOut: "no answer in time"
        case .protocolError: "an answer the adapter protocol does not allow"
        case .notRun: "never reached the implementation"
        case .expectedFail: "a failure its expected-failures file lists"
        case .unexpectedPass: "listed as failing, but passes"
        }
    }

    /// A cell's few letters for an outcome.
    static func short(_ outcome: Outcome) -> String {
        switch outcome {
        case .nonStrict: "SHOULD"
        case .informational: "info"
        case .expectedFail: "xfail"
        case .protocolError: "protocol"
        case .unexpectedPass: "xpass"
        default: outcome.rawValue
        }
    }

    /// The outcome that colours a cell: the most serious one present.
    static func worst(_ counts: [Outcome: Int]) -> Outcome {
        let order: [Outcome] = [.fail, .crashed, .errored, .timedOut, .protocolError, .unexpectedPass, .nonStrict, .expectedFail,
                                .pass, .informational, .skipped, .notRun]
        return order.first { (counts[$0] ?? 0) > 0 } ?? .notRun
    }

    /// A homepage as a link when it is a plain http(s) URL; otherwise as text.
    static func homepage(_ text: String) -> String {
        let lower = text.lowercased()
        let plain = !text.unicodeScalars.contains { Escaping.isHidden($0) || $0.properties.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" }
        guard plain, lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return Escaping.html(text) }
        return #"<a href="\#(Escaping.htmlAttribute(text))" rel="noopener noreferrer nofollow">\#(Escaping.html(text))</a>"#
    }
}

extension HTMLReport {
    /// A pass rate as the summary shows it: the percentage, then passes of judged cases.
    static func rateHTML(_ count: PassCount) -> String {
        guard let percent = count.percentText else { return #"<span class="pct dim">nothing judged</span>"# }
        return #"<span class="pct">\#(percent)</span> <span class="dim">\#(grouped(count.passed)) of \#(grouped(count.judged))</span>"#
    }

    /// A count with thousands separators (`7,644`), the same on every machine.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// `text` cut to `limit` characters, saying how long it was.
    static func clip(_ text: String, _ limit: Int = HTMLReport.valueLimit) -> String {
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end != text.endIndex else { return text }
        return String(text[..<end]) + "… (\(grouped(text.count)) characters in all; results.json has the whole value)"
    }

    /// A message on one line and at most 200 characters, for a case's summary line.
    static func shortLine(_ text: String) -> String {
        let line = String(text.prefix(201).map { $0.isNewline ? " " : $0 })
        return line.count > 200 ? line.prefix(199) + "…" : line
    }

    /// A stored input as indented JSON when it is whole JSON; as stored otherwise (a cut input).
    static func readable(_ json: String) -> String {
        guard let value = try? JSONParser.parse(json) else { return json }
        return value.serialized(pretty: true)
    }

    /// A stored timestamp (`2026-11-24T19:40:41Z`) as people read it (`2026-11-24 19:40:41 UTC`);
    /// any other text as it is.
    static func time(_ stamp: String) -> String {
        guard stamp.count == 20, stamp.hasSuffix("Z"), stamp.dropFirst(10).first == "T" else { return stamp }
        return stamp.prefix(10) + " " + stamp.dropFirst(11).dropLast() + " UTC"
    }

    /// "20 s", "3 min 5 s", between two ISO 8601 timestamps.
    static func duration(from start: String, to end: String) -> String? {
        guard let a = try? Date(start, strategy: .iso8601), let b = try? Date(end, strategy: .iso8601) else { return nil }
        let seconds = Int(b.timeIntervalSince(a).rounded())
        guard seconds >= 0 else { return nil }
        return seconds < 60 ? "\(seconds) s" : seconds < 3600 ? "\(seconds / 60) min \(seconds % 60) s" : "\(seconds / 3600) h \(seconds / 60 % 60) min"
    }
}
