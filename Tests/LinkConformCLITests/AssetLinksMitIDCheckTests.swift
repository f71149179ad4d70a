import Foundation
import LinkJSON
import Testing

/// `linkconform check --assetlinks` and `check '<authorize URL>'`: the assetlinks and mitid
/// suites through the binary.
struct AssetLinksMitIDCheckTests {
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    func file(_ text: String, named name: String = "assetlinks.json") throws -> String {
        let path = CLI.temporaryDirectory() + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    var list: String {
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": [""#
            + Self.fingerprint + #""]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/admin/*", "exclude": true}, {"/": "/*"}]}}}]"#
    }

    @Test func aListIsVerifiedAndEachURLMatched() async throws {
        let path = try file(list)
        let result = try await CLI.run(["check", "--assetlinks", path, "--package", "com.example.app", "--fingerprint", Self.fingerprint.lowercased(),
                                        "https://example.com/shop/1", "https://example.com/admin/x"])
        #expect(result.status == 0, "\(result.output)")
        // Columns are padded: compare with runs of spaces collapsed.
        let text = result.stdout.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(text.contains("verified yes: statement 0 grants delegate_permission/common.handle_all_urls"), "\(result.stdout)")
        #expect(text.contains("https://example.com/shop/1 match"))
        #expect(text.contains("https://example.com/admin/x exclude"))
        #expect(result.stdout.contains("verdict: valid"))
    }

    @Test func anAppTheListDoesNotVerifyFails() async throws {
        let path = try file(list)
        let result = try await CLI.run(["check", "--json", "--assetlinks", path, "--package", "com.example.other", "--fingerprint", Self.fingerprint])
        #expect(result.status == 1, "\(result.output)")
        let json = try JSONParser.parse(Array(result.stdout.utf8))
        let violations = try #require(json["protocols"]?.arrayValue?.first?["violations"]?.arrayValue)
        #expect(violations.map { $0["code"]?.stringValue } == ["app-not-verified"])
        #expect(json["valid"] == .bool(false))
    }

    /// Includes are not fetched by check: a list that grants the app only through one is not
    /// failed, it is undetermined (AL-20); an http include, never followed, decides nothing.
    @Test func aListThatGrantsOnlyThroughAnIncludeIsUndetermined() async throws {
        let path = try file(#"[{"include": "https://static.example/links.json"}]"#)
        let result = try await CLI.run(["check", "--json", "--assetlinks", path, "--package", "com.example.app", "--fingerprint", Self.fingerprint])
        #expect(result.status == 0, "\(result.output)")
        let json = try JSONParser.parse(Array(result.stdout.utf8))
        let violations = try #require(json["protocols"]?.arrayValue?.first?["violations"]?.arrayValue)
        #expect(violations.map { $0["code"]?.stringValue } == ["includes-not-fetched"])
        #expect(violations.first?["level"]?.stringValue == "INFO", "\(violations)")
        let insecure = try file(#"[{"include": "http://static.example/links.json"}]"#)
        let refused = try await CLI.run(["check", "--assetlinks", insecure, "--package", "com.example.app", "--fingerprint", Self.fingerprint])
        #expect(refused.status == 1 && refused.stdout.contains("app-not-verified"), "\(refused.output)")
    }

    /// Asked as a statement list, a file is read as one whatever its name: not-json, not-array.
    @Test func aFileGivenWithAssetlinksIsReadWhateverItsName() async throws {
        for (text, code) in [("garbage", "not-json"), (#"{"a": 1}"#, "not-array")] {
            let path = try file(text, named: "g.json")
            let result = try await CLI.run(["check", "--assetlinks", path])
            #expect(result.status == 1 && result.stdout.contains("AL-1 MUST") && result.stdout.contains(": \(code)\n"), "\(result.output)")
        }
    }

    @Test func aMalformedFingerprintInTheFileIsExplained() async throws {
        let path = try file(list.replacingOccurrences(of: Self.fingerprint, with: Self.fingerprint.lowercased()))
        let result = try await CLI.run(["check", "--assetlinks", path])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.stdout.contains("AL-11 MUST") && result.stdout.contains("fingerprint-malformed") && result.stdout.contains("lower-case"))
    }

    @Test func aRelationThatIsNotOneIsAUsageError() async throws {
        let path = try file(list)
        let result = try await CLI.run(["check", "--assetlinks", path, "--package", "com.example.app", "--fingerprint", Self.fingerprint,
                                        "--relation", "NOT A RELATION"])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.stderr.contains("is not a relation"))
    }

    @Test func urlsWithoutTheAppAreAUsageError() async throws {
        let path = try file(list)
        let result = try await CLI.run(["check", "--assetlinks", path, "https://example.com/"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--package and --fingerprint"))
    }

    @Test func anAuthorizeURLIsExplained() async throws {
        let json = #"{"mitid":{"enable_app_switch":true,"app_switch_os":"android","app_switch_url":"http://app.example/"}}"#
        let encoded = json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let result = try await CLI.run(["check", "https://broker.example/authorize?client_id=a&idp_params=" + encoded])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.stdout.contains("mitid: an authorize URL whose idp_params the broker would refuse or misread"))
        #expect(result.stdout.contains("app_switch_url:url-not-https"))
        #expect(result.stdout.contains(#"decoded  {"mitid""#))
        let good = try await CLI.run(["check", "--json", "https://broker.example/authorize?client_id=a&idp_params=" + encoded.replacingOccurrences(of: "http%3A", with: "https%3A")])
        #expect(good.status == 0, "\(good.output)")
    }
}
