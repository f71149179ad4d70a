import Testing
import AssetLinks
import AASA

let F1 = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
let F2 = "10:39:38:EE:45:37:E5:9E:8E:E7:92:F6:54:50:4F:B8:34:6F:C6:B3:46:D0:BB:C4:41:5F:C3:39:FC:FC:8E:C1"

func appStatement(_ package: String = "com.example.app", fingerprints: [String] = [F1], relation: String = #""delegate_permission/common.handle_all_urls""#,
                  extensions: String? = nil) -> String {
    let fps = fingerprints.map { "\"\($0)\"" }.joined(separator: ", ")
    return #"{"relation": ["# + relation + #"], "target": {"namespace": "android_app", "package_name": ""# + package + #"", "sha256_cert_fingerprints": ["# + fps + "]}"
        + (extensions.map { #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": "# + $0 + "}}" } ?? "") + "}"
}

func codes(_ text: String) -> [String] { AssetLinks.validate(Array(text.utf8)).map(\.code.rawValue) }

struct ValidationTests {
    @Test func cleanListHasNoDiagnostic() {
        #expect(codes("[" + appStatement() + "]") == [])
    }

    @Test func fileLevelProblems() {
        #expect(codes("[{") == ["not-json"])
        #expect(codes(#"{"a": 1, "a": 2}"#) == ["not-json"])   // duplicate names refused (strict)
        #expect(codes("42") == ["not-array"])
        #expect(codes("[]") == ["list-empty"])
        #expect(codes("[1]") == ["statement-not-object"])
    }

    @Test func everyFingerprintRuleOfTheCompatibilityTests() {
        #expect(AssetLinksFingerprint.problem(in: F1) == nil)
        for bad in ["", "B A D", F1.lowercased(), "GG:HH" + F1.dropFirst(5), String(F1.dropFirst(3)), F1 + ":00", String(F1.filter { $0 != ":" })] {
            #expect(AssetLinksFingerprint.problem(in: bad) != nil, "\(bad)")
        }
        #expect(AssetLinksFingerprint.problem(in: F1.lowercased())?.contains("lower-case") == true)
    }

    @Test func queriedFingerprintIsCanonicalised() {
        #expect(AssetLinksFingerprint.canonical(F1.lowercased()) == F1)
        #expect(AssetLinksFingerprint.canonical(String(F1.filter { $0 != ":" })) == F1)
        #expect(AssetLinksFingerprint.canonical(String(F1.dropFirst(3))) == nil)
        #expect(AssetLinksFingerprint.canonical(F1 + "A") == nil)
        #expect(AssetLinksFingerprint.canonical(F1 + ":::") == F1)
        #expect(AssetLinksFingerprint.canonical("G" + F1.dropFirst()) == nil)
        #expect(AssetLinksFingerprint.canonical(String(repeating: "AB", count: 1_000_000)) == nil)
    }

    @Test func relationStrings() {
        for bad in ["", "/", "a", "a/", "/b", "a/b/c", "A/b", "a/B", "a/b ", " a/b", "a/*", "a,b"] {
            #expect(codes(#"[{"relation": [""# + bad + #""], "target": {"namespace": "web", "site": "https://a.example"}}]"#) == ["relation-invalid"], "\(bad)")
        }
        #expect(codes(#"[{"relation": ["navigate/yellow_brick_road"], "target": {"namespace": "web", "site": "https://a.example"}}]"#) == ["relation-unknown"])
    }

    @Test func diagnosticsCarryPointerLineAndColumn() {
        let text = "[\n  " + appStatement(fingerprints: ["ab"]) + "\n]"
        let d = AssetLinks.validate(Array(text.utf8))
        #expect(d.count == 1)
        #expect(d[0].code == .fingerprintMalformed)
        #expect(d[0].pointer == "/0/target/sha256_cert_fingerprints/0")
        #expect(d[0].line == 2)
        #expect(d[0].requirement == "AL-11" && d[0].level == .must)
    }

    @Test func siteRules() {
        func site(_ s: String) -> [String] { codes(#"[{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": ""# + s + #""}}]"#) }
        #expect(site("https://a.example") == [])
        #expect(site("https://a.example.") == [])
        #expect(site("https://a.example/") == ["site-has-path"])
        #expect(site("https://u@a.example") == ["site-userinfo"])
        #expect(site("https://a.example:443") == ["site-default-port"])
        #expect(site("mailto://a.example") == ["site-invalid"])
    }

    @Test func hostileInputNeverTraps() {
        #expect(codes(String(repeating: "[", count: 100_000)) == ["not-json"])
        #expect(AssetLinks.validate([0xFF, 0xFE, 0x5B, 0x5D]).map(\.code) == [.notJSON])
        #expect(AssetLinks.validate(Array(repeating: 0x20, count: AssetLinks.maxFileBytes + 1)).map(\.code) == [.fileTooLarge])
    }

    @Test func dynamicComponentShapes() {
        #expect(codes("[" + appStatement(extensions: ##"[{"/": "/a", "?": {"x": "*"}, "#": "f", "exclude": true}]"##) + "]") == [])
        #expect(codes("[" + appStatement(extensions: #"[{"?": "x=1"}]"#) + "]") == ["component-wrong-type"])
        #expect(codes("[" + appStatement(extensions: #"[{"percentEncoded": false}]"#) + "]") == ["component-unknown-key"])
    }
}

struct VerifyTests {
    let list = Array(("[" + appStatement(fingerprints: [F1, F2]) + "]").utf8)

    @Test func grantsTheListedAppOnly() {
        #expect(AssetLinks.verify(list, packageName: "com.example.app", fingerprint: F2).granted)
        #expect(!AssetLinks.verify(list, packageName: "com.example.App", fingerprint: F1).granted)
        #expect(!AssetLinks.verify(list, packageName: "com.example.app", fingerprint: F1, relation: "delegate_permission/common.get_login_creds").granted)
        #expect(AssetLinks.verify(list, packageName: "com.example.other", fingerprint: F1).reason == "no valid statement names the package com.example.other")
    }

    @Test func invalidStatementsAreSkippedOthersCount() {
        let text = "[" + appStatement(fingerprints: [F1.lowercased()]) + ", {}, " + appStatement("com.example.b") + "]"
        #expect(!AssetLinks.verify(Array(text.utf8), packageName: "com.example.app", fingerprint: F1).granted)
        #expect(AssetLinks.verify(Array(text.utf8), packageName: "com.example.b", fingerprint: F1).granted)
    }

    @Test func includeBudgetStopsLoops() {
        let root = Array(#"[{"include": "https://e.example/a.json"}]"#.utf8)
        let includes = ["https://e.example/a.json": Array(#"[{"include": "https://e.example/a.json"}]"#.utf8)]
        let walk = AssetLinksIncludeWalk.resolve(root: root, includes: includes)
        #expect(walk.events.filter { $0.kind == .followed }.count == AssetLinks.maxIncludes)
        #expect(walk.events.last?.kind == .budgetExhausted)
    }

    /// Each way of not granting has its own cause word; a grant has none.
    @Test func eachRefusalNamesItsCause() {
        func cause(_ bytes: [UInt8], _ package: String = "com.example.app", _ fingerprint: String = F1,
                   relation: String = AssetLinksRelation.handleAllURLs) -> String? {
            AssetLinks.verify(bytes, packageName: package, fingerprint: fingerprint, relation: relation).cause
        }
        #expect(cause(list) == nil)
        #expect(cause(list, "com.example.app", "14:6D") == "fingerprint-unreadable")
        #expect(cause(Array("{".utf8)) == "file-unreadable")
        #expect(cause(list, "com.example.other") == "package-not-listed")
        let other = "11:" + F1.dropFirst(3)
        #expect(cause(list, "com.example.app", other) == "fingerprint-not-listed")
        #expect(cause(list, relation: AssetLinksRelation.getLoginCreds) == "relation-not-granted")
    }

    @Test func insecureAndUnreadableIncludes() {
        let root = Array(#"[{"include": "http://e.example/a.json"}, {"include": "https://e.example/b.json"}]"#.utf8)
        let walk = AssetLinksIncludeWalk.resolve(root: root, includes: ["https://e.example/b.json": Array("nope".utf8)])
        #expect(walk.events.map(\.kind) == [.insecure, .unreadable])
    }
}

struct MatchTests {
    func result(_ components: String, _ url: String) -> AssetLinksMatchKind {
        AssetLinks.match(Array(("[" + appStatement(extensions: components) + "]").utf8), domain: "example.com",
                         packageName: "com.example.app", fingerprint: F1, url: url).kind
    }

    @Test func firstMatchingComponentDecides() {
        let c = #"[{"/": "/admin/*", "exclude": true}, {"/": "*"}]"#
        #expect(result(c, "https://example.com/admin/x") == .exclude)
        #expect(result(c, "https://example.com/shop") == .match)
    }

    @Test func queryDictionaryNeedsThePresentParameter() {
        let c = #"[{"?": {"dl": "*"}}]"#
        #expect(result(c, "https://example.com/?dl=") == .match)
        #expect(result(c, "https://example.com/?other=1") == .noMatch)
        #expect(result(#"[{"?": {"a": "1"}}]"#, "https://example.com/?a=2&a=1") == .noMatch)   // first occurrence
    }

    @Test func differsFromAASAWhereTheSourcesDiffer() {
        // The same pattern and path: AASA's observed slash rule matches the parent, Android does not.
        #expect(result(#"[{"/": "/buy/*"}]"#, "https://example.com/buy") == .noMatch)
        let aasa = Array(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}"#.utf8)
        #expect(AASA.match(aasa, domain: "example.com", appID: "ABCDE12345.com.example.app", url: "https://example.com/buy").kind == .match)
        #expect(result(#"[{"/": "/x/$(digit)"}]"#, "https://example.com/x/1") == .noMatch)
    }

    @Test func decodedComparison() {
        #expect(result(#"[{"/": "/café"}]"#, "https://example.com/caf%C3%A9") == .match)
        #expect(result(##"[{"#": "a b"}]"##, "https://example.com/#a%20b") == .match)
    }

    @Test func verificationComesFirst() {
        let bytes = Array(("[" + appStatement() + "]").utf8)
        #expect(AssetLinks.match(bytes, domain: "example.com", packageName: "com.example.app", fingerprint: F1, url: "https://example.com/").kind == .noDynamicRules)
        #expect(AssetLinks.match(bytes, domain: "example.com", packageName: "com.example.app", fingerprint: F2, url: "https://example.com/").kind == .notVerified)
        #expect(result("[{}]", "https://other.example/") == .noMatch)
    }

    /// Why an answer, in stable words: the URL problem, the verdict on the app, or the deciding
    /// component's shape (each part it constrains, `-wildcards` where its patterns have them).
    @Test func eachAnswerNamesItsCause() {
        func cause(_ components: String?, _ url: String, fingerprint: String = F1) -> String {
            AssetLinks.match(Array(("[" + appStatement(extensions: components) + "]").utf8), domain: "example.com",
                             packageName: "com.example.app", fingerprint: fingerprint, url: url).cause
        }
        let c = ##"[{"/": "/admin/*", "exclude": true}, {"/": "/shop", "?": {"id": "4?"}, "#": "top"}, {"#": "x*"}, {}]"##
        #expect(cause(c, "https://example.com/admin/1") == "path-wildcards")
        #expect(cause(c, "https://example.com/shop?id=42#top") == "path, query-wildcards, fragment")
        #expect(cause(c, "https://example.com/other#xy") == "fragment-wildcards")
        #expect(cause(c, "https://example.com/other") == "any-url")
        #expect(cause(#"[{"/": "/a"}]"#, "https://example.com/b") == "no-component-matched")
        #expect(cause(c, "ftp://example.com/") == "url-not-app-link")
        #expect(cause(c, "https://user@example.com/") == "url-userinfo")
        #expect(cause(c, "https://example.com:8443/") == "url-port")
        #expect(cause(c, "https://other.example/") == "url-host-mismatch")
        #expect(cause(nil, "https://example.com/") == "no-dynamic-components")
        #expect(cause(c, "https://example.com/", fingerprint: F2) == "not-verified")
    }

    @Test func longInputsStayLinear() {
        let url = "https://example.com/" + String(repeating: "a", count: 50_000)
        #expect(result(#"[{"/": "/*a*a*a*a*a*a*a*a*b"}]"#, url) == .noMatch)
    }
}

/// A web target keeps its site as written and the site's origin in canonical form (the public
/// model's `origin`: scheme and host in lower case, a trailing dot and the scheme's default port
/// dropped, any other port kept). No operation reports it, so no corpus case can check it; the
/// mutation audit of 2026-11-29 found a port comparison flipped there that nothing noticed.
struct WebTargetOriginTests {
    @Test(arguments: [("HTTPS://A.Example:443", "https://a.example"), ("https://a.example:8443", "https://a.example:8443"),
                      ("http://a.example:80", "http://a.example"), ("http://a.example:443", "http://a.example:443"),
                      ("https://a.example.", "https://a.example"), ("https://a.example", "https://a.example")])
    func theOriginIsCanonical(site: String, origin: String) throws {
        let text = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "web", "site": ""# + site + #""}}]"#
        let list = try #require(AssetLinks.parse(Array(text.utf8)).0)
        #expect(list.statements.map(\.target) == [.web(site: site, origin: origin)])
    }
}
