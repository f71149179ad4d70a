import Testing
import AASA

/// `AASA.reason(for:...)`: why `aasa.match` answered as it did (docs/aasa.md, "Why an answer").
struct MatchReasonTests {
    func reason(_ text: String, _ url: String, appID: String = app) -> String {
        let bytes = Array(text.utf8)
        let result = AASA.match(bytes, domain: domain, appID: appID, url: url)
        return AASA.reason(for: result, bytes, domain: domain, appID: appID, url: url, memo: nil)
    }

    @Test func aNoMatchNamesTheFirstThingThatStoppedTheURL() {
        let text = fileText(components: #"[{"/": "/buy/*"}]"#)
        #expect(reason("not json", "https://example.com/buy/1") == "file-unreadable")
        #expect(reason("[1]", "https://example.com/buy/1") == "file-unreadable")
        // The file is read first, then the URL, as matching does: a bad file hides a bad URL.
        #expect(reason("not json", "http://example.com/buy/1") == "file-unreadable")
        #expect(reason(text, "example.com/buy/1") == "url-unreadable")
        #expect(reason(text, "http://example.com/buy/1") == "url-not-https")
        #expect(reason(text, "https://me@example.com/buy/1") == "url-userinfo")
        #expect(reason(text, "https://example.com:8443/buy/1") == "url-port")
        #expect(reason(text, "https://www.example.com/buy/1") == "url-host-mismatch")
        #expect(reason(#"{"webcredentials": {"apps": []}}"#, "https://example.com/buy/1") == "no-applinks")
        #expect(reason(text, "https://example.com/buy/1", appID: "ZZZZZ99999.com.other") == "app-not-listed")
        #expect(reason(fileText(components: "[]"), "https://example.com/buy/1") == "app-has-no-rules")
        // A components member of the wrong type is present: the entry's paths do not count.
        let wrongType = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "paths": ["*"], "components": {"/": "*"}}]}}"#
        #expect(reason(wrongType, "https://example.com/buy/1") == "app-has-no-rules")
        #expect(reason(text, "https://example.com/sell/1") == "no-rule-decided")
    }

    @Test func aMatchOrExclusionNamesTheDecidingRulesShape() {
        #expect(reason(fileText(components: #"[{}]"#), "https://example.com/x") == "any-path")
        #expect(reason(fileText(components: #"[{"/": "/x"}]"#), "https://example.com/x") == "path-literal")
        #expect(reason(fileText(components: #"[{"/": "/x/*", "exclude": true}]"#), "https://example.com/x/1") == "path-wildcards")
        #expect(reason(fileText(components: #"[{"/": "/$(digit)"}]"#), "https://example.com/7") == "path-variables")
        #expect(reason(fileText(components: ##"[{"/": "/s", "?": {"q": "?*"}, "#": "top"}]"##), "https://example.com/s?q=1#top")
                == "path-literal, query-items, fragment")
        #expect(reason(fileText(components: #"[{"?": {"q": 1}}]"#), "https://example.com/s") == "any-path, query-ignored")
        #expect(reason(fileText(components: #"[{"/": "/A", "?": "a=1", "caseSensitive": false, "percentEncoded": false}]"#),
                       "https://example.com/a?a=1") == "path-literal, query, case-insensitive, decoded")
        // Defaults are applied: the shape is the rule as matched.
        #expect(reason(fileText(components: #"[{"/": "/a"}]"#, defaults: #"{"caseSensitive": false}"#), "https://example.com/A")
                == "path-literal, case-insensitive")
        let legacy = #"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["NOT /a/*", "*"]}]}}"#
        #expect(reason(legacy, "https://example.com/a/1") == "legacy-path, path-wildcards")
        #expect(reason(legacy, "https://example.com/b") == "legacy-path, any-path")
    }
}
