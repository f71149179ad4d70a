import LinkJSON
import Testing
@testable import Reports

/// The escaping of each format, one context at a time.
struct EscapingTests {
    @Test func terminalShowsEveryHiddenCharacter() {
        #expect(Escaping.terminal("2.1.0\r\n") == "2.1.0\\r\\n")
        #expect(Escaping.terminal("\u{1B}]0;title\u{07}\u{1B}[31m") == "\\x1b]0;title\\x07\\x1b[31m")
        #expect(Escaping.terminal("a\u{0}b\u{7F}c\u{9B}d") == "a\\x00b\\x7fc\\u{9B}d")
        for bidi: Unicode.Scalar in ["\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}"] {
            let shown = Escaping.terminal("x" + String(bidi))
            #expect(shown == "x\\u{" + String(bidi.value, radix: 16).uppercased() + "}")
        }
        #expect(Escaping.terminal("line one\n\tline two\r", multiline: true) == "line one\n\tline two\\r")
        #expect(Escaping.terminal("tab\there") == "tab\\there")
        #expect(Escaping.terminal("plain text, é and 日本") == "plain text, é and 日本")
    }

    @Test func terminalLinesCannotStartLines() {
        #expect(Escaping.terminalLines(["a\nb", "c"]) == "a\\nb\nc")
    }

    @Test func markdownCellsKeepTheirColumns() {
        #expect(Escaping.markdownCell("a|b") == "a\\|b")
        #expect(Escaping.markdownCell("a\\|b") == "a\\\\\\|b", "an input backslash cannot unescape our pipe")
        #expect(Escaping.markdownCell("v 2.1.0\r\n") == "v 2.1.0 ")
        #expect(Escaping.markdownCell("<script>x</script>") == "&lt;script>x&lt;/script>")
    }

    @Test func markdownInlineNeutralisesWhatRenderersRead() {
        #expect(Escaping.markdownInline("a\n# b") == "a # b")
        #expect(Escaping.markdownInline("&lt; &#60; &#x3c; a&b=c & d") == "&amp;lt; &amp;#60; &amp;#x3c; a&b=c & d")
        #expect(Escaping.markdownInline("`code`") == "\\`code\\`")
        // No link or image, wherever the bracket is.
        #expect(Escaping.markdownInline("x [a](javascript:alert(3)) ![t](https://t.example/p.png)")
                == "x \\[a\\](javascript:alert(3)) !\\[t\\](https://t.example/p.png)")
        #expect(Escaping.markdownInline("[ref]: https://x.example", opensBlock: true) == "\\[ref\\]: https://x.example")
        #expect(Escaping.markdownInline("C:\\Users and \\'x\\") == "C:\\Users and \\\\'x\\\\")
        #expect(Escaping.markdownInline("# not a heading") == "# not a heading", "only at the start of a block")
        #expect(Escaping.markdownInline("# h", opensBlock: true) == "\\# h")
        #expect(Escaping.markdownInline("> q", opensBlock: true) == "\\> q")
        #expect(Escaping.markdownInline("- item", opensBlock: true) == "\\- item")
        #expect(Escaping.markdownInline("12. item", opensBlock: true) == "12\\. item")
        #expect(Escaping.markdownInline("  # h", opensBlock: true) == "&#32;&#32;\\# h")
        #expect(Escaping.markdownInline("0.1.0", opensBlock: false) == "0.1.0")
        let long = String(repeating: "x", count: 700)
        #expect(Escaping.markdownInline(long) == String(repeating: "x", count: 597) + "...")
    }

    @Test func markdownCodeSpansCannotBeClosedEarly() {
        #expect(Escaping.markdownCode("ulc/a/b") == "`ulc/a/b`")
        #expect(Escaping.markdownCode("a`b") == "``a`b``")
        #expect(Escaping.markdownCode("`x``") == "``` `x`` ```")
        #expect(Escaping.markdownCode("a\nb\u{1B}") == "`a b\\x1b`")
    }

    @Test func markdownJSONIsTheSameJSON() throws {
        let value: JSONValue = ["kind": "<script>`tick`\u{202E}\u{1B}\u{85}", "n": 1]
        let span = Escaping.markdownJSON(value.serialized())
        #expect(span.hasPrefix("`") && span.hasSuffix("`"))
        let inside = String(span.dropFirst().dropLast())
        #expect(!inside.contains("`") && !inside.contains("<") && !inside.unicodeScalars.contains { Escaping.isHidden($0) })
        #expect(try JSONParser.parse(inside) == value)
    }

    @Test func xmlAndHTMLUseReferencesAndVisibleEscapes() {
        #expect(Escaping.xml("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
        #expect(Escaping.xml("\r\n\t") == "&#13;&#10;&#9;")
        #expect(Escaping.xml("\u{1B}\u{0}\u{FFFE}\u{202E}") == "\\x1b\\x00\\u{FFFE}\\u{202E}")
        #expect(Escaping.html("<a href='x'>\n") == "&lt;a href=&#39;x&#39;&gt;\n")
        #expect(Escaping.htmlAttribute("a\nb\t\u{1B}") == "a&#10;b&#9;\\x1b")
    }
}
