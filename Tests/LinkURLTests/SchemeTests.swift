import LinkURL
import Testing

/// The scheme is case-insensitive (RFC 3986 section 3.1).
struct SchemeTests {
    @Test(arguments: ["https://a/", "HTTPS://a/", "HtTpS://a/", "https:", "https:x"])
    func httpsSchemeIsRecognisedInAnyCase(text: String) {
        #expect(LinkURL(parsing: text).isHTTPS)
    }

    @Test(arguments: ["http://a/", "httpss://a/", "shttps://a/", "http5://a/", "https", "//https/", "/https:", "htt:ps://a"])
    func otherSchemesAndNoSchemeAreNotHTTPS(text: String) {
        #expect(!LinkURL(parsing: text).isHTTPS)
    }

    @Test func isHTTPSAgreesWithSchemeIs() {
        for text in ["https://a", "HTTPS://a", "http://a", "ftp://a", "hTtPs:", "httpx:"] {
            let url = LinkURL(parsing: text)
            #expect(url.isHTTPS == url.schemeIs("https"), "\(text)")
        }
    }

    @Test func schemeIsIgnoresCaseOnBothSides() {
        let url = LinkURL(parsing: "MailTo:a@b")
        #expect(url.schemeIs("mailto"))
        #expect(url.schemeIs("MAILTO"))
        #expect(!url.schemeIs("mail"))
        #expect(!url.schemeIs("mailtox"))
    }

    @Test func schemeIsIsFalseWithoutAScheme() {
        #expect(!LinkURL(parsing: "//a/").schemeIs("https"))
        #expect(!LinkURL(parsing: "").schemeIs(""))
    }

    @Test func schemeTextKeepsItsCase() {
        #expect(LinkURL(parsing: "HTTPS://a/").text(of: .scheme) == "HTTPS")
    }

    @Test(arguments: ["https://a/", "a:", "Z9+-.://h", "x-callback:", "myapp://x-callback-url/open"])
    func validSchemes(text: String) {
        #expect(LinkURL(parsing: text).hasValidScheme, "\(text)")
    }

    /// Whatever precedes the first ':' is scanned as the scheme; these are not valid ones.
    @Test(arguments: ["4://a/", "my_app://a/", "%://a/", "+a://a/", "my app://a", "\u{FF1F}://a", "caf\u{E9}://a", "//a/", "a/b:c", ""])
    func invalidOrMissingSchemes(text: String) {
        #expect(!LinkURL(parsing: text).hasValidScheme, "\(text)")
    }

    @Test func schemeMustBeFollowedByAColon() {
        let url = LinkURL(parsing: "https")
        #expect(url.scheme == nil)
        #expect(!url.isAbsolute)
        #expect(url.text(of: .path) == "https")
    }
}
