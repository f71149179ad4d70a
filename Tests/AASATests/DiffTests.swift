import Testing
import AASA
import SeededRandom

/// `AASADiff`: every change of answer between two versions, with witnesses that the matchers of
/// both versions confirm.
struct DiffTests {
    static func diff(_ old: String, _ new: String) -> AASADiff.Report {
        let o = parsed(old)!, n = parsed(new)!
        let report = AASADiff.compare(old: o, new: n, appID: app, domain: domain)
        for c in report.changes {
            #expect(o.matcher(appID: app).match(url: c.witness, domain: domain).kind == c.old, "\(c)")
            #expect(n.matcher(appID: app).match(url: c.witness, domain: domain).kind == c.new, "\(c)")
        }
        return report
    }

    static func summary(_ r: AASADiff.Report) -> [String] {
        r.changes.map { "\($0.old.rawValue) -> \($0.new.rawValue) \($0.witness)" }
    }

    @Test func identicalFilesNoChange() {
        let text = fileText(components: #"[{"/": "/help", "exclude": true}, {"/": "/buy/*"}, {"/": "/s", "?": {"id": "?*"}}]"#)
        let r = Self.diff(text, text)
        #expect(r.complete)
        #expect(r.changes.isEmpty)
    }

    @Test func equivalentSpellingsNoChange() {
        let r = Self.diff(fileText(components: #"[{"/": "/x/"}, {"/": "//y/*", "?": "*"}]"#),
                          fileText(components: #"[{"/": "x"}, {"/": "/y/*"}]"#))
        #expect(r.complete)
        #expect(r.changes.isEmpty)
    }

    @Test func removedRoute() {
        let r = Self.diff(fileText(components: #"[{"/": "/buy/*"}, {"/": "/help"}]"#),
                          fileText(components: #"[{"/": "/buy/*"}]"#))
        #expect(Self.summary(r) == ["match -> no_match https://example.com/help"])
        #expect(r.changes[0].oldRule?.path == "/help" && r.changes[0].newRule == nil)
        #expect(r.changes[0].losesMatch)
    }

    @Test func addedExclusion() {
        let r = Self.diff(fileText(components: #"[{"/": "/buy/*"}]"#),
                          fileText(components: #"[{"/": "/buy/secret", "exclude": true}, {"/": "/buy/*"}]"#))
        #expect(Self.summary(r) == ["match -> exclude https://example.com/buy/secret"])
    }

    @Test func exclusionMovedAfterCatchAll() {
        let r = Self.diff(fileText(components: #"[{"/": "/admin/*", "exclude": true}, {"/": "*"}]"#),
                          fileText(components: #"[{"/": "*"}, {"/": "/admin/*", "exclude": true}]"#))
        #expect(Self.summary(r) == ["exclude -> match https://example.com/admin"])
        #expect(!r.changes[0].losesMatch)
    }

    @Test func changedCaseSensitiveDefault() {
        let r = Self.diff(fileText(components: #"[{"/": "/Buy"}]"#, defaults: #"{"caseSensitive": false}"#),
                          fileText(components: #"[{"/": "/Buy"}]"#))
        #expect(Self.summary(r) == ["match -> no_match https://example.com/buy"])
    }

    @Test func changedPercentEncodedDefault() {
        let r = Self.diff(fileText(components: #"[{"/": "/a b"}, {"/": "/a%20c"}]"#),
                          fileText(components: #"[{"/": "/a b"}, {"/": "/a%20c"}]"#, entryDefaults: #"{"percentEncoded": false}"#))
        // Decoded, /a%20c is the text "a%20c": the URL must write it /a%2520c.
        #expect(Set(Self.summary(r)) == ["match -> no_match https://example.com/a%20c", "no_match -> match https://example.com/a%20b",
                                         "no_match -> match https://example.com/a%2520c"])
        #expect(r.changes.first?.losesMatch == true)   // losses first
    }

    @Test func changedVariableValues() {
        let r = Self.diff(fileText(components: #"[{"/": "/menu/$(food)"}]"#, variables: #"{"food": ["pizza", "taco"]}"#),
                          fileText(components: #"[{"/": "/menu/$(food)"}]"#, variables: #"{"food": ["pizza", "sushi"]}"#))
        #expect(Set(Self.summary(r)) == ["match -> no_match https://example.com/menu/taco", "no_match -> match https://example.com/menu/sushi"])
    }

    @Test func noRulesForTheAppInOneVersion() {
        let other = #"{"applinks": {"details": [{"appIDs": ["OTHER12345.com.example.other"], "components": [{"/": "*"}]}]}}"#
        let r = Self.diff(fileText(components: #"[{"/": "/a", "exclude": true}, {"/": "*"}]"#), other)
        #expect(Set(Self.summary(r)) == ["exclude -> no_match https://example.com/a", "match -> no_match https://example.com/"])
    }

    @Test func queryDictionaryChange() {
        let r = Self.diff(fileText(components: #"[{"/": "/s", "?": {"id": "*"}}]"#),
                          fileText(components: #"[{"/": "/s", "?": {"id": "?*"}}]"#))
        #expect(Self.summary(r) == ["match -> no_match https://example.com/s"])
    }

    @Test func budgetMakesItIncomplete() {
        let old = fileText(components: #"[{"/": "*a*b*c*"}, {"/": "*c*b*a*"}, {"/": "/q"}]"#)
        let new = fileText(components: #"[{"/": "*a*b*c*"}, {"/": "*b*a*c*"}]"#)
        let small = AASADiff.compare(old: parsed(old)!, new: parsed(new)!, appID: app, domain: domain,
                                     budget: AASAReach.Budget(states: 10, combinations: 100))
        #expect(!small.complete)
        let full = Self.diff(old, new)
        #expect(full.complete)
        #expect(full.changes.count >= 2)
    }

    /// Generated pairs: a file against itself gives nothing; against a mutated copy, every
    /// sampled URL whose answer differs falls in a reported (old rule, new rule) class.
    @Test func generatedPairs() async {
        var rng = SeededGenerator(seed: 0xD1FF)
        var complete = 0, differing = 0
        for _ in 0..<40 {
            await Task.yield()   // long work: other tests get turns on the pool's threads
            let a = RuleGen.file(&rng, rules: Int.random(in: 1...5, using: &rng))
            let b = RuleGen.file(&rng, rules: Int.random(in: 1...5, using: &rng))
            #expect(Self.diff(a, a).changes.isEmpty)
            let r = Self.diff(a, b)
            guard r.complete else { continue }
            complete += 1
            let ma = parsed(a)!.matcher(appID: app), mb = parsed(b)!.matcher(appID: app)
            for _ in 0..<60 {
                let url = RuleGen.url(&rng)
                let x = ma.match(url: url, domain: domain), y = mb.match(url: url, domain: domain)
                guard x.kind != y.kind else { continue }
                differing += 1
                #expect(r.changes.contains { $0.oldRule == x.rule && $0.newRule == y.rule }, "\(url) \(x.kind) -> \(y.kind) not reported for \(a) vs \(b)")
            }
        }
        // The sampling must have looked at something: complete diffs, and URLs whose answer changed.
        #expect(complete >= 20 && differing >= 20, "complete \(complete), differing URLs \(differing)")
    }
}
