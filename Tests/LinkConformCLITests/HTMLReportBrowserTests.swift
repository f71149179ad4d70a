import Foundation
import Testing

/// What may be in `index.html`, checked on its text or on a browser's serialization of it. In
/// both, every `<` of a text is written `&lt;`, so each `<name` is an element: an element the
/// report does not write can only have come from outside.
enum HTMLPage {
    static let elements: Set<String> = [
        "html", "head", "meta", "title", "style", "body", "header", "nav", "main", "section", "footer", "article", "div", "p",
        "h1", "h2", "h3", "h4", "span", "small", "strong", "code", "pre", "mark", "a", "dl", "dt", "dd", "ul", "li", "table", "thead",
        "tbody", "tr", "th", "td", "details", "summary", "figure", "figcaption", "svg", "g", "line", "path", "circle", "text",
    ]

    /// The names of the elements opened in `html` that are not in ``elements``.
    static func foreignElements(_ html: String) -> Set<String> {
        var names: Set<String> = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" }.lowercased()
            if !name.isEmpty && !elements.contains(name) { names.insert(name) }
        }
        return names
    }
}

/// `index.html` as a person sees it: opened in headless Chromium (Debian's `chromium`, which
/// `.ci/run` installs), its rendered DOM holds the matrix, the cases that did not pass and the
/// history chart, the console stays silent, and what a hostile adapter said is text.
struct HTMLReportBrowserTests {
    static let fixtures = CLI.repository.appendingPathComponent("Tests/LinkConformCLITests/Fixtures").path

    /// Whether `chromium` is on the PATH.
    static var chromiumInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/chromium")
        }
    }

    /// The DOM Chromium built from `file`, and the console messages it logged (errors, CSP
    /// violations), each with its source.
    static func open(_ file: String) async throws -> (dom: String, console: [String]) {
        let profile = CLI.temporaryDirectory()
        let result = try await CLI.runTool(["timeout", "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                            "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                                            "--dump-dom", URL(fileURLWithPath: file).absoluteString])
        try? FileManager.default.removeItem(atPath: profile)
        #expect(result.status == 0, "chromium: \(result.stderr.suffix(2_000))")
        return (result.stdout, result.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init))
    }

    @Test(.timeLimit(.minutes(5))) func theBrowserShowsTheReportAndOnlyTheReport() async throws {
        guard Self.chromiumInstalled else {
            Issue.record("chromium is not installed: `apt-get install chromium` (.ci/run installs it); this test opens index.html in it")
            return
        }
        // The console check itself: a page with a script error is caught.
        let dir = CLI.temporaryDirectory()
        try #"<!DOCTYPE html><html><body><p>x</p><script>notDefined();</script></body></html>"#
            .write(toFile: dir + "/broken.html", atomically: true, encoding: .utf8)
        let broken = try await Self.open(dir + "/broken.html")
        try #require(broken.console.contains { $0.contains("Uncaught ReferenceError") }, "the console check sees nothing: \(broken)")

        // Two runs, so that the chart has a line: the reference, and two hostile adapters.
        let adapter = "python3 \(Self.fixtures)/hostile_adapter.py"
        for _ in 0..<2 {
            let run = try await CLI.run(["run", "--corpus", CLI.repository.appendingPathComponent("Corpus").path, "--suite", "ulc",
                                         "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress", "--implementation", "reference",
                                         "--adapter", adapter, "--adapter", adapter + " markup"])
            #expect(run.status == 1, "the hostile adapters fail cases: \(run.output.suffix(2_000))")
        }
        let page = try await Self.open(dir + "/index.html")
        #expect(page.console.isEmpty, "console messages: \(page.console)")
        let dom = page.dom
        #expect(dom.contains(#"<table class="matrix">"#) && dom.contains(#"<td class="cell w-pass""#), "the matrix, with the reference's passes")
        #expect(dom.contains(#"<th scope="row" class="rid">ULC-6</th>"#))
        #expect(dom.contains(#"<details class="case">"#) && dom.contains(#"<table class="diff">"#), "the cases that did not pass")
        #expect(dom.components(separatedBy: #"<svg class="trend""#).count == 2, "one chart panel, for ulc")
        #expect(dom.components(separatedBy: "<circle").count - 1 >= 6, "a point per run for each of three implementations")

        // Nothing from outside became an element, an attribute or a link.
        #expect(HTMLPage.foreignElements(dom).isEmpty, "elements the report does not write: \(HTMLPage.foreignElements(dom))")
        #expect(!dom.contains("href=\"javascript"), "the javascript: homepage is no link")
        #expect(!dom.contains("onerror=\"") && !dom.contains("onload=\""), "no handler attribute")
        // ... and is there, as text.
        #expect(dom.contains("\"&gt;&lt;img src=x onerror=alert(1)&gt;"), "the markup adapter's name")
        #expect(dom.contains("&lt;svg onload=alert(2)&gt;") && dom.contains("'&gt;&lt;iframe src=javascript:alert(3)&gt;"))
        #expect(dom.contains("javascript:alert(document.domain)"), "its homepage, as text")
        #expect(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the hostile outputs")
        #expect(dom.contains(#"\x1b]0;pwned\x07\x1b[31mred\x00 \u{202E}evil"#), "controls shown as escapes")

        // On a narrow window the summary, whose outcome columns are as many as the outcomes the
        // run had, scrolls sideways in its own box instead of running off the page.
        let layout = try await Self.layout(dir + "/index.html", width: 900)
        let table = try #require(layout["table"]), section = try #require(layout["section"]), window = try #require(layout["window"])
        #expect(table > window, "the summary is wider than the window (\(layout)): else this checks nothing")
        #expect(section <= window, "nothing in the summary's section reaches past the window: \(layout)")
    }

    /// Widths measured in `file` as Chromium lays it out in a window `width` pixels wide: the
    /// summary table's (`table`), how far right its section's contents reach (`section`, the
    /// section's left edge plus its scroll width) and the window's. The page
    /// allows no script, so a copy without its Content-Security-Policy gets one that measures.
    static func layout(_ file: String, width: Int) async throws -> [String: Int] {
        let page = try String(contentsOfFile: file, encoding: .utf8)
        let policy = try #require(page.range(of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, options: .regularExpression))
        let probe = """
            <script>window.addEventListener('load', () => { const t = document.querySelector('table.summary');
            const s = t.closest('section'); document.body.setAttribute('data-layout', 'table=' + Math.round(t.getBoundingClientRect().width) +
            ' section=' + Math.round(s.getBoundingClientRect().left + s.scrollWidth) + ' window=' + window.innerWidth); });</script>
            """
        let copy = file + ".layout.html"
        try page.replacingCharacters(in: policy, with: "").replacingOccurrences(of: "</body>", with: probe + "</body>")
            .write(toFile: copy, atomically: true, encoding: .utf8)
        let profile = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let result = try await CLI.runTool(["timeout", "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                            "--user-data-dir=" + profile, "--window-size=\(width),900", "--virtual-time-budget=5000",
                                            "--dump-dom", URL(fileURLWithPath: copy).absoluteString])
        let attribute = try #require(result.stdout.range(of: #"data-layout="[^"]*""#, options: .regularExpression),
                                     "no measurement: \(result.stderr.suffix(1_000))")
        var sizes: [String: Int] = [:]
        for pair in result.stdout[attribute].dropFirst("data-layout=\"".count).dropLast().split(separator: " ") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { sizes[String(parts[0])] = value }
        }
        return sizes
    }
}
