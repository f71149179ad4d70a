import LinkURL
import Testing

/// Edge cases where an earlier version disagreed with RFC 3986 or with its own documented
/// contract (found by these tests, fixed in the module).
struct SpecEdgeCaseTests {
    /// RFC 3986 section 6.2.2.1: the host is case-insensitive and normalizes to lower case, but
    /// "the hexadecimal digits within a percent-encoding triplet ... should be normalized to use
    /// uppercase letters for the digits A-F". `normalizedHost` lower-cases the hex digits too.
    @Test func normalizedHostKeepsPercentEncodingHexDigitsUpperCase() {
        #expect(LinkURL(parsing: "https://EX%C3%A9MPLE/").normalizedHost == "ex%C3%A9mple")
        #expect(LinkURL(parsing: "https://a%2Db/").normalizedHost == "a%2Db")
    }

    /// RFC 3986 section 3.2.3: `port = *DIGIT`, a decimal number. "000080" is port 80; the scanner
    /// agrees (no `invalid-port` diagnostic) but `port` returns nil for any port over five digits.
    @Test func portWithLeadingZerosIsItsDecimalValue() {
        let url = LinkURL(parsing: "https://a:000080/")
        #expect(url.diagnostics.isEmpty)
        #expect(url.port == 80)
    }

    /// RFC 3986 sections 3 and 4.2: a URI reference is either a URI (scheme = ALPHA ...) or a
    /// relative reference whose first path segment may not contain ':' (path-noscheme). ":foo" and
    /// "://x" are neither, yet they get no diagnostic at all, while "1abc:foo" gets `invalid-scheme`.
    @Test(arguments: [":foo", "://x", ":"])
    func leadingColonIsNotAValidURIReference(text: String) {
        #expect(!LinkURL(parsing: text).diagnostics.isEmpty)
    }

    /// `URLScan.diagnostics` is documented as "Every problem found, in input order", but
    /// `empty-host` is appended after the whole scan, behind problems found later in the input.
    @Test func emptyHostComesInInputOrder() {
        #expect(LinkURL(parsing: "https:///a b").diagnostics == [diag(.emptyHost, 8, .host), diag(.space, 10, .path)])
    }

    /// `droppedDiagnostics` is documented as "How many diagnostics were found beyond the stored
    /// ones", but `URLScan` copies the count only when at least one diagnostic was stored: with
    /// `maxDiagnostics: 0` every problem is dropped and the count reads 0, so the URL looks clean.
    @Test func zeroDiagnosticCapStoresNothingButCountsEverything() {
        let url = LinkURL(parsing: "https://a/a b c", limits: URLLimits(maxDiagnostics: 0))
        #expect(url.diagnostics.isEmpty)
        #expect(url.droppedDiagnostics == 2)
    }
}
