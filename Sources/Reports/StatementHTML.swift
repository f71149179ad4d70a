import Conformance

/// The one-page HTML form of a ``ConformanceStatement``: self-contained (inline CSS, no script,
/// no image, no link to anything; a Content-Security-Policy that allows nothing else), so it
/// reads the same opened from disk, from a CI artifact or attached to a mail.
///
/// Every text that came from the run (the implementation's name, version, language, homepage,
/// case ids, messages, the expected-failures lines and path) goes through
/// ``Escaping/html(_:)`` or ``Escaping/htmlAttribute(_:)``: a hostile adapter cannot add markup.
/// The homepage is shown as text, never as a link (a `javascript:` URL would run when clicked).
public enum StatementHTML {
    public static func render(_ statement: ConformanceStatement) -> String {
        var page = Page()
        let info = statement.implementation.info
        let title = ImplementationTitle.plain(info)
        page.add("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="linkconform-statement-sha256" content="\(Escaping.htmlAttribute(statement.sha256))">
            <title>Conformance statement: \(Escaping.html(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            <main>
            <header>
            <p class="kicker">LinkConform conformance statement</p>
            <h1>\(Escaping.html(info.name))\(info.version.isEmpty ? "" : " <span class=\"version\">\(Escaping.html(info.version))</span>")</h1>
            """)
        verdict(statement, into: &page)
        page.add("</header>")
        facts(statement, into: &page)
        suites(statement, into: &page)
        failures(statement, into: &page)
        expectedFailures(statement, into: &page)
        let file = ConformanceStatement.fileStem(for: info.name) + ".json"
        page.add("""
            <section class="digest">
            <h2>Digest</h2>
            <p>SHA-256 of the statement's canonical JSON (the JSON file without its <code>sha256</code> member, keys sorted, \
            no whitespace):</p>
            <p><code class="hash">\(Escaping.html(statement.sha256))</code></p>
            <p>Check that the JSON file was not edited: <code>linkconform report --verify-statement \(Escaping.html(file))</code>. \
            The digest covers the JSON file; this page shows the same content.</p>
            </section>
            </main>
            </body>
            </html>
            """)
        return page.text
    }

    /// The one sentence a reader looks for first.
    static func verdict(_ s: ConformanceStatement, into page: inout Page) {
        let requirements = s.suites.reduce(0) { $0 + $1.must.requirements }
        let notMet = s.suites.reduce(0) { $0 + $1.must.requirementsNotMet }
        let unverified = s.suites.reduce(0) { $0 + $1.must.requirementsUnverified }
        let suites = s.suites.count == 1 ? "1 suite" : "\(s.suites.count) suites"
        let unverifiedText = "\(unverified) could not be verified (their cases were skipped, not run or answered with an error)"
        if requirements == 0 {
            page.add(#"<p class="verdict warn">No MUST requirement was judged in this run.</p>"#)
        } else if notMet > 0 {
            page.add(#"<p class="verdict bad">\#(notMet) of \#(requirements) MUST requirements in \#(suites) are not met"#
                     + (unverified > 0 ? "; \(unverifiedText)" : "") + ".</p>")
        } else if unverified > 0 {
            page.add(#"<p class="verdict warn">No MUST requirement failed; of \#(requirements) in \#(suites), \#(unverifiedText).</p>"#)
        } else {
            page.add(#"<p class="verdict ok">Every MUST requirement is met: \#(requirements) requirements in \#(suites).</p>"#)
        }
        if s.run.status != .completed {
            page.add(#"<p class="verdict warn">The run did not complete: it is \#(Escaping.html(s.run.status.rawValue)).</p>"#)
        }
        if s.implementation.status != .ok {
            page.add(#"<p class="verdict warn">The implementation's part of the run ended: \#(Escaping.html(s.implementation.status.rawValue)).</p>"#)
        }
    }

    static func facts(_ s: ConformanceStatement, into page: inout Page) {
        let info = s.implementation.info
        func row(_ label: String, _ value: String?, code: Bool = false) -> String {
            let shown = value.map { $0.isEmpty ? #"<span class="none">(not given)</span>"# : (code ? "<code>\(Escaping.html($0))</code>" : Escaping.html($0)) }
                ?? #"<span class="none">(none)</span>"#
            return "<tr><th>\(label)</th><td>\(shown)</td></tr>"
        }
        page.add("""
            <div class="columns">
            <section>
            <h2>Implementation</h2>
            <table class="facts">
            \(row("name", info.name))
            \(row("version", info.version))
            \(row("language", info.language))
            \(row("homepage", info.homepage))
            \(row("status in the run", s.implementation.status.rawValue))
            </table>
            </section>
            <section>
            <h2>Run</h2>
            <table class="facts">
            \(row("LinkConform", s.run.toolVersion))
            \(row("commit", s.run.gitCommit, code: true))
            \(row("corpus fingerprint", s.run.corpusFingerprint, code: true))
            \(row("run", String(s.run.id)))
            \(row("status", s.run.status.rawValue))
            \(row("started", s.run.startedAt))
            \(row("finished", s.run.finishedAt))
            </table>
            </section>
            </div>
            """)
    }

    static func suites(_ s: ConformanceStatement, into page: inout Page) {
        page.add("""
            <section>
            <h2>Results per suite</h2>
            <p class="note">Cases: passed / failed / other (skipped, not run, errors); a listed expected failure counts as \
            failed. Requirements: met (every case passed) / not met (a case failed) / unverified (no case failed, some did \
            not pass).</p>
            <table class="suites">
            <thead><tr><th rowspan="2">suite</th><th rowspan="2" class="n">cases</th><th colspan="2">MUST</th><th colspan="2">SHOULD</th></tr>
            <tr><th>cases</th><th>requirements</th><th>cases</th><th>requirements</th></tr></thead>
            <tbody>
            """)
        func cells(_ level: ConformanceStatement.LevelResult) -> String {
            guard level.cases > 0 else { return #"<td class="none">-</td><td class="none">-</td>"# }
            func triple(_ good: Int, _ bad: Int, _ other: Int) -> String {
                #"<td><span class="\#(good > 0 ? "pass" : "zero")">\#(good)</span> / <span class="\#(bad > 0 ? "fail" : "zero")">\#(bad)</span> / <span class="zero">\#(other)</span></td>"#
            }
            return triple(level.passed, level.failed, level.other)
                + triple(level.requirementsMet, level.requirementsNotMet, level.requirementsUnverified)
        }
        for suite in s.suites {
            page.add("<tr><th>\(Escaping.html(suite.suite))</th><td class=\"n\">\(suite.cases)</td>\(cells(suite.must))\(cells(suite.should))</tr>")
            if !suite.operationsSkipped.isEmpty || !suite.operationsNotRun.isEmpty {
                // Requirements judged only through these are "unverified": not claimed, or never
                // reached, rather than found wanting.
                func names(_ operations: [String]) -> String {
                    operations.isEmpty ? "none" : operations.map { "<code>\(Escaping.html($0))</code>" }.joined(separator: ", ")
                }
                var parts: [String] = []
                if !suite.operationsSkipped.isEmpty { parts.append("every case skipped (not done by the implementation): \(names(suite.operationsSkipped))") }
                if !suite.operationsNotRun.isEmpty { parts.append("never reached (not run): \(names(suite.operationsNotRun))") }
                parts.append("answered: \(names(suite.operationsAnswered))")
                page.add(#"<tr class="ops"><td></td><td colspan="5">\#(parts.joined(separator: "; "))</td></tr>"#)
            }
        }
        if s.suites.isEmpty { page.add(#"<tr><td colspan="6" class="none">No results in this run.</td></tr>"#) }
        page.add("</tbody>\n</table>\n</section>")
    }

    static func failures(_ s: ConformanceStatement, into page: inout Page) {
        page.add("<section>\n<h2>Failed MUST cases (\(s.failedMust.count))</h2>")
        guard !s.failedMust.isEmpty else {
            page.add("<p>None.</p>\n</section>")
            return
        }
        page.add(#"<table class="cases failed"><thead><tr><th>suite</th><th>requirement</th><th>case</th><th>outcome</th><th>message</th></tr></thead><tbody>"#)
        for f in s.failedMust {
            page.add("<tr><td>\(Escaping.html(f.suite))</td><td><code>\(Escaping.html(f.requirement))</code></td>"
                     + "<td><code>\(Escaping.html(f.caseID))</code></td><td class=\"outcome \(f.outcome == .fail ? "fail" : "expected")\">\(f.outcome.rawValue)</td>"
                     + "<td class=\"message\">\(Escaping.html(f.message ?? ""))</td></tr>")
        }
        page.add("</tbody></table>\n</section>")
    }

    static func expectedFailures(_ s: ConformanceStatement, into page: inout Page) {
        page.add("<section>\n<h2>Expected failures used</h2>")
        guard let used = s.expectedFailures else {
            page.add("<p>The run used no expected-failures file for this implementation.</p>\n</section>")
            return
        }
        let digest = used.fileSHA256.map { "SHA-256 <code>\(Escaping.html($0))</code>" } ?? #"<span class="fail">could not be read when the statement was made</span>"#
        page.add("<p>File <code>\(Escaping.html(used.path))</code>, \(digest). The lines that matched a case of this run:</p>")
        if used.lines.isEmpty {
            page.add("<p>None.</p>")
        } else {
            page.add(#"<table class="cases"><thead><tr><th class="n">line</th><th>as written</th><th>outcome</th></tr></thead><tbody>"#)
            for l in used.lines {
                page.add("<tr><td class=\"n\">\(l.line)</td><td><code>\(Escaping.html(l.text))</code></td>"
                         + "<td class=\"outcome \(l.outcome == .expectedFail ? "expected" : "fail")\">\(l.outcome.rawValue)</td></tr>")
            }
            page.add("</tbody></table>")
        }
        if !used.notListed.isEmpty {
            page.add(#"<p class="fail">Listed in the run but not in the file as read now (\#(used.notListed.count)): "#
                     + used.notListed.map { "<code>\(Escaping.html($0))</code>" }.joined(separator: ", ") + "</p>")
        }
        page.add("</section>")
    }

    /// The page's text, line by line.
    struct Page {
        private(set) var text = ""
        mutating func add(_ lines: String) {
            text += lines
            text += "\n"
        }
    }

    static let style = """
        :root{color-scheme:light;--ink:#1d2330;--muted:#5b6475;--line:#d9dee7;--pass:#17753a;--fail:#b42318;--warn:#9a6700;--bg:#f6f7f9}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        main{max-width:1040px;margin:0 auto;padding:32px 24px 48px}
        header{border-bottom:1px solid var(--line);margin-bottom:8px;padding-bottom:16px}
        .kicker{margin:0;color:var(--muted);text-transform:uppercase;letter-spacing:.08em;font-size:12px;font-weight:600}
        h1{margin:4px 0 12px;font-size:30px;line-height:1.2;overflow-wrap:anywhere}
        h1 .version{color:var(--muted);font-weight:400}
        h2{font-size:18px;margin:28px 0 10px}
        .verdict{margin:6px 0;padding:10px 14px;border-radius:6px;font-weight:600}
        .verdict.ok{background:#e7f5ec;color:var(--pass)}
        .verdict.bad{background:#fdecea;color:var(--fail)}
        .verdict.warn{background:#fff5d6;color:var(--warn)}
        .columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:0 32px}
        table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line)}
        th,td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;overflow-wrap:anywhere}
        thead th{background:#eef1f5;font-size:13px}
        table.facts th{width:38%;color:var(--muted);font-weight:500}
        td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
        .suites td{font-variant-numeric:tabular-nums}
        code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;overflow-wrap:anywhere}
        .hash{font-size:14px}
        thead th{white-space:nowrap}
        table.failed{table-layout:fixed}
        table.failed th:nth-child(1){width:9%}
        table.failed th:nth-child(2){width:11%}
        table.failed th:nth-child(3){width:30%}
        table.failed th:nth-child(4){width:12%}
        .message{font-size:12px;color:var(--muted);white-space:pre-wrap}
        td.outcome{white-space:nowrap}
        .pass{color:var(--pass)}
        .fail{color:var(--fail);font-weight:600}
        .expected{color:var(--warn)}
        .zero{color:var(--muted)}
        .none{color:var(--muted)}
        .note{color:var(--muted);font-size:13px;margin:0 0 8px}
        .digest{margin-top:32px;padding:12px 16px;background:#fff;border:1px solid var(--line);border-radius:6px}
        .digest h2{margin-top:4px}
        """
}
