import LinkURL
import Testing

/// The port (RFC 3986 section 3.2.3: `port = *DIGIT`, decimal), limited to 0...65535.
struct PortTests {
    @Test func decimalPortIsReadAsANumber() {
        let url = LinkURL(parsing: "https://a:8443/")
        #expect(url.text(of: .port) == "8443")
        #expect(url.port == 8443)
        #expect(url.diagnostics.isEmpty)
    }

    @Test func portBoundsAreZeroAndSixtyFiveThousandFiveHundredThirtyFive() {
        #expect(LinkURL(parsing: "https://a:0/").port == 0)
        #expect(LinkURL(parsing: "https://a:65535/").port == 65535)
        #expect(LinkURL(parsing: "https://a:65535/").diagnostics.isEmpty)
    }

    @Test func emptyPortIsAllowedButHasNoNumber() {
        // port = *DIGIT: zero digits is valid syntax (section 6.2.3 even shows "http://example.com:/").
        let url = LinkURL(parsing: "https://a:/")
        #expect(url.portRange == 10..<10)
        #expect(url.port == nil)
        #expect(url.diagnostics.isEmpty)
    }

    @Test func noColonMeansNoPort() {
        let url = LinkURL(parsing: "https://a/")
        #expect(url.portRange == nil)
        #expect(url.port == nil)
    }

    @Test func portAboveSixtyFiveThousandFiveHundredThirtyFiveIsReportedAtItsFirstDigit() {
        let url = LinkURL(parsing: "https://a:65536/")
        #expect(url.diagnostics == [diag(.invalidPort, 10, .port)])
        #expect(url.port == nil)
    }

    @Test func hugePortDoesNotOverflow() {
        let url = LinkURL(parsing: "https://a:99999999999999999999999999/")
        #expect(url.diagnostics == [diag(.invalidPort, 10, .port)])
        #expect(url.port == nil)
    }

    @Test func nonDigitInThePortIsReportedAtThatByte() {
        let url = LinkURL(parsing: "https://a:8a/")
        #expect(url.diagnostics == [diag(.invalidPort, 11, .port)])
        #expect(url.port == nil)
    }

    @Test func signedPortIsInvalid() {
        #expect(LinkURL(parsing: "https://a:-1/").diagnostics == [diag(.invalidPort, 10, .port)])
        #expect(LinkURL(parsing: "https://a:+1/").diagnostics == [diag(.invalidPort, 10, .port)])
    }

    @Test func secondColonBelongsToThePort() {
        let url = LinkURL(parsing: "https://a:1:2/")
        #expect(url.text(of: .host) == "a")
        #expect(url.text(of: .port) == "1:2")
        #expect(url.diagnostics == [diag(.invalidPort, 11, .port)])
    }

    @Test func portAfterIPLiteral() {
        let url = LinkURL(parsing: "https://[::1]:70000/")
        #expect(url.text(of: .port) == "70000")
        #expect(url.diagnostics == [diag(.invalidPort, 14, .port)])
    }

    @Test func leadingZerosInAFiveDigitPortAreDecimal() {
        #expect(LinkURL(parsing: "https://a:08443/").port == 8443)
    }
}
