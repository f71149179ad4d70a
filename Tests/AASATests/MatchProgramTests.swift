import Testing
import AASA
import SeededRandom

/// The program `match` runs (shared path tables over URL bytes) against the rules tried one by
/// one (what `explain` does): the same answer for every file and URL, whatever the layout.
struct MatchProgramTests {
    static let authorities = ["https://example.com", "HTTPS://Example.COM", "https://example.com:443", "https://example.com:",
                              "https://example.com:444", "https://u@example.com", "http://example.com", "https://example.org",
                              "https://[example.com]", "https:example.com", "https://example.com.", "ht tps://example.com"]
    static let rawPieces = ["é", "É", "/ü/", "%C3%A9", "%c3%a9", "%", "%4", "%zz", "+", "?", "#", "a?b#c", "&&", "="]

    /// A URL near the generated rules, with the authority and raw non-ASCII text varied too.
    static func url(_ rng: inout SeededGenerator) -> String {
        var url = RuleGen.url(&rng)
        if Int.random(in: 0..<4, using: &rng) == 0 {
            url = authorities.randomElement(using: &rng)! + url.dropFirst("https://example.com".count)
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            let at = url.index(url.startIndex, offsetBy: Int.random(in: min(20, url.count)...url.count, using: &rng))
            url.insert(contentsOf: rawPieces.randomElement(using: &rng)!, at: at)
        }
        return url
    }

    /// Synchronous work of a minute in a debug build would hold one of the test pool's two
    /// threads on a two-core machine: it yields after each file, so that tests waiting on a
    /// deadline elsewhere get their turn.
    @Test(arguments: [AASADFA.sharedStateBudget, 6, 1])
    func programAgreesWithRuleByRule(budget: Int) async {
        var rng = SeededGenerator(seed: 0x5EED + UInt64(budget))
        var decided = 0, checked = 0
        for _ in 0..<70 {
            await Task.yield()
            let text = RuleGen.file(&rng, rules: Int.random(in: 1...14, using: &rng))
            guard let file = parsed(text) else { Issue.record("unreadable \(text)"); continue }
            let matcher = AASAMatcher(file: file, appID: app, tableBudget: budget)
            for _ in 0..<60 {
                let url = Self.url(&rng)
                let fast = matcher.match(url: url, domain: domain)
                let slow = matcher.matchRuleByRule(url: url, domain: domain)
                let explained = matcher.explain(url: url, domain: domain).result
                #expect(fast == slow, "\(url) in \(text): program \(fast.kind) \(fast.pattern ?? "-"), rules \(slow.kind) \(slow.pattern ?? "-")")
                #expect(fast == explained, "\(url) in \(text)")
                checked += 1
                if fast.kind != .noMatch { decided += 1 }
            }
        }
        // The generated URLs must exercise both answers.
        #expect(decided > checked / 5 && decided < checked * 4 / 5, "\(decided) of \(checked) decided")
    }

    @Test func layoutSharesTablesWhereItCan() throws {
        // Prefix rules share one table; a star inside a pattern gets its own; decoded rules
        // read the decoded path in a table of their own.
        let text = fileText(components: """
            [{"/": "/post/*"}, {"/": "/profile/*"}, {"/": "/tx/?", "caseSensitive": false}, {"/": "/a/*/b"},
             {"/": "/caf\\u00e9/*", "percentEncoded": false}, {"#": "no", "exclude": true}]
            """)
        let file = try #require(parsed(text))
        let layout = AASAMatcher(file: file, appID: app).layout
        #expect(layout.tables == 3)   // {post, profile, tx, #-rule's `*`}, {a/*/b}, {café}
        #expect(layout.tabulated == 6)
        #expect(layout.ruleByRule == 0)
        let alone = AASAMatcher(file: file, appID: app, tableBudget: 1).layout
        #expect(alone.tables == 0 && alone.ruleByRule == 6)
        let m = AASAMatcher(file: file, appID: app)
        #expect(m.match(url: "https://example.com/TX/1", domain: domain).kind == .match)
        #expect(m.match(url: "https://example.com/caf%C3%A9/x", domain: domain).component == 4)
        #expect(m.match(url: "https://example.com/post/1#no", domain: domain).kind == .match)
        #expect(m.match(url: "https://example.com/other#no", domain: domain).kind == .exclude)
        #expect(m.match(url: "https://example.com/a/x/y/b", domain: domain).component == 3)
    }

    @Test func rawNonASCIIBytesReadAsTheirEscapes() throws {
        // Under percentEncoded (the default) a raw é is read as %C3%A9: the escaped pattern
        // matches it, the Unicode one never does; decoded, both spellings are é.
        let text = fileText(components: #"[{"/": "/caf%C3%A9"}, {"/": "/caf\u00e9"}, {"/": "/x/caf\u00e9", "percentEncoded": false}]"#)
        let m = try #require(parsed(text)).matcher(appID: app)
        #expect(m.match(url: "https://example.com/café", domain: domain).component == 0)
        #expect(m.match(url: "https://example.com/x/café", domain: domain).component == 2)
        #expect(m.match(url: "https://example.com/x/caf%C3%A9", domain: domain).component == 2)
        #expect(m.match(url: "https://example.com/caf%c3%a9", domain: domain).kind == .noMatch)
    }

    @Test func queryItemsAreReadInPlace() throws {
        let text = fileText(components: #"[{"/": "*", "?": {"id": "$(digit)*", "Mode": "x"}, "caseSensitive": false}]"#)
        let m = try #require(parsed(text)).matcher(appID: app)
        func k(_ q: String) -> AASAMatchKind { m.match(url: "https://example.com/p?" + q, domain: domain).kind }
        #expect(k("id=1&mode=X") == .match)
        #expect(k("ID=12&MODE=x&id=3") == .match)
        #expect(k("id=1&mode=X&id=a") == .noMatch)     // every occurrence must match
        #expect(k("mode=x") == .noMatch)                // absent reads as empty, which $(digit)* refuses
        #expect(k("id=1&mode") == .noMatch)             // an item without = has an empty value
        #expect(k("id=1&&mode=x&") == .match)           // empty items are items with empty names
    }
}
