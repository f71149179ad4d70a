import Testing
import AASA

/// `rule-duplicate`, `exclude-after-catch-all` and `rule-unreachable` (AASA-17).
struct AnalysisTests {
    func found(_ components: String, defaults: String? = nil) -> [String] {
        diagnostics(fileText(components: components, defaults: defaults))
            .filter { $0.requirement == "AASA-17" }
            .map { "\($0.code.rawValue) \($0.pointer.split(separator: "/").last!)" }
    }

    @Test func duplicates() {
        #expect(found(#"[{"/": "/a"}, {"/": "/a"}]"#) == ["rule-duplicate 1"])
        #expect(found(#"[{"/": "/a/"}, {"/": "a"}]"#) == ["rule-duplicate 1"])   // the same after the slash rules
        #expect(found(#"[{"/": "/a"}, {"/": "/a", "comment": "again"}]"#) == ["rule-duplicate 1"])
        // Different exclusion: not a duplicate, but the later one never decides.
        #expect(found(#"[{"/": "/a"}, {"/": "/a", "exclude": true}]"#) == ["rule-unreachable 1"])
    }

    @Test func excludeAfterCatchAll() {
        #expect(found(#"[{"/": "*"}, {"/": "/private/*", "exclude": true}]"#) == ["exclude-after-catch-all 1"])
        #expect(found(#"[{}, {"/": "/a"}]"#) == ["rule-unreachable 1"])
        #expect(found(##"[{"/": "/*", "?": "*", "#": "*"}, {"#": "nolink", "exclude": true}]"##) == ["exclude-after-catch-all 1"])
        #expect(found(#"[{"/": "/private/*", "exclude": true}, {"/": "*"}]"#).isEmpty)
        // `/?*` is not a catch-all: it misses `/`.
        #expect(found(#"[{"/": "/?*"}, {"/": "/", "exclude": true}]"#).isEmpty)
        // A catch-all exclusion makes what follows unreachable.
        #expect(found(#"[{}, {"/": "/b"}]"#, defaults: #"{"exclude": true}"#) == ["rule-unreachable 1"])
    }

    @Test func unreachable() {
        #expect(found(#"[{"/": "/a/*"}, {"/": "/a/b"}]"#) == ["rule-unreachable 1"])
        #expect(found(#"[{"/": "/a/*"}, {"/": "/a"}]"#) == ["rule-unreachable 1"])
        #expect(found(#"[{"/": "/a"}, {"/": "/a/*"}]"#).isEmpty)
        #expect(found(#"[{"/": "/a/*"}, {"/": "/a/b", "?": "x=1"}]"#) == ["rule-unreachable 1"])
        #expect(found(#"[{"/": "/a/*", "?": "x=1"}, {"/": "/a/b"}]"#).isEmpty)
        #expect(found(#"[{"?": {"id": "*"}}, {"/": "/a", "?": {"id": "1"}}]"#) == ["rule-unreachable 1"])
        #expect(found(#"[{"?": {"id": "?*"}}, {"/": "/a", "?": {"id": "1", "x": "2"}}]"#) == ["rule-unreachable 1"])
        #expect(found(#"[{"?": {"id": "1"}}, {"/": "/a", "?": {"id": "?*"}}]"#).isEmpty)
        #expect(found(#"[{"?": {"id": "1"}}, {"/": "/a"}]"#).isEmpty)
        // Different options: only a universal earlier pattern decides.
        #expect(found(#"[{"/": "/a/*", "caseSensitive": false}, {"/": "/a/b"}]"#).isEmpty)
        #expect(found(#"[{"/": "/a/*", "caseSensitive": false}, {"/": "/a/b", "caseSensitive": false}]"#) == ["rule-unreachable 1"])
        #expect(found(##"[{"#": "*"}, {"#": "x", "percentEncoded": false}]"##) == ["rule-unreachable 1"])
        // Not the first rule: the earliest rule that covers is named.
        #expect(found(#"[{"/": "/b"}, {"/": "/a/*"}, {"/": "/a/1"}, {"/": "/c"}]"#) == ["rule-unreachable 2"])
        // A rule that matches nothing at all is not called unreachable.
        #expect(found(#"[{"/": "*"}, {"/": "/é"}]"#).isEmpty)
        // Only for the same app.
        let two = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "*"}]}, {"appIDs": ["ZZZZZ99999.com.x"], "components": [{"/": "/a"}]}]}}"#
        #expect(codes(two).isEmpty)
        let across = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/a/*"}]}, {"appIDs": ["\#(app)"], "components": [{"/": "/a/b"}]}]}}"#
        #expect(diagnostics(across).map(\.pointer) == ["/applinks/details/1/components/0"])
    }

    @Test func legacyPathsToo() {
        let text = #"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["*", "NOT /a", "/b", "*"]}]}}"#
        #expect(diagnostics(text).map { "\($0.code.rawValue) \($0.pointer)" } == [
            "exclude-after-catch-all /applinks/details/0/paths/1",
            "rule-unreachable /applinks/details/0/paths/2",
            "rule-duplicate /applinks/details/0/paths/3",
        ])
    }

    @Test func findingsNameTheEarlierRule() {
        let file = parsed(fileText(components: #"[{"/": "/a/*"}, {"/": "/a/b"}]"#))!
        let f = AASARuleAnalysis.findings(file)
        #expect(f.count == 1)
        #expect(f[0].earlier.origin == .component(0))
        #expect(f[0].rule.origin == .component(1))
        #expect(f[0].appID == app)
    }

    /// A path repeated thousands of times: each repeat is a duplicate of the first rule (the
    /// earliest that decides), found by comparing from the start and stopping there.
    @Test func everyRepeatDuplicatesTheFirstRule() {
        let paths = Array(repeating: #""/a""#, count: 3_000).joined(separator: ",")
        let file = parsed(#"{"applinks": {"details": [{"appID": "\#(app)", "paths": [\#(paths)]}]}}"#)!
        let f = AASARuleAnalysis.findings(file)
        #expect(f.count == 2_999)
        #expect(f.allSatisfy { $0.code == .ruleDuplicate && $0.earlier.origin == .legacyPath(0) })
        #expect(f.last?.rule.origin == .legacyPath(2_999))
    }

    /// Rules that compile from the same patterns share their facts, but not where they are
    /// written or their `exclude`: each finding names its own rule and the right earlier one.
    @Test func rulesWithTheSamePatternsKeepTheirOwnSettings() {
        let components = #"[{"/": "/a"}, {"/": "/a", "exclude": true}, {"/": "/b"}, {"/": "/a", "exclude": true}, {"/": "/a"}]"#
        let file = parsed(fileText(components: components))!
        let f = AASARuleAnalysis.findings(file).map { "\($0.code.rawValue) \($0.rule.origin) after \($0.earlier.origin)" }
        #expect(f == [
            "rule-unreachable component(1) after component(0)",
            "rule-duplicate component(3) after component(1)",
            "rule-duplicate component(4) after component(0)",
        ])
    }
}
