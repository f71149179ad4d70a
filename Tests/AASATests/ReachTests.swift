import Testing
import AASA

/// `AASAReach`: each rule's witness URL decides it; dead rules name what covers them.
struct ReachTests {
    static func report(_ text: String, budget: AASAReach.Budget = .standard) -> AASAReach.Report {
        AASAReach.analyze(parsed(text)!, appID: app, domain: domain, budget: budget)
    }

    /// Every witness is decided by its own rule (the property the reports rest on).
    static func checkWitnesses(_ file: AASAFile, appID: String, domain: String, budget: AASAReach.Budget = .standard,
                               sourceLocation: SourceLocation = #_sourceLocation) -> AASAReach.Report {
        let report = AASAReach.analyze(file, appID: appID, domain: domain, budget: budget)
        let matcher = file.matcher(appID: appID)
        for r in report.rules {
            if case .reachable(let url) = r.verdict {
                #expect(matcher.match(url: url, domain: domain).rule == r.rule, "\(url) for \(r.rule.text)", sourceLocation: sourceLocation)
            }
            if case .undecided(let reason) = r.verdict {
                #expect(!report.complete, "undecided in a complete report: \(reason)", sourceLocation: sourceLocation)
            }
        }
        return report
    }

    @Test func simpleRoutes() {
        let r = Self.report(fileText(components: #"[{"/": "/buy/*"}, {"/": "/help", "exclude": true}, {"/": "*"}]"#))
        #expect(r.complete)
        #expect(r.rules.map(\.verdict) == [
            .reachable(witness: "https://example.com/buy"),
            .reachable(witness: "https://example.com/help"),
            .reachable(witness: "https://example.com/"),
        ])
    }

    @Test func deadRuleNamesItsCover() {
        let r = Self.report(fileText(components: #"[{"/": "/a/*"}, {"/": "/b"}, {"/": "/a/x"}, {"/": "/b/", "exclude": true}]"#))
        #expect(r.rules[2].verdict == .dead(coveredBy: [0]))
        #expect(r.rules[3].verdict == .dead(coveredBy: [1]))
    }

    @Test func deadByUnionOfEarlierRules() {
        // No earlier rule covers /a* alone; together they do (the pairwise analysis cannot say so).
        let r = Self.report(fileText(components: #"[{"/": "/?"}, {"/": "/??*", "exclude": true}, {"/": "/*"}, {"/": "/a*"}]"#))
        #expect(r.rules[2].verdict == .reachable(witness: "https://example.com/"))
        #expect(r.rules[3].verdict == .dead(coveredBy: [0, 1]))
    }

    @Test func unionCover() {
        let r = Self.report(fileText(components: #"[{"/": "/x", "?": "a*"}, {"/": "/x", "?": "?*"}, {"/": "/x", "?": "ab"}, {"/": "/x"}]"#))
        #expect(r.rules[2].verdict == .dead(coveredBy: [0]))
        #expect(r.rules[3].verdict == .reachable(witness: "https://example.com/x"))
        let s = Self.report(fileText(components: ##"[{"/": "/x", "?": ""}, {"/": "/x", "?": "?*"}, {"/": "/x", "#": "f"}]"##))
        #expect(s.rules[2].verdict == .dead(coveredBy: [0, 1]))
    }

    @Test func ruleMatchingNothing() {
        let r = Self.report(fileText(components: #"[{"/": "/caf\u00e9"}]"#))
        #expect(r.rules[0].verdict == .dead(coveredBy: []))
    }

    @Test func flagsAndEncodings() {
        let text = fileText(components: #"""
            [{"/": "/A", "caseSensitive": false, "exclude": true}, {"/": "/a"}, {"/": "/a b", "percentEncoded": false},
             {"/": "/a%20b"}, {"/": "/caf\u00e9", "percentEncoded": false}, {"/": "/CAF\u00c9", "percentEncoded": false, "caseSensitive": false},
             {"/": "/x/*", "percentEncoded": false}, {"/": "/x%2Fy"}]
            """#)
        let file = parsed(text)!
        let r = Self.checkWitnesses(file, appID: app, domain: domain)
        #expect(r.complete)
        #expect(r.rules[1].verdict == .dead(coveredBy: [0]))
        #expect(r.rules[2].verdict == .reachable(witness: "https://example.com/a%20b"))
        #expect(r.rules[3].verdict == .dead(coveredBy: [2]))
        #expect(r.rules[4].verdict == .reachable(witness: "https://example.com/caf%C3%A9"))
        if case .reachable(let url) = r.rules[5].verdict { #expect(url.hasPrefix("https://example.com/")) } else { Issue.record("\(r.rules[5].verdict)") }
        #expect(r.rules[7].verdict == .dead(coveredBy: [6]))
    }

    @Test func queryDictionary() {
        let text = fileText(components: #"""
            [{"/": "/s", "?": {"id": "?*"}}, {"/": "/s", "?": {"id": "", "q": "1"}}, {"/": "/s", "?": {"id": ""}}, {"/": "/s"}]
            """#)
        let r = Self.checkWitnesses(parsed(text)!, appID: app, domain: domain)
        #expect(r.complete)
        #expect(r.rules[0].verdict == .reachable(witness: "https://example.com/s?id=a"))
        #expect(r.rules[1].verdict == .reachable(witness: "https://example.com/s?q=1"))
        #expect(r.rules[2].verdict == .reachable(witness: "https://example.com/s"))
        // Every occurrence must match: id=a&id= is not decided by rule 0 nor 2.
        if case .reachable(let url) = r.rules[3].verdict { #expect(url.contains("?")) } else { Issue.record("\(r.rules[3].verdict)") }
    }

    @Test func budgetGivesUndecided() {
        let text = fileText(components: #"[{"/": "*a*b*c*d*"}, {"/": "*b*a*d*c*"}, {"/": "*c*d*a*b*"}, {"/": "/zz"}, {"/": "/z*z"}]"#)
        let r = Self.report(text, budget: AASAReach.Budget(states: 20, combinations: 1_000))
        #expect(!r.complete)
        #expect(r.rules.contains { if case .undecided = $0.verdict { true } else { false } })
        let full = Self.report(text)
        #expect(full.complete)
        #expect(!full.rules.contains { if case .undecided = $0.verdict { true } else { false } })
        // The cell bound stops a walk the state bound allows: fewer cells than the states the
        // full walk keeps times their slots.
        let cells = Self.report(text, budget: AASAReach.Budget(cells: 200))
        #expect(!cells.complete && cells.statesExplored < full.statesExplored, "\(cells.statesExplored) of \(full.statesExplored)")
        #expect(cells.rules.contains { if case .undecided(let reason) = $0.verdict { reason.contains("200 cells") } else { false } })
        for (a, b) in zip(cells.rules, full.rules) {
            if case .reachable = a.verdict { #expect(a.verdict == b.verdict, "a witness found within the bound is the full walk's") }
        }
    }
}

extension ReachTests {
    @Test func trailingSlashIsNotAPathCharacter() {
        // /h/ reads as /h, which neither /h/*/* nor its parent /h/* matches.
        let r = Self.report(fileText(components: #"[{"/": "/h/*/*"}, {"/": "/h//x/"}, {"/": "/h/"}]"#))
        #expect(r.rules[0].verdict == .reachable(witness: "https://example.com/h/a"))
        #expect(r.rules[1].verdict == .dead(coveredBy: [0]))   // /h/ + empty + /x
        #expect(r.rules[2].verdict == .reachable(witness: "https://example.com/h"))
    }
}
