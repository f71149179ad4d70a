import Conformance
import DomainCheck
import Testing

/// How each platform judges the way a file is served, from fetch records made by hand (no network).
struct ServingRulesTests {
    static let aasa = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/private/*", "exclude": true}, {"/": "/buy/*"}]}]}}"#
    static let statements = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "web", "site": "https://example.com"}}]"#

    static func served(_ file: WellKnownFile, _ body: String, type: String? = "application/json", extra: [(String, String)] = []) -> FetchRecord {
        FetchRecord(url: "https://example.com\(file.path)", status: 200,
                    headers: (type.map { [("Content-Type", $0)] } ?? []) + extra, body: Array(body.utf8))
    }

    static func status(_ file: WellKnownFile, _ code: Int, headers: [(String, String)] = []) -> FetchRecord {
        FetchRecord(url: "https://example.com\(file.path)", status: code, headers: headers)
    }

    static func failed(_ file: WellKnownFile, _ kind: FetchFailure.Kind) -> FetchRecord {
        FetchRecord(url: "https://example.com\(file.path)", failure: FetchFailure(kind, "as seen"))
    }

    static func goodSite() -> [WellKnownFile: FetchRecord] {
        [.aasa: served(.aasa, aasa), .aasaLegacy: status(.aasaLegacy, 404), .assetLinks: served(.assetLinks, statements)]
    }

    static let question = LiveQuestion(domain: "example.com", appID: "ABCDE12345.com.example.app",
                                       urls: ["https://example.com/buy/1", "https://example.com/private/2", "https://example.com/other"])

    func codes(_ judged: ServingJudgement) -> [String] { judged.findings.map(\.code.rawValue) }

    @Test func aWellServedSiteIsReadByBothPlatformsWithoutFindings() {
        let report = DomainJudge.judge(Self.question, records: Self.goodSite())
        #expect(report.reachable && report.valid)
        #expect(report.platforms.map(\.source) == [.aasa, .assetLinks])
        #expect(report.platforms.allSatisfy { $0.findings.isEmpty })
        #expect(report.platforms[0].verdict.sentence.contains("nothing to fix"))
    }

    @Test func theURLsAreMatchedForTheAppThroughTheAASASuite() throws {
        let contents = try #require(DomainJudge.judge(Self.question, records: Self.goodSite()).platforms[0].contents)
        let values = contents.fields.filter { $0.label.hasPrefix("https://") }.map { $0.value ?? "" }
        #expect(values.count == 3)
        #expect(values[0].hasPrefix("match by details[0] components[1]"))
        #expect(values[1].hasPrefix("exclude by details[0] components[0]"))
        #expect(values[2] == "no_match")
    }

    @Test func urlsWithoutTheAppAreNotMatchedAndSaySo() throws {
        let question = LiveQuestion(domain: "example.com", urls: ["https://example.com/buy/1"])
        let contents = try #require(DomainJudge.judge(question, records: Self.goodSite()).platforms[0].contents)
        #expect(contents.fields.contains { $0.label == "urls" && $0.value == "not matched" })
    }

    /// Only the redirect statuses are redirects: a 304 to a request that asked for none, or a
    /// 300, is a status like any other.
    @Test func otherThreeHundredsAreAStatusNotARedirect() {
        for code in [300, 304, 305] {
            #expect(codes(ServingRules.judge(Self.status(.assetLinks, code), as: .assetLinks)) == ["status"], "\(code)")
        }
        for code in [301, 302, 303, 307, 308] {
            #expect(codes(ServingRules.judge(Self.status(.assetLinks, code), as: .assetLinks)) == ["redirect"], "\(code)")
        }
    }

    @Test func aLongLocationIsQuotedInPart() {
        let long = "https://evil.example/" + String(repeating: "a", count: 60_000)
        let judged = ServingRules.judge(Self.status(.aasa, 302, headers: [("Location", long)]), as: .aasa)
        #expect(judged.findings.first.map { $0.message.count < 1_000 && $0.message.contains("https://evil.example/aaa") } == true)
    }

    @Test func aRedirectIsNotFollowedAndItsTargetIsReported() {
        let record = Self.status(.aasa, 301, headers: [("Location", "http://www.example.com/.well-known/apple-app-site-association")])
        let judged = ServingRules.judge(record, as: .aasa)
        #expect(!judged.accepted && judged.body == nil)
        #expect(codes(judged) == ["redirect"])
        #expect(judged.findings[0].message.contains("to http://www.example.com/") && judged.findings[0].message.contains("plain http"))
        #expect(judged.findings[0].source.contains("TN3155"))
    }

    @Test func forbiddenAndMissingFilesAreDenied() {
        for code in [403, 404] {
            #expect(codes(ServingRules.judge(Self.status(.assetLinks, code), as: .assetLinks)) == ["denied"])
        }
        #expect(codes(ServingRules.judge(Self.status(.aasa, 500), as: .aasa)) == ["status"])
        #expect(codes(ServingRules.judge(Self.status(.aasa, 204), as: .aasa)) == ["status"])
    }

    @Test func aWrongContentTypeIsANoteForIOSAndARefusalForAndroid() {
        let ios = ServingRules.judge(Self.served(.aasa, Self.aasa, type: "application/octet-stream"), as: .aasa)
        #expect(ios.accepted && ios.findings.map(\.level) == [.info])
        let android = ServingRules.judge(Self.served(.assetLinks, Self.statements, type: "text/html"), as: .assetLinks)
        #expect(!android.accepted && codes(android) == ["content-type"])
        #expect(ios.findings[0].source.contains("observed") && android.findings[0].source.hasPrefix("Digital Asset Links"))
        let missing = ServingRules.judge(Self.served(.assetLinks, Self.statements, type: nil), as: .assetLinks)
        #expect(!missing.accepted && missing.findings[0].message.contains("no Content-Type"))
    }

    @Test func contentTypeParametersAndCaseDoNotMatter() {
        for type in ["application/json; charset=utf-8", "Application/JSON", " application/json ;charset=UTF-8"] {
            #expect(ServingRules.judge(Self.served(.assetLinks, Self.statements, type: type), as: .assetLinks).findings.isEmpty, "\(type)")
        }
    }

    @Test func aBodyOverTheLimitIsRefusedAndNotRead() {
        var record = Self.served(.aasa, String(repeating: " ", count: WellKnownFile.aasa.sizeLimit + 1))
        record.stoppedAtLimit = true
        let judged = ServingRules.judge(record, as: .aasa)
        #expect(!judged.accepted && codes(judged) == ["too-large"])
        #expect(judged.findings[0].message.contains("128 KB"))
        #expect(WellKnownFile.aasa.sizeLimit == 131_072 && WellKnownFile.assetLinks.sizeLimit == 1 << 20)
    }

    @Test func aCompressedBodyIsANoteOnly() {
        for encoding in ["gzip", "deflate", "GZIP", " gzip "] {
            let judged = ServingRules.judge(Self.served(.aasa, Self.aasa, extra: [("Content-Encoding", encoding)]), as: .aasa)
            #expect(judged.accepted && codes(judged) == ["content-encoding"] && judged.findings[0].level == .info, "\(encoding)")
            #expect(judged.findings[0].message.contains("decoded as"))
        }
        #expect(codes(ServingRules.judge(Self.served(.aasa, Self.aasa, extra: [("Content-Encoding", "identity")]), as: .aasa)).isEmpty)
        var undecodable = Self.served(.aasa, "", extra: [("Content-Encoding", "gzip")])
        undecodable.bodyFailure = FetchFailure(.undecodable, "invalidTrailingData")
        let judged = ServingRules.judge(undecodable, as: .aasa)
        #expect(codes(judged) == ["body-cut", "content-encoding"] && judged.findings[1].message.contains("did not decode"))
    }

    /// Only one layer of gzip or deflate is decoded: any other coding leaves bytes that are not
    /// the file, which is then neither read nor judged as one, whatever those bytes look like.
    @Test func aCodingThatWasNotDecodedIsARefusal() {
        for fields in [["br"], ["gzip, gzip"], ["gzip", "gzip"], ["x-gzip"], ["identity, gzip"], ["compress"]] {
            let record = Self.served(.assetLinks, Self.statements, extra: fields.map { ("Content-Encoding", $0) })
            let judged = ServingRules.judge(record, as: .assetLinks)
            #expect(!judged.accepted && codes(judged) == ["content-encoding"] && judged.findings[0].level == .must, "\(fields)")
            #expect(judged.findings[0].message.contains("not decoded") && !judged.findings[0].message.contains("decoded as"), "\(fields)")
            #expect(judged.body == nil)
        }
    }

    @Test func aBodyCutOffAfterTheHeadIsRefused() {
        for (kind, code) in [(FetchFailure.Kind.deadline, "deadline"), (.readTimeout, "read-timeout"), (.protocolError, "body-cut"), (.undecodable, "body-cut")] {
            var record = Self.served(.assetLinks, "[")
            record.bodyFailure = FetchFailure(kind, "cut")
            let judged = ServingRules.judge(record, as: .assetLinks)
            #expect(!judged.accepted && codes(judged) == [code], "\(kind)")
        }
    }

    @Test func eachFailureBeforeTheHeadHasItsCode() {
        let expected: [FetchFailure.Kind: String] = [
            .unresolvable: "unreachable", .refused: "unreachable", .connectTimeout: "unreachable",
            .untrustedCertificate: "untrusted-certificate", .wrongHostCertificate: "wrong-host-certificate", .tlsFailed: "tls-failed",
            .readTimeout: "read-timeout", .deadline: "deadline", .headersTooLarge: "headers-too-large",
            .protocolError: "protocol-error", .undecodable: "protocol-error", .other: "protocol-error",
        ]
        for kind in FetchFailure.Kind.allCases {
            let judged = ServingRules.judge(Self.failed(.aasa, kind), as: .aasa)
            #expect(codes(judged) == [expected[kind]!], "\(kind)")
            #expect(judged.findings.allSatisfy { $0.level == .must })
        }
    }

    @Test func onlyTheRootPathServingIsAWarningAndTheRootFileIsRead() {
        var site = Self.goodSite()
        site[.aasa] = Self.status(.aasa, 404)
        site[.aasaLegacy] = Self.served(.aasaLegacy, Self.aasa)
        let ios = DomainJudge.judge(Self.question, records: site).platforms[0]
        #expect(ios.source == .aasaLegacy)
        #expect(ios.findings.map(\.code) == [.legacyPathOnly] && ios.findings[0].level == .should)
        #expect(ios.verdict.valid && ios.verdict.sentence.contains("with warnings"))
    }

    @Test func neitherAASAPathServingIsARefusal() {
        var site = Self.goodSite()
        site[.aasa] = Self.status(.aasa, 301, headers: [("Location", "https://www.example.com/")])
        let report = DomainJudge.judge(Self.question, records: site)
        #expect(!report.platforms[0].verdict.valid && report.platforms[0].source == nil && report.platforms[0].contents == nil)
        #expect(report.platforms[1].verdict.valid)
        #expect(!report.valid && report.reachable)
    }

    @Test func aDomainIsUnreachableOnlyWhenNoFetchReachedAServer() {
        let refused = Dictionary(uniqueKeysWithValues: WellKnownFile.allCases.map { ($0, Self.failed($0, .refused)) })
        #expect(!DomainJudge.judge(Self.question, records: refused).reachable)
        var tls = refused
        tls[.aasa] = Self.failed(.aasa, .untrustedCertificate)
        #expect(DomainJudge.judge(Self.question, records: tls).reachable)
    }

    @Test func theStatementListMustBeAJSONArray() throws {
        var site = Self.goodSite()
        site[.assetLinks] = Self.served(.assetLinks, #"{"relation": []}"#)
        let android = DomainJudge.judge(Self.question, records: site).platforms[1]
        #expect(!android.verdict.valid && android.contents?.violations.map(\.code) == ["not-array"])
        site[.assetLinks] = Self.served(.assetLinks, "[\u{FF}")
        #expect(DomainJudge.judge(Self.question, records: site).platforms[1].contents?.violations.map(\.code) == ["not-json"])
    }

    @Test func aFileThatIsServedWellButBrokenIsRefusedByItsReader() {
        var site = Self.goodSite()
        site[.aasa] = Self.served(.aasa, #"{"applinks": {"details": [{"components": []}]}}"#)
        let ios = DomainJudge.judge(Self.question, records: site).platforms[0]
        #expect(ios.findings.isEmpty && !ios.verdict.valid)
        #expect(ios.contents?.violations.contains { $0.code == "appids-missing" } == true)
    }

    @Test func aPlatformWithNothingFetchedIsNeverValid() {
        let report = DomainJudge.judge(Self.question, records: [:])
        #expect(report.platforms.allSatisfy { !$0.verdict.valid })
    }
}

extension ServingRulesTests {
    /// The statement list is read by the assetlinks suite: the app asked about is verified (or
    /// not) from what was served.
    @Test func theAssetLinksSuiteVerifiesTheAppFromTheServedList() throws {
        let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        let list = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "#
            + #""package_name": "com.example.app", "sha256_cert_fingerprints": [""# + fingerprint + #""]}}]"#
        var site = Self.goodSite()
        site[.assetLinks] = Self.served(.assetLinks, list)
        func android(_ package: String, _ print: String) -> PlatformVerdict {
            let q = LiveQuestion(domain: "example.com", appID: nil, package: package, fingerprint: print, urls: [])
            return DomainJudge.judge(q, records: site).platforms[1]
        }
        let granted = android("com.example.app", fingerprint)
        #expect(granted.verdict.valid)
        #expect(granted.contents?.violations.contains { $0.code == "app-not-verified" } == false)
        let other = android("com.example.other", fingerprint)
        #expect(!other.verdict.valid)
        #expect(other.contents?.violations.map(\.code).contains("app-not-verified") == true)
    }
}
