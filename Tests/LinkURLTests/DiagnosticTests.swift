import LinkURL
import Testing

/// Each diagnostic code, with the byte offset and component it is reported at.
struct DiagnosticTests {
    // MARK: space and control characters (never allowed raw, section 2)

    @Test func rawSpaceIsReportedAtItsByte() {
        // "https://a.example/p q": the space is byte 19.
        #expect(LinkURL(parsing: "https://a.example/p q").diagnostics == [diag(.space, 19, .path)])
    }

    @Test func spaceIsReportedInEveryComponent() {
        #expect(LinkURL(parsing: "https://u v@h/").diagnostics == [diag(.space, 9, .userinfo)])
        #expect(LinkURL(parsing: "https://h i/").diagnostics == [diag(.space, 9, .host)])
        #expect(LinkURL(parsing: "https://h/?a b").diagnostics == [diag(.space, 12, .query)])
        #expect(LinkURL(parsing: "https://h/#a b").diagnostics == [diag(.space, 12, .fragment)])
    }

    @Test func eachSpaceIsReported() {
        #expect(LinkURL(parsing: "a b c").diagnostics == [diag(.space, 1, .path), diag(.space, 3, .path)])
    }

    @Test func controlCharacterIsReportedAtItsByte() {
        #expect(LinkURL(parsing: "https://a/x\ty").diagnostics == [diag(.controlCharacter, 11, .path)])
        #expect(LinkURL(parsing: "https://a/\u{0}").diagnostics == [diag(.controlCharacter, 10, .path)])
        #expect(LinkURL(parsing: "https://a/\n").diagnostics == [diag(.controlCharacter, 10, .path)])
    }

    @Test func deleteIsAControlCharacter() {
        #expect(LinkURL(parsing: "https://a/?\u{7F}").diagnostics == [diag(.controlCharacter, 11, .query)])
    }

    // MARK: non-ASCII

    @Test func nonASCIIIsReportedOncePerComponent() {
        // é, ü and ö are two bytes each: 10-11 (path), 13-14 (query), 16-17 (fragment).
        #expect(LinkURL(parsing: "https://a/é?ü#ö").diagnostics == [
            diag(.nonASCII, 10, .path), diag(.nonASCII, 13, .query), diag(.nonASCII, 16, .fragment),
        ])
    }

    @Test func runOfNonASCIIBytesIsReportedOnceAtItsFirstByte() {
        #expect(LinkURL(parsing: "https://a/éé😀").diagnostics == [diag(.nonASCII, 10, .path)])
    }

    @Test func nonASCIIRunsSeparatedByASCIIAreReportedSeparately() {
        #expect(LinkURL(parsing: "https://a/éxé").diagnostics == [diag(.nonASCII, 10, .path), diag(.nonASCII, 13, .path)])
    }

    @Test func invalidUTF8BytesAreNonASCII() {
        let bytes = Array("https://a/".utf8) + [0xFF, 0xC3, 0x41]
        #expect(LinkURL(parsing: bytes).diagnostics == [diag(.nonASCII, 10, .path)])
    }

    @Test func nonASCIIInTheHost() {
        #expect(LinkURL(parsing: "https://bücher.example/").diagnostics == [diag(.nonASCII, 9, .host)])
    }

    // MARK: percent escapes (section 2.1: "%" HEXDIG HEXDIG)

    @Test func percentAtTheEndIsAnInvalidEscape() {
        #expect(LinkURL(parsing: "https://a/%").diagnostics == [diag(.invalidPercentEscape, 10, .path)])
    }

    @Test func truncatedEscapeIsAnInvalidEscape() {
        #expect(LinkURL(parsing: "https://a/%4").diagnostics == [diag(.invalidPercentEscape, 10, .path)])
    }

    @Test func percentFollowedByNonHexIsAnInvalidEscape() {
        #expect(LinkURL(parsing: "https://a/%4g").diagnostics == [diag(.invalidPercentEscape, 10, .path)])
        #expect(LinkURL(parsing: "https://a/%g4").diagnostics == [diag(.invalidPercentEscape, 10, .path)])
    }

    @Test func percentBeforeAValidEscapeIsTheOnlyInvalidOne() {
        #expect(LinkURL(parsing: "https://a/%%41").diagnostics == [diag(.invalidPercentEscape, 10, .path)])
    }

    @Test func escapeCutByTheEndOfTheComponentIsInvalid() {
        // "%4" then '?': the '?' ends the path, so the escape lacks a digit.
        #expect(LinkURL(parsing: "https://a/%4?x").diagnostics == [diag(.invalidPercentEscape, 10, .path)])
        #expect(LinkURL(parsing: "https://a%2:1/").diagnostics == [diag(.invalidPercentEscape, 9, .host)])
    }

    @Test func validEscapesInEitherCaseAreFine() {
        #expect(LinkURL(parsing: "https://a%2Db/%c3%A9?q=%3d#%7E").diagnostics.isEmpty)
    }

    @Test func invalidEscapeIsReportedInEveryComponent() {
        #expect(LinkURL(parsing: "https://u%@a/").diagnostics == [diag(.invalidPercentEscape, 9, .userinfo)])
        #expect(LinkURL(parsing: "https://a%/").diagnostics == [diag(.invalidPercentEscape, 9, .host)])
        #expect(LinkURL(parsing: "https://a/?q=%zz").diagnostics == [diag(.invalidPercentEscape, 13, .query)])
        #expect(LinkURL(parsing: "https://a/#%").diagnostics == [diag(.invalidPercentEscape, 11, .fragment)])
    }

    // MARK: characters not allowed in a component

    @Test func squareBracketsInAQueryAreInvalid() {
        #expect(LinkURL(parsing: "https://a/?x=[1]").diagnostics == [
            diag(.invalidCharacter, 13, .query), diag(.invalidCharacter, 15, .query),
        ])
    }

    @Test func secondHashIsAnInvalidCharacterInTheFragment() {
        let url = LinkURL(parsing: "https://a/#x#y")
        #expect(url.text(of: .fragment) == "x#y")
        #expect(url.diagnostics == [diag(.invalidCharacter, 12, .fragment)])
    }

    /// Printable ASCII that is neither reserved nor unreserved (section 2) is never allowed.
    @Test(arguments: Array(#""<>\^`{|}"#.utf8))
    func excludedPrintableCharacterIsInvalidEverywhere(byte: UInt8) {
        let c = String(UnicodeScalar(byte))
        #expect(LinkURL(parsing: "https://u\(c)@h/").diagnostics == [diag(.invalidCharacter, 9, .userinfo)])
        #expect(LinkURL(parsing: "https://h\(c)/").diagnostics == [diag(.invalidCharacter, 9, .host)])
        #expect(LinkURL(parsing: "https://h/\(c)").diagnostics == [diag(.invalidCharacter, 10, .path)])
        #expect(LinkURL(parsing: "https://h/?\(c)").diagnostics == [diag(.invalidCharacter, 11, .query)])
        #expect(LinkURL(parsing: "https://h/#\(c)").diagnostics == [diag(.invalidCharacter, 11, .fragment)])
    }

    @Test func squareBracketsInThePathAreInvalid() {
        #expect(LinkURL(parsing: "https://a/[x]").diagnostics == [
            diag(.invalidCharacter, 10, .path), diag(.invalidCharacter, 12, .path),
        ])
    }

    @Test func squareBracketInsideARegNameIsInvalid() {
        #expect(LinkURL(parsing: "https://a[b/").diagnostics == [diag(.invalidCharacter, 9, .host)])
    }

    @Test func everyRFCCharacterIsAllowedWhereTheGrammarPutsIt() {
        let unreserved = "abcxyzABCXYZ0189-._~"
        let subDelims = "!$&'()*+,;="
        // userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
        // pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
        // query = fragment = *( pchar / "/" / "?" )
        let text = "https://\(unreserved)\(subDelims):%20@\(unreserved)\(subDelims)%20:1/\(unreserved)\(subDelims):@/%20"
            + "?\(unreserved)\(subDelims):@/?%20#\(unreserved)\(subDelims):@/?%20"
        #expect(LinkURL(parsing: text).diagnostics == [])
    }

    // MARK: scheme (section 3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ))

    @Test func schemeStartingWithADigitIsInvalid() {
        let url = LinkURL(parsing: "1abc:foo")
        #expect(url.text(of: .scheme) == "1abc")
        #expect(url.diagnostics == [diag(.invalidScheme, 0, .scheme)])
    }

    @Test func schemeStartingWithPlusIsInvalid() {
        #expect(LinkURL(parsing: "+a:b").diagnostics == [diag(.invalidScheme, 0, .scheme)])
    }

    @Test func invalidCharacterInsideASchemeIsReportedAtThatByte() {
        let url = LinkURL(parsing: "a_b:c")
        #expect(url.text(of: .scheme) == "a_b")
        #expect(url.text(of: .path) == "c")
        #expect(url.diagnostics == [diag(.invalidScheme, 1, .scheme)])
    }

    @Test func schemeWithASpaceIsAnInvalidScheme() {
        #expect(LinkURL(parsing: "ht tp://x/").diagnostics.first == diag(.invalidScheme, 2, .scheme))
    }

    @Test func schemeMayUseLettersDigitsPlusMinusAndDot() {
        let url = LinkURL(parsing: "a1+-.Z:x")
        #expect(url.text(of: .scheme) == "a1+-.Z")
        #expect(url.diagnostics.isEmpty)
    }

    // MARK: order and messages

    @Test func diagnosticsOfDifferentComponentsComeInInputOrder() {
        let url = LinkURL(parsing: "https://u v@h i:x/p q?a b#c d")
        #expect(url.diagnostics == [
            diag(.space, 9, .userinfo), diag(.space, 13, .host), diag(.invalidPort, 16, .port),
            diag(.space, 19, .path), diag(.space, 23, .query), diag(.space, 27, .fragment),
        ])
    }

    @Test func hasDiagnosticsInComponentReflectsTheComponents() {
        let url = LinkURL(parsing: "https://a/p?a b")
        #expect(url.hasDiagnostics(in: .query))
        #expect(!url.hasDiagnostics(in: .path))
        #expect(!url.hasDiagnostics(in: .host))
    }

    @Test func descriptionStartsWithCodeAndOffset() {
        let d = diag(.space, 19, .path)
        #expect(d.description.hasPrefix("space@19: "))
        #expect(d.message.contains("19"))
    }

    @Test func codeRawValuesAreStable() {
        #expect(URLDiagnostic.Code.allCases.map(\.rawValue) == [
            "too-long", "invalid-percent-escape", "control-character", "space", "non-ascii", "invalid-character",
            "invalid-scheme", "invalid-port", "empty-host", "invalid-ip-literal",
        ])
    }
}
