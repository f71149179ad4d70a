import Testing
import AASA
import SeededRandom

/// Random rule lists over a small vocabulary, and random URLs near them.
enum RuleGen {
    static let paths = ["/a", "/a/*", "/A/*", "/a/?", "/b*", "*", "/", "/a/b", "/a%20b", "/a b", "/caf\\u00e9", "/CAF\\u00c9",
                        "/$(digit)*", "/$(food)", "/x//", "//x", "/?*/c", "/a/*/c", "/%2F*", "/*.html"]
    static let queries = [#""*""#, #""""#, #""?*""#, #""id=*""#, #""a=1""#, #"{"id": "?*"}"#, #"{"id": ""}"#, #"{"id": "$(digit)", "q": "*"}"#,
                          #"{"Q": "x*"}"#, #"{"a b": "*"}"#]
    static let fragments = [#""*""#, #""""#, #""f""#, #""?*""#, #""F*""#]

    static func file(_ rng: inout SeededGenerator, rules: Int) -> String {
        var components: [String] = []
        for _ in 0..<rules {
            var keys: [String] = []
            if Int.random(in: 0..<5, using: &rng) > 0 { keys.append(#""/": "\#(paths.randomElement(using: &rng)!)""#) }
            if Int.random(in: 0..<3, using: &rng) == 0 { keys.append(#""?": \#(queries.randomElement(using: &rng)!)"#) }
            if Int.random(in: 0..<4, using: &rng) == 0 { keys.append(##""#": \##(fragments.randomElement(using: &rng)!)"##) }
            if Int.random(in: 0..<3, using: &rng) == 0 { keys.append(#""exclude": true"#) }
            if Int.random(in: 0..<4, using: &rng) == 0 { keys.append(#""caseSensitive": false"#) }
            if Int.random(in: 0..<4, using: &rng) == 0 { keys.append(#""percentEncoded": false"#) }
            components.append("{" + keys.joined(separator: ", ") + "}")
        }
        return fileText(components: "[" + components.joined(separator: ", ") + "]", variables: #"{"food": ["pizza", "taco*"]}"#)
    }

    static let pieces = ["a", "b", "c", "A", "x", "/", "//", "%20", " ", "%2F", "%2f", "caf%C3%A9", "CAF%C3%89", "1", "pizza", "taco", ".html", "b"]
    static let queryPieces = ["id=1", "id=", "id", "q=x", "Q=x", "a=1", "&", "id=a", "a%20b=1", "x"]

    static func url(_ rng: inout SeededGenerator) -> String {
        var path = "/"
        for _ in 0..<Int.random(in: 0..<4, using: &rng) { path += pieces.randomElement(using: &rng)! }
        var out = "https://" + domain + path
        if Bool.random(using: &rng) {
            out += "?" + (0..<Int.random(in: 0..<3, using: &rng)).map { _ in queryPieces.randomElement(using: &rng)! }.joined(separator: "&")
        }
        if Int.random(in: 0..<3, using: &rng) == 0 { out += "#" + ["f", "F", "", "fx"].randomElement(using: &rng)! }
        return out
    }
}

struct ReachPropertyTests {
    /// Over many generated rule lists: every witness is decided by its rule; no sampled URL is
    /// decided by a rule called dead; a complete report leaves nothing undecided.
    @Test func witnessesDecideTheirRules() async {
        var rng = SeededGenerator(seed: 0xA5A5)
        var witnesses = 0, dead = 0
        for _ in 0..<80 {
            await Task.yield()   // long work: other tests get turns on the pool's threads
            let text = RuleGen.file(&rng, rules: Int.random(in: 1...6, using: &rng))
            guard let file = parsed(text) else { Issue.record("unreadable \(text)"); continue }
            let report = ReachTests.checkWitnesses(file, appID: app, domain: domain)
            let matcher = file.matcher(appID: app)
            let deadRules = report.rules.filter { if case .dead = $0.verdict { true } else { false } }.map(\.rule)
            for r in report.rules {
                if case .reachable = r.verdict { witnesses += 1 }
                if case .dead = r.verdict { dead += 1 }
            }
            for _ in 0..<60 {
                let url = RuleGen.url(&rng)
                if let decider = matcher.match(url: url, domain: domain).rule {
                    #expect(!deadRules.contains(decider), "\(url) is decided by the dead rule \(decider.text) in \(text)")
                }
            }
        }
        #expect(witnesses > 150)
        #expect(dead > 5)
    }

    /// The real files: every witness decides its rule, and every rule the pairwise analysis
    /// calls unreachable is dead here.
    @Test func realFiles() async throws {
        var files = 0, witnesses = 0
        for name in RealWorldTests.expected.keys.sorted() {
            await Task.yield()   // long work: other tests get turns on the pool's threads
            let bytes = try #require(RealWorldTests.read(RealWorldTests.folder + name + "__apple-app-site-association.json"))
            guard let file = AASAFile.parse(bytes).0 else { continue }
            files += 1
            let unreachable = Set(AASARuleAnalysis.findings(file).filter { $0.code.rawValue != "exclude-after-catch-all" }.map { "\($0.appID) \($0.rule.pointer)" })
            for appID in file.appIDs {
                let report = ReachTests.checkWitnesses(file, appID: appID, domain: "example.com")
                #expect(report.complete, "\(name) \(appID)")
                for r in report.rules {
                    if case .reachable = r.verdict { witnesses += 1 }
                    if unreachable.contains("\(appID) \(r.rule.pointer)") {
                        if case .dead = r.verdict {} else { Issue.record("\(name) \(appID) \(r.rule.text): \(r.verdict)") }
                    }
                }
            }
        }
        #expect(files >= 18)
        #expect(witnesses > 100)
    }
}
