import Testing
import AASA

/// The contract's "Matching" rules and the observed `swcutil` facts of the digest.
struct MatchTests {
    // Rule 1: https, no userinfo, no port but 443, host equal to the domain (ASCII case-insensitively).
    @Test func onlyHTTPSURLsOfTheDomain() {
        let text = fileText(components: #"[{"/": "*"}]"#)
        func k(_ url: String) -> AASAMatchKind { AASA.match(Array(text.utf8), domain: domain, appID: app, url: url).kind }
        #expect(k("https://example.com/a") == .match)
        #expect(k("HTTPS://EXAMPLE.com/a") == .match)
        #expect(k("https://example.com:443/a") == .match)
        #expect(k("http://example.com/a") == .noMatch)
        #expect(k("https://example.com:8443/a") == .noMatch)
        #expect(k("https://user@example.com/a") == .noMatch)
        #expect(k("https://www.example.com/a") == .noMatch)
        #expect(k("https://example.com./a") == .noMatch)
        #expect(k("https:/example.com/a") == .noMatch)
        #expect(k("example.com/a") == .noMatch)
        #expect(k("") == .noMatch)
    }

    // Rule 2: the app ID selects entries; the first rule that matches decides.
    @Test func appIDSelectsEntriesAndTheFirstRuleDecides() {
        let other = "ZZZZZ99999.com.other"
        let text = #"{"applinks": {"details": [{"appIDs": ["\#(other)"], "components": [{"/": "/x", "exclude": true}]}, {"appID": "\#(app)", "components": [{"/": "/x"}]}, {"appIDs": ["\#(app)", "\#(other)"], "components": [{"/": "/x", "exclude": true}, {"/": "/y"}]}]}}"#
        #expect(kind(text, "/x") == .match)
        #expect(kind(text, "/x", appID: other) == .exclude)
        #expect(kind(text, "/y") == .match)
        #expect(kind(text, "/y", appID: other) == .match)
        #expect(kind(text, "/z") == .noMatch)
        #expect(kind(text, "/x", appID: "ABCDE12345.com.example.APP") == .noMatch)
        let r = parsed(text)!.matcher(appID: app).match(url: "https://example.com/y", domain: domain)
        #expect(r.detail == .index(2))
        #expect(r.component == 1)
        #expect(r.pattern == #"{"/":"/y"}"#)
    }

    @Test func exclusionsFirst() {
        let text = fileText(components: #"[{"/": "/private/*", "exclude": true}, {"/": "*"}]"#)
        #expect(kind(text, "/private/1") == .exclude)
        #expect(kind(text, "/public") == .match)
        let late = fileText(components: #"[{"/": "*"}, {"/": "/private/*", "exclude": true}]"#)
        #expect(kind(late, "/private/1") == .match)
        let r = parsed(text)!.matcher(appID: app).match(url: "https://example.com/private/1", domain: domain)
        #expect(r.kind.rawValue == "exclude")
        #expect(AASAMatchKind.noMatch.rawValue == "no_match")
    }

    // Rules 3, 4 and 23: unspecified components default to `*`; absent query and fragment read as empty.
    @Test func unspecifiedComponentsAndAbsentParts() {
        #expect(kindOf(component: "{}", "/anything?q=1#f") == .match)
        #expect(kindOf(component: #"{"x": "y"}"#, "/") == .match)
        #expect(kindOf(component: #"{"?": "*"}"#, "/a") == .match)
        #expect(kindOf(component: #"{"?": ""}"#, "/a") == .match)
        #expect(kindOf(component: #"{"?": "?*"}"#, "/a") == .noMatch)
        #expect(kindOf(component: #"{"?": "?*"}"#, "/a?b") == .match)
        #expect(kindOf(component: ##"{"#": ""}"##, "/a") == .match)
        #expect(kindOf(component: ##"{"#": "?*"}"##, "/a") == .noMatch)
        #expect(kindOf(component: ##"{"#": "?*"}"##, "/a#top") == .match)
        #expect(kindOf(component: #"{"/": "/"}"#, "") == .match)
        #expect(kindOf(component: #"{"/": "/"}"#, "/") == .match)
        #expect(kindOf(component: #"{"/": "/"}"#, "?q") == .match)
    }

    // Rule 5: `*`, `?`, literals, whole component.
    @Test func patternSyntax() {
        #expect(kindOf(component: #"{"/": "/a*c"}"#, "/abbbc") == .match)
        #expect(kindOf(component: #"{"/": "/a*c"}"#, "/ac") == .match)
        #expect(kindOf(component: #"{"/": "/a*c"}"#, "/acd") == .noMatch)
        #expect(kindOf(component: #"{"/": "/a?c"}"#, "/abc") == .match)
        #expect(kindOf(component: #"{"/": "/a?c"}"#, "/ac") == .noMatch)
        #expect(kindOf(component: #"{"/": "/a?*"}"#, "/a") == .noMatch)
        #expect(kindOf(component: #"{"/": "/a?*"}"#, "/ab") == .match)
        #expect(kindOf(component: #"{"/": "/a\\*"}"#, "/a\\xyz") == .match)   // no escapes: `\` is literal
        #expect(kindOf(component: #"{"/": "/abc"}"#, "/abcd") == .noMatch)
        #expect(kindOf(component: #"{"/": "/bc"}"#, "/abc") == .noMatch)
        #expect(kindOf(component: #"{"/": "/a.c"}"#, "/abc") == .noMatch)
    }

    // Rule 6, observed slash facts.
    @Test func slashRules() {
        #expect(kindOf(component: #"{"/": "abc"}"#, "/abc") == .match)
        #expect(kindOf(component: #"{"/": "buy/*"}"#, "/buy/42") == .match)
        #expect(kindOf(component: #"{"/": "//abc"}"#, "/abc") == .match)
        #expect(kindOf(component: #"{"/": "/abc"}"#, "//abc") == .match)
        #expect(kindOf(component: #"{"/": "/buy"}"#, "/buy/") == .match)
        #expect(kindOf(component: #"{"/": "/buy/"}"#, "/buy") == .match)
        #expect(kindOf(component: #"{"/": "/buy/*"}"#, "/buy//") == .match)
        #expect(kindOf(component: #"{"/": "/buy/*"}"#, "/buy") == .match)
        #expect(kindOf(component: #"{"/": "/buy/*"}"#, "/buy/") == .match)
        #expect(kindOf(component: #"{"/": "/buy/*"}"#, "/buyer") == .noMatch)
        #expect(kindOf(component: #"{"/": "/id/????"}"#, "/id/481") == .noMatch)
        #expect(kindOf(component: #"{"/": "/id/????"}"#, "/id/4812") == .match)
        #expect(kindOf(component: #"{"/": "/a/*/c"}"#, "/a/c") == .noMatch)
        #expect(kindOf(component: #"{"/": "/a/*/c"}"#, "/a/b/c") == .match)
        #expect(kindOf(component: #"{"/": "/a/b"}"#, "/a//b") == .noMatch)   // no inner slash is removed
    }

    // Rule 7: the query as a string and as a dictionary.
    @Test func queryStringIsTheWholeQuery() {
        #expect(kindOf(component: #"{"?": "a=1"}"#, "/x?a=1") == .match)
        #expect(kindOf(component: #"{"?": "a=1"}"#, "/x?a=1&b=2") == .noMatch)
        #expect(kindOf(component: #"{"?": "a=1*"}"#, "/x?a=1&b=2") == .match)
        #expect(kindOf(component: #"{"?": "a=1"}"#, "/x?a=1#a=2") == .match)
    }

    @Test func queryDictionary() {
        let c = #"{"/": "/p", "?": {"id": "?*"}}"#
        #expect(kindOf(component: c, "/p?id=42") == .match)
        #expect(kindOf(component: c, "/p?x=1&id=42&y") == .match)
        #expect(kindOf(component: c, "/p") == .noMatch)           // absent: empty value
        #expect(kindOf(component: c, "/p?id") == .noMatch)        // no `=`: empty value
        #expect(kindOf(component: c, "/p?id=") == .noMatch)
        #expect(kindOf(component: #"{"?": {"id": "*"}}"#, "/p") == .match)
        #expect(kindOf(component: #"{"?": {"id": ""}}"#, "/p?id") == .match)
        #expect(kindOf(component: #"{"?": {"id": "42"}}"#, "/p?id=7&id=42") == .noMatch)
        #expect(kindOf(component: #"{"?": {"id": "7"}}"#, "/p?id=7&id=7") == .match)
        #expect(kindOf(component: #"{"?": {"a": "1", "b": "2"}}"#, "/p?b=2&a=1") == .match)
        #expect(kindOf(component: #"{"?": {"a": "1", "b": "2"}}"#, "/p?a=1") == .noMatch)
        #expect(kindOf(component: #"{"?": {"a": "x=y"}}"#, "/p?a=x=y") == .match)   // split at the first `=`
        #expect(kindOf(component: #"{"?": {"a": "1"}}"#, "/p?A=1") == .noMatch)
    }

    @Test func nonStringValueMakesTheDictionaryIgnored() {
        for value in ["true", "1", "null", "[]", "{}"] {
            let c = #"{"/": "/p", "?": {"id": "42", "n": \#(value)}}"#
            #expect(kindOf(component: c, "/p?id=7") == .match, "\(value)")
            #expect(kindOf(component: c, "/q") == .noMatch)
        }
    }

    // Rule 8: percent encoding.
    @Test func percentEncodedTrueComparesAsWritten() {
        #expect(kindOf(component: #"{"/": "/a%20b"}"#, "/a%20b") == .match)
        #expect(kindOf(component: #"{"/": "/a b"}"#, "/a%20b") == .noMatch)
        #expect(kindOf(component: #"{"/": "/%C3%A9"}"#, "/%C3%A9") == .match)
        #expect(kindOf(component: #"{"/": "/%C3%A9"}"#, "/%c3%a9") == .noMatch)
        #expect(kindOf(component: #"{"/": "/a/b"}"#, "/a%2Fb") == .noMatch)
        #expect(kindOf(component: #"{"/": "/a/?"}"#, "/a/%C3%A9") == .noMatch)     // one character is several `?`
        #expect(kindOf(component: #"{"/": "/a/??????"}"#, "/a/%C3%A9") == .match)
        #expect(kindOf(component: #"{"/": "/café"}"#, "/café") == .noMatch)       // the URL is ASCII then
        #expect(kindOf(component: #"{"/": "/caf%C3%A9"}"#, "/café") == .match)
        #expect(kindOf(component: #"{"?": {"q": "a%20b"}}"#, "/p?q=a%20b") == .match)
    }

    @Test func percentEncodedFalseDecodesTheURL() {
        #expect(kindOf(component: #"{"/": "/a b", "percentEncoded": false}"#, "/a%20b") == .match)
        #expect(kindOf(component: #"{"/": "/café", "percentEncoded": false}"#, "/caf%C3%A9") == .match)
        #expect(kindOf(component: #"{"/": "/café", "percentEncoded": false}"#, "/café") == .match)
        #expect(kindOf(component: #"{"/": "/caf?", "percentEncoded": false}"#, "/caf%C3%A9") == .match)
        #expect(kindOf(component: #"{"/": "/a%20b", "percentEncoded": false}"#, "/a%20b") == .noMatch)
        #expect(kindOf(component: #"{"/": "/a/b", "percentEncoded": false}"#, "/a%2Fb") == .match)
        #expect(kindOf(component: #"{"/": "/a+b", "percentEncoded": false}"#, "/a+b") == .match)   // `+` stays
        #expect(kindOf(component: #"{"/": "/a b", "percentEncoded": false}"#, "/a+b") == .noMatch)
        #expect(kindOf(component: #"{"/": "/%zz", "percentEncoded": false}"#, "/%zz") == .match)    // invalid escape stays
        // Query items are decoded one by one: an encoded `&` or `=` stays inside its item.
        #expect(kindOf(component: #"{"?": {"q": "a&b=c"}, "percentEncoded": false}"#, "/p?q=a%26b%3Dc") == .match)
        #expect(kindOf(component: #"{"?": {"q w": "é"}, "percentEncoded": false}"#, "/p?q%20w=%C3%A9") == .match)
        #expect(kindOf(component: #"{"?": "a&b", "percentEncoded": false}"#, "/p?a%26b") == .match)
        #expect(kindOf(component: ##"{"#": "a b", "percentEncoded": false}"##, "/p#a%20b") == .match)
    }

    // Rule 9: case.
    @Test func caseSensitivity() {
        #expect(kindOf(component: #"{"/": "/Buy"}"#, "/buy") == .noMatch)
        #expect(kindOf(component: #"{"/": "/Buy", "caseSensitive": false}"#, "/bUY") == .match)
        #expect(kindOf(component: #"{"/": "/%C3%A9", "caseSensitive": false}"#, "/%c3%a9") == .match)
        #expect(kindOf(component: #"{"/": "/ÉTÉ", "caseSensitive": false, "percentEncoded": false}"#, "/%C3%A9t%C3%A9") == .match)
        #expect(kindOf(component: #"{"?": {"ID": "X"}, "caseSensitive": false}"#, "/p?id=x") == .match)
        #expect(kindOf(component: ##"{"#": "Top", "caseSensitive": false}"##, "/p#TOP") == .match)
        #expect(kindOf(component: #"{"/": "/$(upper)", "caseSensitive": false}"#, "/a") == .match)
        #expect(kindOf(component: #"{"/": "/$(upper)"}"#, "/a") == .noMatch)
        #expect(kindOf(component: #"{"/": "/$(region)", "caseSensitive": false}"#, "/gb") == .match)
        let vars = #"{"food": ["Pizza"]}"#
        #expect(kind(fileText(components: #"[{"/": "/$(food)", "caseSensitive": false}]"#, variables: vars), "/PIZZA") == .match)
        #expect(kind(fileText(components: #"[{"/": "/$(food)"}]"#, variables: vars), "/PIZZA") == .noMatch)
    }

    // Rules 3 and AASA-29: the defaults hierarchy.
    @Test func defaultsHierarchy() {
        // applinks.defaults {"/": "/foo/*"} with a component {"#": "*"}.
        let foo = fileText(components: ##"[{"#": "*"}]"##, defaults: #"{"/": "/foo/*"}"#)
        #expect(kind(foo, "/bar") == .noMatch)
        #expect(kind(foo, "/foo/1") == .match)
        // applinks.defaults {"exclude": true} blocks every URL.
        let blocked = fileText(components: #"[{"/": "/a"}, {"/": "*"}]"#, defaults: #"{"exclude": true}"#)
        #expect(kind(blocked, "/a") == .exclude)
        #expect(kind(blocked, "/anything") == .exclude)
        // The entry's defaults win over applinks.defaults, the component over both.
        let layered = fileText(components: #"[{"/": "/A"}, {"/": "/B", "caseSensitive": true}]"#,
                               entryDefaults: #"{"caseSensitive": false}"#, defaults: #"{"caseSensitive": true}"#)
        #expect(kind(layered, "/a") == .match)
        #expect(kind(layered, "/b") == .noMatch)
        let encoded = fileText(components: #"[{"/": "/a b"}]"#, defaults: #"{"percentEncoded": false}"#)
        #expect(kind(encoded, "/a%20b") == .match)
        let query = fileText(components: #"[{"/": "/a"}]"#, entryDefaults: #"{"?": {"k": "v"}}"#)
        #expect(kind(query, "/a?k=v") == .match)
        #expect(kind(query, "/a?k=w") == .noMatch)
        // A wrongly typed key is ignored: the defaults apply.
        let wrong = fileText(components: #"[{"/": 5}]"#, defaults: #"{"/": "/d"}"#)
        #expect(kind(wrong, "/d") == .match)
        #expect(kind(wrong, "/e") == .noMatch)
    }

    // Rule 10: substitution variables.
    @Test func substitutionVariables() {
        let vars = #"{"food": ["burrito", "pizza"], "id": ["?*"], "bad": ["$(food)"]}"#
        func k(_ pattern: String, _ rest: String) -> AASAMatchKind {
            kind(fileText(components: #"[{"/": "\#(pattern)"}]"#, variables: vars), rest)
        }
        #expect(k("/$(food)/*", "/pizza/1") == .match)
        #expect(k("/$(food)/*", "/burrito") == .match)
        #expect(k("/$(food)/*", "/taco/1") == .noMatch)
        #expect(k("/order/$(id)", "/order/17") == .match)
        #expect(k("/order/$(id)", "/order/") == .noMatch)
        #expect(k("/$(bad)", "/$(food)") == .match)      // a value's variable is literal
        #expect(k("/$(bad)", "/pizza") == .noMatch)
        #expect(k("/$(nope)", "/$(nope)") == .match)     // undefined: literal
        #expect(k("/$(nope)", "/x") == .noMatch)
        #expect(k("/$(alpha)", "/q") == .match)
        #expect(k("/$(alpha)", "/1") == .noMatch)
        #expect(k("/$(upper)$(lower)", "/Ab") == .match)
        #expect(k("/$(upper)$(lower)", "/aB") == .noMatch)
        #expect(k("/$(alnum)$(digit)", "/z9") == .match)
        #expect(k("/$(digit)", "/x") == .noMatch)
        #expect(k("/$(xdigit)$(xdigit)", "/fA") == .match)
        #expect(k("/$(xdigit)", "/g") == .noMatch)
        #expect(k("/$(region)/*", "/GB/x") == .match)
        #expect(k("/$(region)/*", "/UK/x") == .noMatch)
        #expect(k("/$(region)", "/gb") == .noMatch)
        #expect(k("/$(lang)-$(region)", "/en-US") == .match)
        #expect(k("/$(lang)", "/xx") == .noMatch)
        #expect(k("/$(lang)", "/zh") == .match)
        // Custom names win over predefined ones.
        #expect(kind(fileText(components: #"[{"/": "/$(digit)"}]"#, variables: #"{"digit": ["one"]}"#), "/one") == .match)
        #expect(kind(fileText(components: ##"[{"?": {"d": "$(food)"}, "#": "$(food)"}]"##, variables: vars), "/x?d=pizza#burrito") == .match)
    }

    @Test func frozenLocaleLists() {
        #expect(AASAPredefined.regionCodes.contains("GB"))
        #expect(!AASAPredefined.regionCodes.contains("UK"))
        #expect(AASAPredefined.regionCodes.contains("US"))
        #expect(AASAPredefined.languageCodes.contains("en"))
        #expect(AASAPredefined.languageCodes.count > 100)
    }

    // Rule 11: legacy paths.
    @Test func legacyPaths() {
        let text = #"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["NOT /private/*", "/buy/*", "/Item/???", "NOT /x", "*"]}]}}"#
        #expect(kind(text, "/private/a") == .exclude)
        #expect(kind(text, "/buy") == .match)
        #expect(kind(text, "/x") == .exclude)            // "NOT /x" comes before "*"
        #expect(kind(text, "/item/abc") == .match)       // only via "*": legacy paths are case-sensitive
        #expect(kind(text, "/buy/1?q#f") == .match)      // query and fragment are not compared
        let r = parsed(text)!.matcher(appID: app).match(url: "https://example.com/Item/abc", domain: domain)
        #expect(r.component == 2)
        #expect(r.pattern == "/Item/???")
        let notWithoutSpace = #"{"applinks": {"details": [{"appID": "\#(app)", "paths": ["NOT/x"]}]}}"#
        #expect(kind(notWithoutSpace, "/x") == .noMatch)
        #expect(kind(notWithoutSpace, "/NOT/x") == .match)
        // Legacy paths know no variables.
        let vars = #"{"applinks": {"substitutionVariables": {"v": ["a"]}, "details": [{"appID": "\#(app)", "paths": ["/$(v)"]}]}}"#
        #expect(kind(vars, "/a") == .noMatch)
        #expect(kind(vars, "/$(v)") == .match)
        // Percent-encoded as written, and no defaults.
        let defaulted = #"{"applinks": {"defaults": {"caseSensitive": false, "exclude": true}, "details": [{"appID": "\#(app)", "paths": ["/A"]}]}}"#
        #expect(kind(defaulted, "/A") == .match)
        #expect(kind(defaulted, "/a") == .noMatch)
    }

    // AASA-33: paths beside components are ignored.
    @Test func pathsBesideComponentsAreIgnored() {
        let text = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "paths": ["*"], "components": [{"/": "/only"}]}]}}"#
        #expect(kind(text, "/only") == .match)
        #expect(kind(text, "/other") == .noMatch)
        let wrong = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "paths": ["*"], "components": "x"}]}}"#
        #expect(kind(wrong, "/other") == .noMatch)
    }

    // Rule 12: the dictionary form.
    @Test func dictionaryFormDetails() {
        let text = #"{"applinks": {"apps": [], "details": {"\#(app)": {"paths": ["NOT /a", "*"]}, "ZZZZZ99999.com.other": {"components": [{"/": "/b"}]}}}}"#
        #expect(kind(text, "/a") == .exclude)
        #expect(kind(text, "/b") == .match)
        #expect(kind(text, "/b", appID: "ZZZZZ99999.com.other") == .match)
        #expect(kind(text, "/c", appID: "ZZZZZ99999.com.other") == .noMatch)
        let r = parsed(text)!.matcher(appID: app).match(url: "https://example.com/a", domain: domain)
        #expect(r.detail == .appID(app))
        #expect(r.component == 0)
        #expect(r.pattern == "NOT /a")
    }

    @Test func unreadableFilesGiveNoMatch() {
        #expect(kind("{", "/") == .noMatch)
        #expect(kind(#"{"applinks": []}"#, "/") == .noMatch)
        #expect(kind(#"{"applinks": {"details": 3}}"#, "/") == .noMatch)
    }

    @Test func appIDGivenAsAnArrayIsNotUsed() {
        let text = #"{"applinks": {"details": [{"appID": ["\#(app)"], "paths": ["*"]}]}}"#
        #expect(kind(text, "/") == .noMatch)
    }
}
