import LinkURL
import Testing

/// Splitting into scheme, authority, path, query and fragment (RFC 3986 section 3 and appendix B).
struct ComponentSplitTests {
    @Test func splitsTheSection3ExampleIntoAllFiveComponents() {
        #expect(split("foo://example.com:8042/over/there?name=ferret#nose") == Split(
            scheme: "foo", authority: "example.com:8042", host: "example.com", port: "8042",
            path: "/over/there", query: "name=ferret", fragment: "nose"))
    }

    @Test func splitsTheAppendixBExample() {
        // Appendix B: $2 = http, $4 = www.ics.uci.edu, $5 = /pub/ietf/uri/, $7 undefined, $9 = Related.
        #expect(split("http://www.ics.uci.edu/pub/ietf/uri/#Related") == Split(
            scheme: "http", authority: "www.ics.uci.edu", host: "www.ics.uci.edu",
            path: "/pub/ietf/uri/", query: nil, fragment: "Related"))
    }

    @Test func schemeWithoutAuthorityLeavesTheRestAsPath() {
        #expect(split("mailto:John.Doe@example.com") == Split(scheme: "mailto", path: "John.Doe@example.com"))
        #expect(split("urn:oasis:names:specification:docbook:dtd:xml:4.1.2")
            == Split(scheme: "urn", path: "oasis:names:specification:docbook:dtd:xml:4.1.2"))
        #expect(split("tel:+1-816-555-1212") == Split(scheme: "tel", path: "+1-816-555-1212"))
        #expect(split("news:comp.infosystems.www.servers.unix") == Split(scheme: "news", path: "comp.infosystems.www.servers.unix"))
    }

    @Test func queryMayHoldQuestionMarksAndSlashes() {
        // Section 1.1.2 example; section 3.4: query = *( pchar / "/" / "?" ).
        let url = LinkURL(parsing: "ldap://[2001:db8::7]/c=GB?objectClass?one")
        #expect(split("ldap://[2001:db8::7]/c=GB?objectClass?one") == Split(
            scheme: "ldap", authority: "[2001:db8::7]", host: "[2001:db8::7]", path: "/c=GB", query: "objectClass?one"))
        #expect(url.diagnostics.isEmpty)
    }

    @Test func fragmentMayHoldQuestionMarksAndSlashes() {
        #expect(split("https://a/p#x?y/z") == Split(scheme: "https", authority: "a", host: "a", path: "/p", fragment: "x?y/z"))
    }

    @Test func emptyQueryAndFragmentArePresentButEmpty() {
        // "http://a/?#" has a query and a fragment, both empty; "http://a/" has neither (section 6.2.3).
        let both = LinkURL(parsing: "http://a/?#")
        #expect(both.query == 10..<10)
        #expect(both.fragment == 11..<11)
        let neither = LinkURL(parsing: "http://a/")
        #expect(neither.query == nil)
        #expect(neither.fragment == nil)
    }

    @Test func hashBeforeQuestionMarkMakesEverythingAfterItTheFragment() {
        #expect(split("https://a/p#f?q") == Split(scheme: "https", authority: "a", host: "a", path: "/p", fragment: "f?q"))
    }

    @Test func componentRangesAreByteOffsetsWithoutDelimiters() {
        let url = LinkURL(parsing: "https://user@app.example:8443/logout?force=1#top")
        #expect(url.scheme == 0..<5)
        #expect(url.authority == 8..<29)
        #expect(url.userinfo == 8..<12)
        #expect(url.host == 13..<24)
        #expect(url.portRange == 25..<29)
        #expect(url.path == 29..<36)
        #expect(url.query == 37..<44)
        #expect(url.fragment == 45..<48)
        #expect(url.port == 8443)
        #expect(url.isAbsolute)
        #expect(url.diagnostics.isEmpty)
    }

    @Test func rangeOfComponentMatchesTheNamedProperties() {
        let url = LinkURL(parsing: "https://user@app.example:8443/logout?force=1#top")
        #expect(url.range(of: .scheme) == url.scheme)
        #expect(url.range(of: .userinfo) == url.userinfo)
        #expect(url.range(of: .host) == url.host)
        #expect(url.range(of: .port) == url.portRange)
        #expect(url.range(of: .path) == url.path)
        #expect(url.range(of: .query) == url.query)
        #expect(url.range(of: .fragment) == url.fragment)
    }

    @Test func componentsWorkOnNonASCIIBytesByByteOffset() {
        // "é" is two bytes: the query starts at byte 13, although it is the 13th character.
        let url = LinkURL(parsing: "https://a/é?x#f")
        #expect(url.path == 9..<12)
        #expect(url.query == 13..<14)
        #expect(url.fragment == 15..<16)
    }

    @Test func emptyInputIsAnEmptyRelativeReference() {
        let url = LinkURL(parsing: "")
        #expect(url.path == 0..<0)
        #expect(url.scheme == nil && url.authority == nil && url.query == nil && url.fragment == nil)
        #expect(!url.isAbsolute)
        #expect(url.diagnostics.isEmpty)
    }

    @Test func splitFromBytesEqualsSplitFromString() {
        let text = "https://u@h:1/p?q#f"
        #expect(LinkURL(parsing: Array(text.utf8)) == LinkURL(parsing: text))
    }
}

/// Relative references (RFC 3986 section 4.2) and the section 5.4 examples.
struct RelativeReferenceTests {
    @Test func networkPathReferenceHasAuthorityButNoScheme() {
        #expect(split("//g/x?y") == Split(authority: "g", host: "g", path: "/x", query: "y"))
        #expect(!LinkURL(parsing: "//g").isAbsolute)
    }

    @Test func absolutePathReference() {
        #expect(split("/g/h") == Split(path: "/g/h"))
    }

    @Test func relativePathReference() {
        #expect(split("g;x=1/../y") == Split(path: "g;x=1/../y"))
        #expect(split("./g:h") == Split(path: "./g:h"))
    }

    @Test func colonAfterSlashIsNotASchemeDelimiter() {
        #expect(split("a/b:c") == Split(path: "a/b:c"))
    }

    @Test func colonAfterQuestionMarkOrHashIsNotASchemeDelimiter() {
        #expect(split("?a:b") == Split(path: "", query: "a:b"))
        #expect(split("#a:b") == Split(path: "", fragment: "a:b"))
    }

    @Test func queryOnlyAndFragmentOnlyReferences() {
        #expect(split("?y") == Split(path: "", query: "y"))
        #expect(split("#s") == Split(path: "", fragment: "s"))
        #expect(split("g?y#s") == Split(path: "g", query: "y", fragment: "s"))
    }

    @Test func singleSlashAfterSchemeIsAPathNotAnAuthority() {
        #expect(split("http:/x") == Split(scheme: "http", path: "/x"))
        #expect(split("http:g") == Split(scheme: "http", path: "g"))
    }

    /// Every reference of RFC 3986 section 5.4.1 and 5.4.2 is a valid URI reference.
    @Test(arguments: [
        "g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s", "",
        ".", "./", "..", "../", "../g", "../..", "../../", "../../g", "../../../g", "../../../../g",
        "/./g", "/../g", "g.", ".g", "g..", "..g", "./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y",
        "g;x=1/../y", "g?y/./x", "g?y/../x", "g#s/./x", "g#s/../x", "http:g",
    ])
    func section5ExamplesHaveNoDiagnostics(reference: String) {
        let url = LinkURL(parsing: reference)
        #expect(url.diagnostics == [])
        #expect(url.recomposed() == Array(reference.utf8))
    }

    /// The section 1.1.2 examples are valid URIs.
    @Test(arguments: [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt", "http://www.ietf.org/rfc/rfc2396.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one", "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix", "tel:+1-816-555-1212", "telnet://192.0.2.16:80/",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    ])
    func section1ExamplesHaveNoDiagnostics(uri: String) {
        let url = LinkURL(parsing: uri)
        #expect(url.diagnostics == [])
        #expect(url.isAbsolute)
    }
}
