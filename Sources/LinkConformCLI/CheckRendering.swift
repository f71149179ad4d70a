import Conformance
import LinkJSON
import LinkURL
import Reports

/// `linkconform check`'s three outputs from one ``CheckReport``: the human text, the JSON and
/// the exit code. The text shows every control and bidi character of the link, raw or decoded,
/// as an escape (`\x1b`, `\u{202E}`: ``Escaping/terminal(_:multiline:)``), so a link cannot
/// retitle or recolour the reader's terminal; the JSON keeps them exact. All three read the report's verdicts, computed once from its violations, so
/// they cannot disagree; tests call these functions in process.
///
/// ```swift
/// let rendering = CheckRendering(report: Check.explain(.link(bytes)), titles: [:])
/// rendering.exitCode    // 0 when the JSON says "valid": true
/// print(rendering.human())
/// ```
struct CheckRendering {
    let report: CheckReport
    /// Requirement titles by id, shown with each violation.
    let titles: [String: String]
    /// The most violations of one code the text lists (nil: every one); the JSON lists all.
    var perCode: Int? = CheckRendering.defaultPerCode

    /// A file of ten thousand repeated paths breaks one rule ten thousand times: the text lists
    /// the first few of each code and counts the rest (`check --all` lists every one).
    static let defaultPerCode = 10

    /// 0 when some suite recognises the subject and finds no MUST violation, 1 otherwise.
    var exitCode: Int32 { report.verdict.valid ? 0 : 1 }

    // MARK: JSON

    func json() -> JSONValue {
        var root = JSONObject()
        switch report.subject {
        case .link(let bytes):
            root["link"] = .string(Self.shown(bytes))
            root["bytes"] = .int(bytes.count)
            root["url"] = Self.urlJSON(LinkURL(parsing: bytes))
        case .document(let document):
            var o = JSONObject()
            o["path"] = .string(document.path)
            o["bytes"] = .int(document.bytes.count)
            var parameters = JSONObject()
            for key in document.parameters.keys.sorted() { parameters[key] = .string(document.parameters[key]) }
            o["parameters"] = .object(parameters)
            o["urls"] = .array(document.urls.map(JSONValue.string))
            root["document"] = .object(o)
        }
        root["recognized"] = .bool(report.verdict.recognized)
        root["valid"] = .bool(report.verdict.valid)
        root["verdict"] = .string(report.verdict.sentence)
        root["protocols"] = .array(report.explanations.map { $0.json(titles: titles) })
        return .object(root)
    }

    // MARK: text

    func human() -> String {
        var lines: [String] = []
        switch report.subject {
        case .link(let bytes):
            lines.append(Self.shown(bytes))
            if report.explanations.isEmpty { lines += Self.unrecognizedLink(bytes) }
        case .document(let document):
            lines.append("document \(document.path) (\(document.bytes.count) bytes)")
            for key in document.parameters.keys.sorted() { lines.append("  with \(key) = \(document.parameters[key] ?? "")") }
            for url in document.urls { lines.append("  url  \(url)") }
            if report.explanations.isEmpty { lines.append("no suite reads this document") }
        }
        for e in report.explanations { lines += Self.explanationLines(e, titles: titles, perCode: perCode) }
        lines.append("verdict: \(report.verdict.sentence)")
        // Each line on its own line, with decoded control and bidi characters shown escaped.
        return Escaping.terminalLines(lines)
    }

    /// One suite's explanation as text lines (unescaped: the caller escapes them for the terminal).
    static func explanationLines(_ e: CheckExplanation, titles: [String: String], perCode: Int? = nil) -> [String] {
        var lines = ["\(e.suite): \(e.verdict.sentence)"]
        let width = max(12, e.fields.map(\.label.count).max() ?? 0)
        let pad = String(repeating: " ", count: width)
        for field in e.fields {
            let label = field.label.padding(toLength: width, withPad: " ", startingAt: 0)
            if let value = field.value {
                lines.append("  \(label) \(value)")
            } else if let raw = field.raw {
                lines.append("  \(label) raw      \(raw)")
                lines.append("  \(pad) decoded  \(field.decoded ?? raw)")
            } else {
                lines.append("  \(label) (absent)")
            }
            if let note = field.note { lines.append("  \(pad) note     \(note)") }
        }
        if e.violations.isEmpty {
            lines.append("  violations   none")
            return lines
        }
        let must = e.violations.filter { $0.level == .must }.count
        lines.append("  violations (\(e.violations.count), \(must) MUST):")
        var listed: [String: Int] = [:]
        var codesCut: [String] = []   // in the order their first unlisted violation came
        for v in e.violations {
            let count = listed[v.code, default: 0]
            listed[v.code] = count + 1
            if let perCode, count >= perCode {
                if count == perCode { codesCut.append(v.code) }
                continue
            }
            let at = v.offset.map { " at byte \($0)" } ?? ""
            let title = titles[v.requirement].map { " (\($0))" } ?? ""
            lines.append("    \(v.requirement.isEmpty ? "" : v.requirement + " ")\(v.level.rawValue)\(title): \(v.code)\(at)")
            lines.append("      \(v.message)")
        }
        if let perCode {
            for code in codesCut {
                lines.append("    ... and \(listed[code]! - perCode) more \(code) (the first \(perCode) of each code are listed; --all lists every one)")
            }
        }
        return lines
    }

    /// What a link no suite reads looks like: its components and syntax problems (the verdict
    /// line says what each suite would read).
    static func unrecognizedLink(_ bytes: [UInt8]) -> [String] {
        let url = LinkURL(parsing: bytes)
        var lines = ["not a link of any protocol LinkConform checks; its parts:"]
        if url.isOverLimit {
            lines.append("  the link is over the \(URLLimits.default.maxLength)-byte limit and was not split")
        } else {
            for component in URLComponent.allCases {
                if let text = url.text(of: component) { lines.append("  \(component.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(text)") }
            }
        }
        for d in url.diagnostics { lines.append("  syntax: \(d.message)") }
        return lines
    }

    /// The link for display: invalid UTF-8 repaired, long links shortened.
    static func shown(_ bytes: [UInt8]) -> String {
        let limit = 300
        let head = String(decoding: bytes.prefix(limit), as: UTF8.self)
        return bytes.count <= limit ? head : head + "... (\(bytes.count) bytes)"
    }

    static func urlJSON(_ url: LinkURL) -> JSONValue {
        var o = JSONObject()
        for component in URLComponent.allCases {
            if let text = url.text(of: component) {
                o[component.rawValue] = .string(text.count > 300 ? String(text.prefix(297)) + "..." : text)
            }
        }
        o["diagnostics"] = .array(url.diagnostics.map { d in
            ["code": .string(d.code.rawValue), "offset": .int(d.offset), "component": .string(d.component?.rawValue), "message": .string(d.message)]
        })
        if url.droppedDiagnostics > 0 { o["moreDiagnostics"] = .int(url.droppedDiagnostics) }
        return .object(o)
    }
}
