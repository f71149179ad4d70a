import Testing
import AASA

struct ExplainTests {
    @Test func eachRuleTriedInOrder() {
        let text = fileText(components: ##"[{"#": "nolink", "exclude": true}, {"/": "/buy/*", "?": {"id": "?*"}}, {"/": "/help/*"}, {"/": "/help/1"}]"##)
        let e = parsed(text)!.matcher(appID: app).explain(url: "https://example.com/help/1?x", domain: domain)
        #expect(e.urlProblem == nil)
        #expect(e.trials.count == 3)
        #expect(e.trials[0].failed == [.fragment])
        #expect(e.trials[1].failed == [.path, .queryItem("id")])
        #expect(e.trials[2].decided)
        #expect(e.result.kind == .match)
        #expect(e.result.component == 2)
        #expect(e.trials[1].description.contains("query item \"id\""))
    }

    @Test func noRuleDecides() {
        let text = fileText(components: #"[{"/": "/a"}, {"?": "x"}]"#)
        let e = parsed(text)!.matcher(appID: app).explain(url: "https://example.com/b", domain: domain)
        #expect(e.trials.map(\.failed) == [[.path], [.query]])
        #expect(e.result.kind == .noMatch)
    }

    @Test func urlProblems() {
        let m = parsed(fileText(components: "[{}]"))!.matcher(appID: app)
        #expect(m.explain(url: "http://example.com/", domain: domain).urlProblem == .notHTTPS)
        #expect(m.explain(url: "https://a@example.com/", domain: domain).urlProblem == .userinfo)
        #expect(m.explain(url: "https://example.com:80/", domain: domain).urlProblem == .port)
        #expect(m.explain(url: "https://example.org/", domain: domain).urlProblem == .hostMismatch)
        #expect(m.explain(url: "not a url", domain: domain).urlProblem == .unreadable)
        #expect(m.explain(url: "https://example.org/", domain: domain).trials.isEmpty)
    }
}

struct URLReadingTests {
    /// Hosts and schemes compare ASCII case-insensitively, byte by byte when both are ASCII;
    /// otherwise as lower-cased strings (canonically equivalent spellings are equal).
    @Test func hostsAndSchemesInsideAndOutsideASCII() {
        func problem(_ url: String, _ d: String = "example.com") -> AASAURLProblem? { AASAURLParts.read(url)!.problem(domain: d) }
        #expect(problem("hTTpS://ExAmPlE.CoM/a") == nil)
        #expect(problem("https://example.co/a") == .hostMismatch)
        #expect(problem("https://example.com./a") == .hostMismatch)
        #expect(problem("https://exampla.com/a") == .hostMismatch)
        #expect(problem("https://example.com/a", "EXAMPLE.COM") == nil)
        #expect(problem("httpz://example.com/a") == .notHTTPS)
        #expect(problem("https://exämple.com/a", "exämple.com") == nil)
        #expect(problem("https://EXäMPLE.com/a", "exämple.com") == nil)
        #expect(problem("https://exÄmple.com/a", "exämple.com") == .hostMismatch)
        #expect(problem("https://exa\u{308}mple.com/a", "exämple.com") == nil)
    }

    @Test func parts() {
        let u = AASAURLParts.read("https://u:p@[::1]:443/a/b?c=d?e#f#g")!
        #expect(u.userinfo == "u:p")
        #expect(u.host == "[::1]")
        #expect(u.port == "443")
        #expect(u.path == Array("/a/b".utf8))
        #expect(u.query == Array("c=d?e".utf8))
        #expect(u.fragment == Array("f#g".utf8))
        let bare = AASAURLParts.read("https://example.com")!
        #expect(bare.path.isEmpty && bare.query == nil && bare.fragment == nil)
        #expect(AASAURLParts.read("https://example.com?")!.query == [])
        #expect(AASAURLParts.read("mailto:x@y") == nil)
        #expect(AASAURLParts.read("1https://x") == nil)
    }
}

struct EntitlementTests {
    func entry(_ host: String, _ entries: [String]) -> String? { AASAEntitlements.entry(for: host, in: entries) }

    @Test func exactHosts() {
        #expect(entry("example.com", ["applinks:example.com"]) == "applinks:example.com")
        #expect(entry("EXAMPLE.com", ["applinks:example.COM"]) == "applinks:example.COM")
        #expect(entry("www.example.com", ["applinks:example.com"]) == nil)
        #expect(entry("example.com", ["webcredentials:example.com"]) == nil)
    }

    @Test func wildcardsAreSubdomainsOnly() {
        let w = ["applinks:*.example.com"]
        #expect(entry("www.example.com", w) == "applinks:*.example.com")
        #expect(entry("a.b.example.com", w) == "applinks:*.example.com")
        #expect(entry("example.com", w) == nil)
        #expect(entry("badexample.com", w) == nil)
        #expect(entry(".example.com", w) == nil)
    }

    /// Entries are read by bytes when ASCII and by characters otherwise; both readings agree
    /// with what the characters say.
    @Test func queriesAndHostsOutsideASCII() {
        #expect(AASAEntitlements.read("applinks:example.com?mode=developer")?.mode == "developer")
        #expect(AASAEntitlements.read("applinks:example.com?mode=other") == nil)
        #expect(AASAEntitlements.read("applinks:exämple.com?mode=managed")?.mode == "managed")
        #expect(AASAEntitlements.read("applinks:exämple.com?mode=managed")?.host == "exämple.com")
        // A combining mark after '?' makes one character that is not "?": no query is read.
        // The entry is still read (not refused): its host runs to the end, '?' and all.
        let combined = AASAEntitlements.read("applinks:example.com?\u{301}mode=managed")
        #expect(combined != nil)
        #expect(combined?.mode == nil)
        #expect(combined?.host == "example.com?\u{301}mode=managed")
        // Hosts compare ASCII case-insensitively; outside ASCII, as strings (canonically
        // equivalent spellings are the same host).
        #expect(entry("EXÄMPLE.com", ["applinks:exÄmple.com"]) == "applinks:exÄmple.com")
        #expect(entry("exa\u{301}mple.com", ["applinks:exámple.com"]) == "applinks:exámple.com")
        #expect(entry("exa\u{301}mple.com", ["applinks:exAmple.com"]) == nil)
        #expect(entry(String(repeating: "a", count: 100_000) + ".com", ["applinks:" + String(repeating: "A", count: 100_000) + ".COM"]) != nil)
    }

    @Test func longestWins() {
        let list = ["applinks:*.example.com", "applinks:www.example.com?mode=developer", "applinks:*.www.example.com"]
        #expect(entry("www.example.com", list) == "applinks:www.example.com?mode=developer")
        #expect(entry("a.www.example.com", list) == "applinks:*.www.example.com")
        #expect(entry("b.example.com", list) == "applinks:*.example.com")
        // Same length: the first listed.
        #expect(entry("example.com", ["applinks:example.com?mode=managed", "applinks:example.com"]) == "applinks:example.com?mode=managed")
        // `*.` counts: "*.ab.com" (8) beats "x.ab.com"? No: they are equal, so the first listed.
        #expect(entry("x.ab.com", ["applinks:*.ab.com", "applinks:x.ab.com"]) == "applinks:*.ab.com")
    }

    @Test func modesAndMalformedEntries() {
        for mode in ["developer", "managed", "developer+managed"] {
            #expect(entry("example.com", ["applinks:example.com?mode=\(mode)"]) != nil)
            #expect(AASAEntitlements.read("applinks:example.com?mode=\(mode)")?.mode == mode)
        }
        for bad in ["applinks:example.com/", "applinks:example.com/path", "applinks:example.com:443", "applinks:example.com?mode=other",
                    "applinks:example.com?x=1", "applinks:", "applinks:*example.com", "applinks:a.*.com", "Applinks:example.com"] {
            #expect(entry("example.com", [bad]) == nil, "\(bad)")
            #expect(AASAEntitlements.read(bad) == nil, "\(bad)")
        }
    }
}
