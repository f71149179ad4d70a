import DomainCheck
import DomainFetch
import Foundation
import Testing

/// Live checks against real TLS servers on loopback (``LiveServers``): each case a host name,
/// fetched through AsyncHTTPClient as `check --domain` does, judged, and bounded in time.
@Suite(.enabled(if: LiveServers.toolsPresent || LiveServers.mustRun,
                "nginx, openssl or python3 is missing: the live tests need them (.ci/run installs nginx)"))
struct LiveCheckTests {
    /// One case of the fixture: its host's first label, which server plays it, and what each
    /// platform should conclude (the serving finding codes that count for it, whether it reads
    /// the file).
    struct Case: Sendable, CustomTestStringConvertible {
        enum Server: Sendable { case nginx, helper, nothing }
        let host: String
        let server: Server
        let ios: (reads: Bool, codes: Set<String>)
        let android: (reads: Bool, codes: Set<String>)
        var testDescription: String { host }

        init(_ host: String, _ server: Server, ios: (Bool, Set<String>), android: (Bool, Set<String>)) {
            self.host = host
            self.server = server
            self.ios = ios
            self.android = android
        }
    }

    static let cases: [Case] = [
        Case("good", .nginx, ios: (true, []), android: (true, [])),
        Case("legacy", .nginx, ios: (true, ["legacy-path-only"]), android: (true, [])),
        Case("redirect", .nginx, ios: (false, ["redirect"]), android: (false, ["redirect"])),
        Case("missing", .nginx, ios: (false, ["denied"]), android: (false, ["denied"])),
        Case("forbidden", .nginx, ios: (false, ["denied"]), android: (false, ["denied"])),
        Case("wrong-type", .nginx, ios: (true, ["content-type"]), android: (false, ["content-type"])),
        Case("large", .nginx, ios: (false, ["too-large"]), android: (true, [])),
        Case("huge", .nginx, ios: (false, ["too-large"]), android: (false, ["too-large"])),
        Case("slow", .nginx, ios: (false, ["deadline"]), android: (false, ["deadline"])),
        Case("gzip", .nginx, ios: (true, ["content-encoding"]), android: (true, ["content-encoding"])),
        Case("gzip-large", .nginx, ios: (false, ["too-large", "content-encoding"]), android: (true, ["content-encoding"])),
        Case("bad-json", .nginx, ios: (false, []), android: (false, [])),
        Case("untrusted", .nginx, ios: (false, ["untrusted-certificate"]), android: (false, ["untrusted-certificate"])),
        Case("wrong-name", .nginx, ios: (false, ["wrong-host-certificate"]), android: (false, ["wrong-host-certificate"])),
        Case("endless", .helper, ios: (false, ["too-large"]), android: (false, ["too-large"])),
        Case("trickle", .helper, ios: (false, ["deadline"]), android: (false, ["deadline"])),
        Case("silent", .helper, ios: (false, ["read-timeout"]), android: (false, ["read-timeout"])),
        Case("stall", .helper, ios: (false, ["read-timeout"]), android: (false, ["read-timeout"])),
        Case("short", .helper, ios: (false, ["body-cut"]), android: (false, ["body-cut"])),
        Case("huge-headers", .helper, ios: (false, ["headers-too-large"]), android: (false, ["headers-too-large"])),
        Case("hostile", .helper, ios: (false, ["redirect"]), android: (false, ["redirect"])),
        Case("control", .helper, ios: (false, ["protocol-error"]), android: (false, ["protocol-error"])),
        Case("nothing", .nothing, ios: (false, ["unreachable"]), android: (false, ["unreachable"])),
    ]

    /// Short timeouts, so that the slow cases end in seconds: connect 2 s, read 2 s, total 5 s.
    static func options(_ servers: LiveServers, _ c: Case) -> FetchOptions {
        var options = FetchOptions()
        options.caFile = servers.caFile
        options.resolve = ["\(c.host).\(servers.domain)": "127.0.0.1"]
        options.port = switch c.server {
        case .nginx: servers.nginxPort
        case .helper: servers.helperPort
        case .nothing: 1   // nothing listens on port 1 of the loopback
        }
        options.connectTimeout = .seconds(2)
        options.readTimeout = .seconds(2)
        options.totalTimeout = .seconds(5)
        return options
    }

    static func check(_ c: Case, appID: String? = nil, urls: [String] = []) async throws -> (DomainReport, Duration) {
        let servers = try await LiveServers.shared()
        let fetcher = try DomainFetcher(options: options(servers, c))
        let started = ContinuousClock.now
        let domain = "\(c.host).\(servers.domain)"
        let records = await fetcher.fetchAll(domain: domain)
        try await fetcher.shutdown()
        let took = started.duration(to: .now)
        return (DomainJudge.judge(LiveQuestion(domain: domain, appID: appID, urls: urls), records: records), took)
    }

    @Test(arguments: cases)
    func eachCaseGetsItsVerdictInTime(_ c: Case) async throws {
        let (report, took) = try await Self.check(c)
        let ios = report.platforms[0], android = report.platforms[1]
        print("live case \(c.host): iOS \(ios.verdict.valid ? "reads" : "refuses") \(ios.findings.map(\.code.rawValue)), "
              + "Android \(android.verdict.valid ? "reads" : "refuses") \(android.findings.map(\.code.rawValue)), \(took)")
        #expect(ios.verdict.valid == c.ios.reads, "\(ios.findings) \(String(describing: ios.contents?.violations))")
        #expect(Set(ios.findings.map(\.code.rawValue)) == c.ios.codes, "\(ios.findings)")
        #expect(android.verdict.valid == c.android.reads, "\(android.findings) \(String(describing: android.contents?.violations))")
        #expect(Set(android.findings.map(\.code.rawValue)) == c.android.codes, "\(android.findings)")
        #expect(report.reachable == (c.server != .nothing))
        // Every case ends within the 5 s total deadline plus shutdown, whatever the server does.
        #expect(took < .seconds(8), "took \(took)")
        for judged in report.files { #expect(judged.record.bytesRead <= judged.file.sizeLimit + 1) }
    }

    @Test func aGoodSiteIsMatchedForTheApp() async throws {
        let good = Self.cases[0]
        let (report, _) = try await Self.check(good, appID: "ABCDE12345.com.example.app",
                                               urls: ["https://good.lc.test/buy/1", "https://good.lc.test/private/1"])
        let fields = try #require(report.platforms[0].contents?.fields)
        #expect(fields.first { $0.label == "https://good.lc.test/buy/1" }?.value?.hasPrefix("match") == true)
        #expect(fields.first { $0.label == "https://good.lc.test/private/1" }?.value?.hasPrefix("exclude") == true)
        let aasa = try #require(report.files.first { $0.file == .aasa }?.record)
        #expect(aasa.status == 200 && aasa.httpVersion == "HTTP/2" && aasa.timeToHead != nil)
    }

    @Test func aGigabyteFileIsNeverDownloaded() async throws {
        let (report, took) = try await Self.check(Self.cases.first { $0.host == "huge" }!)
        for judged in report.files where judged.record.status == 200 {
            #expect(judged.record.stoppedAtLimit && judged.record.bytesRead == judged.file.sizeLimit + 1)
        }
        #expect(took < .seconds(3))
    }

    @Test func aRedirectReportsWhereItPointed() async throws {
        let (report, _) = try await Self.check(Self.cases.first { $0.host == "redirect" }!)
        let finding = try #require(report.platforms[0].findings.first)
        #expect(finding.message.contains("https://www.lc.test/.well-known/apple-app-site-association"), "\(finding.message)")
    }

    @Test func aGzippedFileIsJudgedByItsDecodedSize() async throws {
        let (report, _) = try await Self.check(Self.cases.first { $0.host == "gzip-large" }!)
        let aasa = try #require(report.files.first { $0.file == .aasa }?.record)
        #expect(aasa.values(of: "content-encoding") == ["gzip"])
        #expect(aasa.stoppedAtLimit && aasa.bytesRead == WellKnownFile.aasa.sizeLimit + 1)
    }

    @Test func aCAFileThatDoesNotReadIsASetupError() throws {
        var options = FetchOptions()
        options.caFile = "/nonexistent/ca.pem"
        #expect(throws: FetchSetupError.self) { try DomainFetcher(options: options) }
    }
}
