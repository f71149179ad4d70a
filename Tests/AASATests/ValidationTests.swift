import Testing
import LinkRules
import AASA

/// Each diagnostic of the contract's table (docs/aasa.md), with a file that has the problem and
/// one that does not.
struct ValidationTests {
    static let good = fileText(components: #"[{"/": "/buy/*"}]"#)

    @Test func aWellFormedFileHasNoDiagnostics() {
        #expect(codes(Self.good).isEmpty)
        #expect(codes(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}, "applinks": {"details": []}}"#).isEmpty)
    }

    @Test func theCodeTableIsTheContracts() {
        let table = Dictionary(uniqueKeysWithValues: AASADiagnosticCode.requirementTable.map { ($0.code, "\($0.requirement) \($0.level.rawValue)") })
        let contract: [String: String] = [
            "not-json": "AASA-1 MUST", "not-object": "AASA-1 MUST", "file-too-large": "AASA-2 MUST",
            "no-applinks": "AASA-36 INFO", "applinks-not-object": "AASA-3 MUST", "details-missing": "AASA-3 MUST",
            "details-wrong-type": "AASA-3 MUST", "details-dictionary": "AASA-4 SHOULD", "detail-not-object": "AASA-3 MUST",
            "appids-missing": "AASA-5 MUST", "appids-wrong-type": "AASA-5 MUST", "appid-array": "AASA-5 MUST",
            "appid-wrong-type": "AASA-5 MUST", "appid-malformed": "AASA-6 MUST", "appid-prefix-unusual": "AASA-7 INFO",
            "components-wrong-type": "AASA-8 MUST", "component-not-object": "AASA-8 MUST", "component-wrong-type": "AASA-9 MUST",
            "query-dictionary-non-string": "AASA-10 SHOULD", "component-unknown-key": "AASA-11 SHOULD",
            "paths-with-components": "AASA-12 SHOULD", "paths-wrong-type": "AASA-13 MUST", "apps-not-empty": "AASA-13 MUST",
            "apps-missing": "AASA-13 MUST",
            "defaults-wrong-type": "AASA-14 MUST", "variables-wrong-type": "AASA-15 MUST", "variable-name-invalid": "AASA-15 MUST",
            "variable-undefined": "AASA-15 MUST", "variable-recursive": "AASA-15 MUST", "pattern-unicode-encoded": "AASA-16 SHOULD",
            "rule-unreachable": "AASA-17 SHOULD", "rule-duplicate": "AASA-17 SHOULD", "exclude-after-catch-all": "AASA-17 SHOULD",
            "service-wrong-type": "AASA-18 MUST", "unknown-service": "AASA-19 INFO", "pattern-too-complex": "AASA-37 SHOULD",
        ]
        #expect(table == contract)
    }

    @Test(arguments: [
        ("{", "not-json"), ("", "not-json"), (#"{"applinks": {"details": [],}}"#, "not-json"), ("[1]", "not-object"),
        (#""applinks""#, "not-object"), ("null", "not-object"),
    ])
    func unreadableFiles(text: String, code: String) {
        #expect(codes(text) == [code])
        #expect(AASAFile.parse(Array(text.utf8)).0 == nil)
    }

    @Test func notJSONCarriesTheParserPosition() {
        let d = diagnostics("{\n  \"applinks\": {\n    \"details\": [] \n  }\n  \"webcredentials\": {}\n}")
        #expect(d.map(\.code) == [.notJSON])
        #expect(d[0].line == 5)
    }

    @Test func duplicateKeysAreReadLastOneWins() {
        let text = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/a"}, {"/": "/b", "/": "/c"}]}]}}"#
        #expect(codes(text).isEmpty)
        #expect(kind(text, "/c") == .match)
        #expect(kind(text, "/b") == .noMatch)
    }

    @Test func sizeLimits() {
        // Just over 128 KB: file-too-large, and still read so that validation lists what else
        // is wrong; but the system refuses the whole file, so it matches no URL (AASA-2).
        let padding = String(repeating: " ", count: aasaPlatformSizeLimit)
        let big = Self.good + padding
        #expect(codes(big) == ["file-too-large"])
        #expect(AASAFile.parse(Array(big.utf8)).0 != nil)
        #expect(kind(big, "/buy/1") == .noMatch)
        let bigResult = AASA.match(Array(big.utf8), domain: domain, appID: app, url: "https://example.com/buy/1")
        #expect(AASA.reason(for: bigResult, Array(big.utf8), domain: domain, appID: app, url: "https://example.com/buy/1", memo: nil) == "file-too-large")
        let exactly = Self.good + String(repeating: " ", count: aasaPlatformSizeLimit - Self.good.utf8.count)
        #expect(codes(exactly).isEmpty)
        #expect(kind(exactly, "/buy/1") == .match)
        // Over the hard limit: refused, not parsed.
        let huge = [UInt8](repeating: 0x20, count: aasaHardSizeLimit + 1)
        let (file, d) = AASAFile.parse(huge)
        #expect(file == nil)
        #expect(d.map(\.code) == [.fileTooLarge])
        #expect(AASA.match(huge, domain: domain, appID: app, url: "https://example.com/").kind == .noMatch)
    }

    @Test func deepNestingIsNotJSONRatherThanACrash() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(codes(text) == ["not-json"])
    }

    @Test func applinksShapes() {
        #expect(codes(#"{"webcredentials": {"apps": ["\#(app)"]}}"#) == ["no-applinks"])
        #expect(codes(#"{"applinks": []}"#) == ["applinks-not-object"])
        #expect(codes(#"{"applinks": {}}"#) == ["details-missing"])
        #expect(codes(#"{"applinks": {"details": "x"}}"#) == ["details-wrong-type"])
        #expect(codes(#"{"applinks": {"details": [3]}}"#) == ["detail-not-object"])
        #expect(codes(#"{"applinks": {"details": {"\#(app)": {"paths": ["*"]}}}}"#) == ["details-dictionary"])
        #expect(codes(#"{"applinks": {"details": {"\#(app)": 4}}}"#) == ["details-dictionary", "detail-not-object"])
        #expect(codes(#"{"applinks": {"details": {"nodot": {"paths": ["*"]}}}}"#) == ["details-dictionary", "appid-malformed"])
    }

    @Test func appIDs() {
        func entry(_ ids: String) -> String { #"{"applinks": {"details": [{\#(ids) "components": []}]}}"# }
        #expect(codes(entry("")) == ["appids-missing"])
        #expect(codes(entry(#""appIDs": "\#(app)","#)) == ["appids-wrong-type"])
        #expect(codes(entry(#""appIDs": [1],"#)) == ["appids-wrong-type"])
        #expect(codes(entry(#""appID": ["\#(app)"],"#)) == ["appid-array"])
        #expect(codes(entry(#""appID": 7,"#)) == ["appid-wrong-type"])
        #expect(codes(entry(#""appID": "\#(app)","#)).isEmpty)
        #expect(codes(entry(#""appIDs": ["\#(app)"], "appID": "\#(app)","#)).isEmpty)
        for bad in ["com", ".com.x", "ABCDE12345.", "ABCDE12345..x", "ABCDE12345.com x", "ABCDE12345.café", "ABCDE12345.a/b"] {
            #expect(codes(entry(#""appIDs": ["\#(bad)"],"#)) == ["appid-malformed"], "\(bad)")
        }
        for unusual in ["TEAM_ID.social.coves", "de.example.app", "abcde12345.com.x", "ABCDE1234.com.x", "ABCDE123456.com.x"] {
            #expect(codes(entry(#""appIDs": ["\#(unusual)"],"#)) == ["appid-prefix-unusual"], "\(unusual)")
        }
    }

    @Test func components() {
        #expect(codes(fileText(components: #"{"/": "x"}"#)) == ["components-wrong-type"])
        #expect(codes(fileText(components: #"["/x"]"#)) == ["component-not-object"])
        for wrong in [#"{"/": 1}"#, ##"{"#": []}"##, #"{"comment": false}"#, #"{"exclude": "true"}"#,
                      #"{"caseSensitive": 0}"#, #"{"percentEncoded": null}"#, #"{"?": 5}"#, #"{"?": ["a"]}"#] {
            #expect(codes(fileText(components: "[\(wrong)]")) == ["component-wrong-type"], "\(wrong)")
        }
        #expect(codes(fileText(components: #"[{"/": "/a", "?": {"a": "1", "b": 2}}]"#)) == ["query-dictionary-non-string"])
        #expect(codes(fileText(components: ##"[{"/": "/a", "?": {"a": "1"}, "#": "x", "comment": "c", "exclude": false, "caseSensitive": true, "percentEncoded": true}]"##)).isEmpty)
    }

    @Test func unknownKeysSuggestTheKnownOne() {
        let d = diagnostics(fileText(components: #"[{"/": "/a", "casesensitive": false}]"#))
        #expect(d.map(\.code) == [.componentUnknownKey])
        #expect(d[0].message.contains("\"caseSensitive\""))
        #expect(d[0].pointer == "/applinks/details/0/components/0/casesensitive")
        let e = diagnostics(fileText(components: #"[{"/": "/a", "percentEncode": false}]"#))
        #expect(e[0].message.contains("\"percentEncoded\""))
        let f = diagnostics(fileText(components: #"[{"/": "/a", "zz": 1}]"#))
        #expect(f.map(\.code) == [.componentUnknownKey])
        #expect(!f[0].message.contains("did you mean"))
        // Two edits away, two characters shorter: still suggested; three away or a long key: not.
        let g = diagnostics(fileText(components: #"[{"/": "/a", "exclu": false}]"#))
        #expect(g[0].message.contains("(did you mean \"exclude\"?)"))
        let h = diagnostics(fileText(components: #"[{"/": "/a", "excl": false}]"#))
        #expect(!h[0].message.contains("did you mean"))
        let long = diagnostics(fileText(components: #"[{"/": "/a", "\#(String(repeating: "exclude", count: 2_000))": false}]"#))
        #expect(long.map(\.code) == [.componentUnknownKey])
        #expect(!long[0].message.contains("did you mean"))
        // In defaults, entries and applinks too.
        #expect(codes(fileText(components: "[]", entryDefaults: #"{"exlude": true}"#)) == ["component-unknown-key"])
        #expect(codes(#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "component": []}]}}"#) == ["component-unknown-key"])
        #expect(codes(#"{"applinks": {"details": [], "detail": []}}"#) == ["component-unknown-key"])
    }

    @Test func legacyPathsAndApps() {
        func legacy(_ body: String) -> String { #"{"applinks": {\#(body)}}"# }
        #expect(codes(legacy(#""apps": [], "details": [{"appID": "\#(app)", "paths": ["/a", "NOT /b"]}]"#)).isEmpty)
        #expect(codes(legacy(#""apps": ["\#(app)"], "details": []"#)) == ["apps-not-empty"])
        #expect(codes(legacy(#""apps": {}, "details": []"#)) == ["apps-not-empty"])
        #expect(codes(legacy(#""apps": [], "details": [{"appID": "\#(app)", "paths": "/a"}]"#)) == ["paths-wrong-type"])
        #expect(codes(legacy(#""apps": [], "details": [{"appID": "\#(app)", "paths": ["/a", 3]}]"#)) == ["paths-wrong-type"])
        // apps must be there in the legacy format; the iOS 13 keys anywhere, or the dictionary
        // form, are not that format.
        #expect(codes(legacy(#""details": [{"appID": "\#(app)", "paths": ["/a"]}]"#)) == ["apps-missing"])
        #expect(diagnostics(legacy(#""details": [{"appID": "\#(app)", "paths": ["/a"]}]"#)).first?.pointer == "/applinks")
        #expect(codes(legacy(#""details": [{"appIDs": ["\#(app)"], "paths": ["/a"]}]"#)).isEmpty)
        #expect(codes(legacy(#""details": [{"appID": "\#(app)", "paths": ["/a"]}, {"appIDs": ["\#(app)"], "components": []}]"#)).isEmpty)
        #expect(codes(legacy(#""details": []"#)).isEmpty)
        #expect(codes(legacy(#""details": [{"appID": "\#(app)", "paths": ["/a"], "components": [{"/": "/a"}]}]"#)) == ["paths-with-components"])
    }

    @Test func defaults() {
        #expect(codes(fileText(components: "[]", defaults: #"{"caseSensitive": false, "/": "/a/*"}"#)).isEmpty)
        #expect(codes(fileText(components: "[]", defaults: "[]")) == ["defaults-wrong-type"])
        #expect(codes(fileText(components: "[]", defaults: #"{"exclude": "yes"}"#)) == ["defaults-wrong-type"])
        #expect(codes(fileText(components: "[]", entryDefaults: #"{"percentEncoded": 1}"#)) == ["defaults-wrong-type"])
        #expect(codes(fileText(components: "[]", entryDefaults: #"{"?": {"a": true}}"#)) == ["query-dictionary-non-string"])
    }

    @Test func substitutionVariables() {
        func with(_ vars: String, _ path: String = "/a") -> Set<String> {
            codes(fileText(components: #"[{"/": "\#(path)"}]"#, variables: vars))
        }
        #expect(with(#"{"food": ["pizza", "taco*"]}"#, "/$(food)").isEmpty)
        #expect(with(#"[]"#) == ["variables-wrong-type"])
        #expect(with(#"{"food": "pizza"}"#) == ["variables-wrong-type"])
        #expect(with(#"{"food": ["pizza", 1]}"#) == ["variables-wrong-type"])
        #expect(with(#"{"fo(o": ["x"]}"#) == ["variable-name-invalid"])
        #expect(with(#"{"f$": ["x"]}"#) == ["variable-name-invalid"])
        #expect(with(#"{"food": ["$(drink)s"], "drink": ["tea"]}"#) == ["variable-recursive"])
        #expect(with(#"{}"#, "/$(food)") == ["variable-undefined"])
        #expect(with(#"{}"#, "/$(region)/$(lang)/$(alpha)$(upper)$(lower)$(alnum)$(digit)$(xdigit)").isEmpty)
        #expect(codes(fileText(components: #"[{"?": {"q": "$(nope)"}}]"#)) == ["variable-undefined"])
        #expect(codes(fileText(components: ##"[{"#": "$(nope)"}]"##)) == ["variable-undefined"])
        // A "$(" that is not a reference is not a variable.
        #expect(with(#"{}"#, "/$(a$b)/$(").isEmpty)
    }

    @Test func unicodePatternsUnderPercentEncoding() {
        #expect(codes(fileText(components: #"[{"/": "/café"}]"#)) == ["pattern-unicode-encoded"])
        #expect(codes(fileText(components: #"[{"/": "/café", "percentEncoded": false}]"#)).isEmpty)
        #expect(codes(fileText(components: #"[{"/": "/caf%C3%A9"}]"#)).isEmpty)
        #expect(codes(fileText(components: ##"[{"#": "é"}]"##)) == ["pattern-unicode-encoded"])
        #expect(codes(fileText(components: #"[{"?": {"q": "é"}}]"#)) == ["pattern-unicode-encoded"])
        // From the defaults, reported where the pattern is written, once.
        let d = diagnostics(fileText(components: ##"[{"#": "a"}, {"#": "b"}]"##, defaults: #"{"/": "/ü"}"#))
        #expect(d.map(\.code) == [.patternUnicodeEncoded])
        #expect(d[0].pointer == "/applinks/defaults/~1")
        // Defaults may turn percent encoding off for the component.
        #expect(codes(fileText(components: #"[{"/": "/ü"}]"#, entryDefaults: #"{"percentEncoded": false}"#)).isEmpty)
        #expect(codes(#"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["/ü"]}]}}"#) == ["pattern-unicode-encoded"])
    }

    @Test func services() {
        #expect(codes(#"{"webcredentials": {"apps": ["\#(app)"]}, "appclips": {"apps": []}, "activitycontinuation": {"apps": ["\#(app)"]}, "applinks": {"details": []}}"#).isEmpty)
        for bad in [#""webcredentials": []"#, #""appclips": {}"#, #""activitycontinuation": {"apps": "x"}"#, #""webcredentials": {"apps": [1]}"#] {
            #expect(codes(#"{\#(bad), "applinks": {"details": []}}"#) == ["service-wrong-type"], "\(bad)")
        }
        #expect(codes(#"{"webcredentials": {"apps": ["nodot"]}, "applinks": {"details": []}}"#) == ["appid-malformed"])
        #expect(codes(#"{"applink": {"details": []}}"#) == ["unknown-service", "no-applinks"])
        let d = diagnostics(#"{"applink": {}, "applinks": {"details": []}}"#)
        #expect(d.map(\.code) == [.unknownService])
        #expect(d[0].message.contains("\"applinks\""))
    }

    @Test func diagnosticsCarryPointerLineAndColumn() {
        let text = """
        {
          "applinks": {
            "details": [
              {
                "appIDs": ["\(app)"],
                "components": [ { "/": "/a", "exclude": "yes" } ]
              }
            ]
          }
        }
        """
        let d = diagnostics(text)
        #expect(d.count == 1)
        #expect(d[0].code == .componentWrongType)
        #expect(d[0].pointer == "/applinks/details/0/components/0/exclude")
        #expect(d[0].line == 6)
        #expect(d[0].column == 49)
        #expect(d[0].requirement == "AASA-9")
        #expect(d[0].level == .must)
        #expect(!d[0].message.isEmpty)
    }

    /// The compile budget (docs/aasa.md, Matching rule 13) catches every way a pattern blows up,
    /// counted while building: a long run of variables with an empty value (each state would
    /// take the edges of all the ones after it), and many `$(lang)`. The rule over the budget
    /// matches nothing and is reported; a later, cheap rule is still compiled and decides; a run
    /// of `*` is one `*` and costs nothing more.
    @Test func rulesPastTheCompileBudgetAreReportedAndMatchNothing() {
        let empties = fileText(components: #"[{"/": "/\#(String(repeating: "$(v)", count: 5_000))", "exclude": true}, {"/": "/*"}]"#,
                               variables: #"{"v": ["", "a"]}"#)
        #expect(codes(empties) == ["pattern-too-complex"])
        #expect(kind(empties, "/aaa") == .match, "the exclusion is not compiled: the next rule decides")
        let langs = fileText(components: #"[{"/": "/\#(String(repeating: "$(lang)", count: 400))"}, {"/": "/about"}]"#)
        let d = diagnostics(langs)
        #expect(d.map(\.code) == [.patternTooComplex] && d[0].pointer == "/applinks/details/0/components/0")
        #expect(kind(langs, "/about") == .match)
        let stars = fileText(components: #"[{"/": "/\#(String(repeating: "*", count: 20_000))x"}]"#)
        #expect(codes(stars).isEmpty)
        #expect(kind(stars, "/abcx") == .match)
    }
}
