import LinkURL
import Testing

/// userinfo and host (RFC 3986 sections 3.2, 3.2.1, 3.2.2).
struct AuthorityTests {
    @Test func userinfoIsEverythingBeforeTheAt() {
        #expect(split("https://user:pass@host/") == Split(
            scheme: "https", authority: "user:pass@host", userinfo: "user:pass", host: "host", path: "/"))
        #expect(LinkURL(parsing: "https://user:pass@host/").diagnostics.isEmpty)
    }

    @Test func emptyUserinfoIsPresent() {
        let url = LinkURL(parsing: "https://@host/")
        #expect(url.userinfo == 8..<8)
        #expect(url.text(of: .host) == "host")
    }

    @Test func noAtMeansNoUserinfo() {
        #expect(LinkURL(parsing: "https://host/").userinfo == nil)
    }

    @Test func hostStartsAfterTheLastAt() {
        // userinfo may not hold '@' (section 3.2.1), so the host is what follows the last one.
        let url = LinkURL(parsing: "https://a@b@c/")
        #expect(url.text(of: .userinfo) == "a@b")
        #expect(url.text(of: .host) == "c")
    }

    @Test func earlierAtIsAnInvalidCharacterInTheUserinfo() {
        let url = LinkURL(parsing: "https://a@b@c/")
        #expect(url.diagnostics == [diag(.invalidCharacter, 9, .userinfo)])
    }

    @Test func colonInUserinfoDoesNotStartAPort() {
        let url = LinkURL(parsing: "https://u:p@h:81/")
        #expect(url.text(of: .userinfo) == "u:p")
        #expect(url.text(of: .host) == "h")
        #expect(url.port == 81)
    }

    @Test func atInPathOrQueryIsNotUserinfo() {
        // The authority ends at the first '/', '?' or '#' (section 3.2).
        #expect(split("https://h/a@b") == Split(scheme: "https", authority: "h", host: "h", path: "/a@b"))
        #expect(split("https://h?a@b") == Split(scheme: "https", authority: "h", host: "h", path: "", query: "a@b"))
    }

    @Test func hostMayBePercentEncodedAndUseSubDelims() {
        // reg-name = *( unreserved / pct-encoded / sub-delims )
        let url = LinkURL(parsing: "https://ex%41mple!$&'()*+,;=-._~/")
        #expect(url.text(of: .host) == "ex%41mple!$&'()*+,;=-._~")
        #expect(url.diagnostics.isEmpty)
    }

    @Test func ipv4AddressIsAnOrdinaryHost() {
        #expect(split("telnet://192.0.2.16:80/") == Split(
            scheme: "telnet", authority: "192.0.2.16:80", host: "192.0.2.16", port: "80", path: "/"))
    }

    @Test func emptyAuthorityHasAnEmptyHost() {
        let url = LinkURL(parsing: "https:///p")
        #expect(url.authority == 8..<8)
        #expect(url.host == 8..<8)
        #expect(url.path == 8..<10)
    }
}

/// Bracketed hosts: IPv6 and IPvFuture literals (section 3.2.2).
struct IPLiteralTests {
    @Test(arguments: [
        "[::]", "[::1]", "[1::]", "[2001:db8::7]", "[1:2:3:4:5:6:7:8]", "[::2:3:4:5:6:7:8]", "[1:2:3:4:5:6:7::]",
        "[1:2:3:4:5:6::8]", "[1::8]", "[FE80::A]", "[fe80::a]", "[::ffff:192.0.2.1]", "[::1.2.3.4]",
        "[1:2:3:4:5:6:1.2.3.4]", "[1::2:255.255.255.255]", "[0:0:0:0:0:0:0:0]", "[abcd:ef01:2345:6789:abcd:ef01:2345:6789]",
    ])
    func validIPv6LiteralIsTheHost(literal: String) {
        let url = LinkURL(parsing: "https://\(literal):8080/p")
        #expect(url.text(of: .host) == literal)
        #expect(url.port == 8080)
        #expect(url.text(of: .path) == "/p")
        #expect(url.diagnostics == [])
    }

    @Test(arguments: [
        "[]", "[1]", "[1:2:3:4:5:6:7]", "[1:2:3:4:5:6:7:8:9]", "[1::2::3]", "[:1::]", "[1:]", "[::1:]", "[:::]",
        "[12345::]", "[g::]", "[1:2:3:4:5:6:7:8::]", "[1::2:3:4:5:6:7:8]", "[::1.2.3]", "[::1.2.3.4.5]",
        "[::256.0.0.1]", "[::01.2.3.4]", "[1.2.3.4]", "[::1.2.3.4:1]", "[1:2:3:4:5:6:7:1.2.3.4]", "[fe80::1%25en0]",
        "[v1]", "[v1.]", "[v.x]", "[vg.x]", "[v1.x%41]", "[v1.x y]",
    ])
    func invalidIPLiteralIsReportedAtItsBracket(literal: String) {
        let url = LinkURL(parsing: "https://\(literal)/")
        #expect(url.text(of: .host) == literal)
        #expect(url.diagnostics.contains(diag(.invalidIPLiteral, 8, .host)))
    }

    @Test(arguments: ["[v1.fe80::a+en1]", "[V7.x]", "[vFF.a-b_c~d!$&'()*+,;=:]"])
    func validIPvFutureLiteralIsTheHost(literal: String) {
        let url = LinkURL(parsing: "https://\(literal)/")
        #expect(url.text(of: .host) == literal)
        #expect(url.diagnostics == [])
    }

    @Test func colonsInsideBracketsDoNotStartThePort() {
        let url = LinkURL(parsing: "https://[::1]/")
        #expect(url.text(of: .host) == "[::1]")
        #expect(url.portRange == nil)
    }

    @Test func unclosedBracketTakesTheRestOfTheAuthority() {
        let url = LinkURL(parsing: "https://[::1/p")
        #expect(url.text(of: .host) == "[::1")
        #expect(url.text(of: .path) == "/p")
        #expect(url.diagnostics == [diag(.invalidIPLiteral, 8, .host)])
    }

    @Test func byteAfterTheClosingBracketMustBeAColon() {
        let url = LinkURL(parsing: "https://[::1]x/")
        #expect(url.text(of: .host) == "[::1]")
        #expect(url.diagnostics == [diag(.invalidCharacter, 13, .host)])
    }

    @Test func ipLiteralAfterUserinfo() {
        let url = LinkURL(parsing: "https://u@[::1]:1/")
        #expect(url.text(of: .userinfo) == "u")
        #expect(url.text(of: .host) == "[::1]")
        #expect(url.port == 1)
        #expect(url.diagnostics.isEmpty)
    }
}

/// An authority with an empty host: legal reg-name, reported as `empty-host` except for `file:`.
struct EmptyHostTests {
    @Test func emptyHostIsReportedAtTheHostOffset() {
        #expect(LinkURL(parsing: "https:///x").diagnostics == [diag(.emptyHost, 8, .host)])
        #expect(LinkURL(parsing: "https://").diagnostics == [diag(.emptyHost, 8, .host)])
    }

    @Test func emptyHostAfterUserinfo() {
        let url = LinkURL(parsing: "https://u@/x")
        #expect(url.host == 10..<10)
        #expect(url.diagnostics == [diag(.emptyHost, 10, .host)])
    }

    @Test func emptyHostBeforeAPort() {
        let url = LinkURL(parsing: "https://:80/")
        #expect(url.host == 8..<8)
        #expect(url.port == 80)
        #expect(url.diagnostics == [diag(.emptyHost, 8, .host)])
    }

    @Test func emptyHostInANetworkPathReference() {
        #expect(LinkURL(parsing: "///x").diagnostics == [diag(.emptyHost, 2, .host)])
    }

    @Test(arguments: ["file:///etc/hosts", "FILE:///etc/hosts", "File://"])
    func fileSchemeMayHaveAnEmptyHost(uri: String) {
        let url = LinkURL(parsing: uri)
        #expect(url.host?.isEmpty == true)
        #expect(url.diagnostics == [])
    }

    @Test func schemesThatMerelyStartWithFileAreNotExempt() {
        #expect(LinkURL(parsing: "files:///x").diagnostics == [diag(.emptyHost, 8, .host)])
        #expect(LinkURL(parsing: "fil:///x").diagnostics == [diag(.emptyHost, 6, .host)])
    }

    @Test func emptyHostIsNotASyntaxDiagnostic() {
        let url = LinkURL(parsing: "https:///x")
        #expect(url.scan.syntaxDiagnostics.isEmpty)
        #expect(url.scan.hasNoHost)
    }

    @Test func hasNoHostIsTrueWithoutAnAuthorityAndFalseWithAHost() {
        #expect(LinkURL(parsing: "mailto:a@b").scan.hasNoHost)
        #expect(!LinkURL(parsing: "https://a/").scan.hasNoHost)
    }
}

/// Host normalization (section 6.2.2.1: the host is case-insensitive).
struct NormalizedHostTests {
    @Test func hostIsLowerCased() {
        #expect(LinkURL(parsing: "HTTPS://App.EXAMPLE:8443/Path").normalizedHost == "app.example")
    }

    @Test func ipLiteralIsLowerCased() {
        #expect(LinkURL(parsing: "https://[FE80::AB]/").normalizedHost == "[fe80::ab]")
    }

    @Test func otherComponentsAreUntouched() {
        let url = LinkURL(parsing: "https://User@Host/Path?Q#F")
        #expect(url.normalizedHost == "host")
        #expect(url.text(of: .userinfo) == "User")
        #expect(url.text(of: .path) == "/Path")
    }

    @Test func nonASCIIBytesAreKept() {
        #expect(LinkURL(parsing: "https://ÉX/").normalizedHost == "Éx")
    }

    @Test func noAuthorityMeansNoHost() {
        #expect(LinkURL(parsing: "mailto:A@B").normalizedHost == nil)
    }

    @Test func emptyHostNormalizesToEmpty() {
        #expect(LinkURL(parsing: "file:///x").normalizedHost == "")
    }
}
