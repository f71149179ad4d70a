import Conformance

/// How text that came from outside (an implementation's name, version, language, homepage and
/// notes, case messages, actual outputs, a link given to `check`) is written into each output:
/// the one place that knows. Every report and the CLI's human output go through it; JSON does not
/// (it stays exact, with JSON's own escaping, which LinkJSON's writer applies to the hidden
/// characters too: `\u009b`, `\u202e`).
///
/// What no format shows raw, the *hidden* characters: C0 controls (U+0000–U+001F), DEL, C1
/// controls (U+0080–U+009F), the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069), the line and paragraph separators (U+2028, U+2029) and the noncharacters
/// U+FFFE and U+FFFF. Where a format cannot carry one, it is written as a visible escape:
/// `\n`, `\r`, `\t`, `\x1b` for the other ASCII controls and DEL, `\u{202E}` above ASCII. A
/// backslash in the text is not doubled in terminal output, so a link that spells `\x1b` itself
/// reads the same as one that carries ESC: readable paths and links over a reversible notation.
///
/// ```swift
/// Escaping.terminal("2.1.0\r\n")                  // "2.1.0\\r\\n"
/// Escaping.markdownCell("a|b <script>")           // "a\\|b &lt;script>"
/// Escaping.xml("\u{1B}[31m & co")                 // "\\x1b[31m &amp; co"
/// ```
public enum Escaping {
    // MARK: shared

    /// Whether a character is written as a visible escape in human output (see the type's
    /// documentation for the list; the set is defined once, in `HiddenCharacters`, for the corpus
    /// linter too).
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool { HiddenCharacters.isHidden(scalar) }

    /// The visible escape of a hidden character: `\n`, `\r`, `\t`, `\x1b`, `\u{202E}`.
    public static func visible(_ scalar: Unicode.Scalar) -> String { HiddenCharacters.visible(scalar) }

    // MARK: terminal

    /// Text for a terminal or a log: every hidden character as its visible escape, so that no
    /// escape sequence reaches the terminal and no bidi control reorders what is shown. With
    /// `multiline`, line feeds and tabs stay (an adapter's stderr tail keeps its lines); a
    /// carriage return is always shown, since it would let a line overwrite itself.
    public static func terminal(_ text: String, multiline: Bool = false) -> String {
        guard needsWork(text, where: isHidden) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if multiline && (scalar == "\n" || scalar == "\t") {
                out.unicodeScalars.append(scalar)
            } else if isHidden(scalar) {
                out += visible(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Lines for a terminal, each escaped as one line and joined by line feeds: a value inside a
    /// line can never start another.
    public static func terminalLines(_ lines: [String]) -> String {
        lines.map { terminal($0) }.joined(separator: "\n")
    }

    // MARK: Markdown

    /// Markdown shows at most this many characters of one value (then `...`).
    public static let markdownLimit = 600

    /// Text inside a Markdown line (a list item, a heading, after a label). On one line: line
    /// breaks become spaces and other hidden characters visible escapes. `<` becomes `&lt;` (no
    /// HTML tag or comment reaches a renderer); `&` becomes `&amp;` where it would start a
    /// character reference (`&lt;`, `&#60;`: none is decoded); `` ` `` is backslash-escaped (no
    /// code span opens), `[` and `]` too (no link or image), and so is a `\` that Markdown would read as an escape (before ASCII
    /// punctuation, or last: no escape of ours can be undone, and the backslash shows). With
    /// `opensBlock` (the text is the first thing in a list item or a line), a first character
    /// that could open a block (`#`, `>`, `-`, `+`, `*`, `_`, `=`, `~`, `|`, or a number
    /// followed by `.` or `)`) is backslash-escaped too, and leading spaces become `&#32;`.
    /// Emphasis characters are left alone: they can only change how a line looks, not what it
    /// is. Bounded to ``markdownLimit`` characters.
    public static func markdownInline(_ text: String, opensBlock: Bool = false) -> String {
        markdown(text, cell: false, opensBlock: opensBlock)
    }

    /// Text inside a Markdown table cell: as ``markdownInline(_:)``, and `|` becomes `\|`, so
    /// every row keeps its number of cells.
    public static func markdownCell(_ text: String) -> String {
        markdown(text, cell: true, opensBlock: false)
    }

    /// A Markdown code span showing `text` exactly as far as Markdown allows: on one line, hidden
    /// characters as visible escapes, between enough backticks that none inside ends it. (A code
    /// span shows `<` literally and no renderer reads HTML in it.)
    public static func markdownCode(_ text: String) -> String {
        var body = ""
        for scalar in bounded(text).unicodeScalars {
            if scalar == "\n" || scalar == "\r" { body += " " } else if isHidden(scalar) { body += visible(scalar) } else { body.unicodeScalars.append(scalar) }
        }
        var longest = 0, run = 0
        for scalar in body.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = body.hasPrefix("`") || body.hasSuffix("`") || (body.hasPrefix(" ") && body.hasSuffix(" ") && body.contains { $0 != " " })
        return padded ? fence + " " + body + " " + fence : fence + body + fence
    }

    /// A Markdown code span of JSON text, still valid JSON for the same value: `<`, `` ` `` and
    /// hidden characters (which JSON allows only inside strings) are written as `\u` escapes, so
    /// the span holds no backtick, no `<script` and no control character.
    public static func markdownJSON(_ json: String) -> String {
        var body = ""
        for scalar in bounded(json).unicodeScalars {
            if scalar == "<" || scalar == "`" || isHidden(scalar) {
                let hex = String(scalar.value, radix: 16)
                body += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                body.unicodeScalars.append(scalar)
            }
        }
        return "`" + body + "`"
    }

    private static func markdown(_ text: String, cell: Bool, opensBlock: Bool) -> String {
        let scalars = Array(bounded(text).unicodeScalars)
        var out = ""
        out.reserveCapacity(scalars.count + 8)
        var i = opensBlock ? neutraliseBlockOpener(scalars, into: &out) : 0
        while i < scalars.count {
            let scalar = scalars[i]
            switch scalar {
            case "\r":
                out += " "
                if i + 1 < scalars.count, scalars[i + 1] == "\n" { i += 1 }
            case "\n": out += " "
            case "<": out += "&lt;"
            case "&": out += startsEntity(scalars, at: i + 1) ? "&amp;" : "&"
            case "\\":
                // Doubled where Markdown would read it as an escape: before ASCII punctuation, or last.
                let next = i + 1 < scalars.count ? scalars[i + 1] : "\\"
                out += asciiPunctuation.contains(next) ? "\\\\" : "\\"
            case "`": out += "\\`"
            // No link or image opens (`[text](javascript:...)`, `![x](https://tracker/)`): a
            // bracket is backslash-escaped wherever it is.
            case "[", "]": out += "\\" + String(scalar)
            case "|" where cell: out += "\\|"
            default:
                if isHidden(scalar) { out += visible(scalar) } else { out.unicodeScalars.append(scalar) }
            }
            i += 1
        }
        return out
    }

    /// Writes the start of `scalars` so that it opens no block: leading spaces as `&#32;` (they
    /// would indent into a code block or in front of a marker), then a block opener (`#`, `-`,
    /// ..., or the digits of `1.`) backslash-escaped. Returns how many scalars it wrote.
    private static func neutraliseBlockOpener(_ scalars: [Unicode.Scalar], into out: inout String) -> Int {
        var i = 0
        while i < scalars.count, scalars[i] == " " {
            out += "&#32;"
            i += 1
        }
        guard i < scalars.count else { return i }
        if blockOpeners.contains(scalars[i]) {
            out += "\\"
            return i
        }
        // An ordered-list marker: up to nine digits, then `.` or `)`.
        var end = i
        while end < scalars.count, end - i < 9, ("0"..."9").contains(scalars[end]) { end += 1 }
        guard end > i, end < scalars.count, scalars[end] == "." || scalars[end] == ")" else { return i }
        out.unicodeScalars.append(contentsOf: scalars[i..<end])
        out += "\\"
        return end
    }

    /// Whether `scalars` at `start` reads as the rest of a character reference (`amp;`, `#38;`,
    /// `#x26;`), which a renderer would decode after an `&`. (A query's `&lang=en` does not.)
    private static func startsEntity(_ scalars: [Unicode.Scalar], at start: Int) -> Bool {
        var i = start
        if i < scalars.count, scalars[i] == "#" { i += 1 }
        if i < scalars.count, i > start, scalars[i] == "x" || scalars[i] == "X" { i += 1 }
        let name = i
        while i < scalars.count, i - name < 32, scalars[i].isASCII, scalars[i].properties.isAlphabetic || ("0"..."9").contains(scalars[i]) {
            i += 1
        }
        return i > name && i < scalars.count && scalars[i] == ";"
    }

    /// What a backslash escapes in CommonMark.
    private static let asciiPunctuation = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars)

    /// (`[` opens a link reference definition too; it is escaped wherever it is.)
    private static let blockOpeners: Set<Unicode.Scalar> = ["#", ">", "-", "+", "*", "_", "=", "~", "|"]

    /// The text cut to ``markdownLimit`` characters, ending in `...` when cut.
    private static func bounded(_ text: String) -> String { clipped(text, to: markdownLimit) }

    /// `text` cut to `limit` characters, the last three of them `...` when it was longer.
    public static func clipped(_ text: String, to limit: Int) -> String { ShownText.clipped(text, to: limit) }

    // MARK: HTML

    /// Text between HTML tags: `&`, `<`, `>`, `"`, `'` as character references; line feeds and
    /// tabs stay, other hidden characters become visible escapes (a bidi control would reorder
    /// the page around it).
    public static func html(_ text: String) -> String {
        markup(text) { scalar in
            switch scalar {
            case "\n", "\t": String(scalar)
            case "'": "&#39;"
            default: nil
            }
        }
    }

    /// An HTML attribute value (inside double or single quotes): as ``html(_:)``, with line feeds
    /// and tabs as character references.
    public static func htmlAttribute(_ text: String) -> String {
        markup(text) { scalar in
            switch scalar {
            case "\n": "&#10;"
            case "\t": "&#9;"
            case "'": "&#39;"
            default: nil
            }
        }
    }

    // MARK: XML

    /// XML 1.0 text or attribute value (either quote). `&`, `<`, `>`, `"`, `'` as entities; line
    /// feed, carriage return and tab as character references (an attribute would otherwise turn
    /// them into spaces, and a carriage return would be dropped anywhere). The other hidden
    /// characters become visible escapes: XML 1.0 forbids C0 controls even as character
    /// references, and a CI page shows C1 and bidi controls unescaped.
    public static func xml(_ text: String) -> String {
        markup(text) { scalar in
            switch scalar {
            case "\n": "&#10;"
            case "\r": "&#13;"
            case "\t": "&#9;"
            case "'": "&apos;"
            default: nil
            }
        }
    }

    /// The escaping HTML and XML share; `special` decides first for the characters it knows.
    private static func markup(_ text: String, _ special: (Unicode.Scalar) -> String?) -> String {
        guard needsWork(text, where: { isHidden($0) || "&<>\"'".unicodeScalars.contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if let replacement = special(scalar) {
                out += replacement
                continue
            }
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                if isHidden(scalar) { out += visible(scalar) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// Whether any character of `text` needs escaping (most text needs none and is returned as it is).
    private static func needsWork(_ text: String, where test: (Unicode.Scalar) -> Bool) -> Bool {
        text.unicodeScalars.contains(where: test)
    }
}
