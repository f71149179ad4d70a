import DomainCheck
@testable import DomainFetch
import Foundation
import LinkJSON
import Testing

/// Live checks against real TLS servers on loopback (``LiveServers``): each case a host name,
/// checked by the `linkconform` binary (`check --domain --json`, AsyncHTTPClient inside), judged,
/// and bounded in time. One case at a time, so the fixture's endless and slow bodies do not
/// crowd the rest of the test run.
@Suite(.serialized, .enabled(if: LiveServers.toolsPresent || LiveServers.mustRun,
                             "nginx, openssl or python3 is missing: the live tests need them (.ci/run installs nginx)"))
struct LiveCheckTests {
    /// One case of the fixture: its host's first label, which server plays it, and what each
    /// platform should conclude (whether it reads the file, and the serving finding codes that
    /// count for it).
    struct Case: Sendable, CustomTestStringConvertible {
        let host: String
        let server: LiveServers.Server
        let ios: (reads: Bool, codes: Set<String>)
        let android: (reads: Bool, codes: Set<String>)
        var testDescription: String { host }

        init(_ host: String, _ server: LiveServers.Server, ios: (Bool, Set<String>), android: (Bool, Set<String>)) {
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
        Case("gzip-bomb", .helper, ios: (false, ["too-large", "content-encoding"]), android: (false, ["too-large", "content-encoding"])),
        Case("not-modified", .helper, ios: (false, ["status"]), android: (false, ["status"])),
        Case("unclean", .helper, ios: (false, ["body-cut"]), android: (false, ["body-cut"])),
        Case("br", .helper, ios: (false, ["content-encoding"]), android: (false, ["content-encoding"])),
        Case("keep-alive", .helper, ios: (true, []), android: (true, [])),
        Case("h2-continuation", .h2Helper, ios: (false, ["headers-too-large"]), android: (false, ["headers-too-large"])),
        Case("h2-big-header", .h2Helper, ios: (false, ["headers-too-large"]), android: (false, ["headers-too-large"])),
        Case("nothing", .nothing, ios: (false, ["unreachable"]), android: (false, ["unreachable"])),
    ]

    static func json(_ host: String, _ extra: [String] = []) async throws -> (JSONValue, Duration) {
        let c = try #require(cases.first { $0.host == host })
        _ = try await LiveServers.shared()   // the fixture's start (certificates, nginx) is not the case's time
        let started = ContinuousClock.now
        let r = try await LiveCLI.check(c.host, on: c.server, ["--json"] + extra)
        return (try r.json(), started.duration(to: .now))
    }

    static func file(_ json: JSONValue, _ file: WellKnownFile) throws -> JSONValue {
        try #require(json["files"]?.arrayValue?.first { $0["file"]?.stringValue == file.rawValue })
    }

    static func codes(_ platform: JSONValue?) -> Set<String> {
        Set(platform?["findings"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? [])
    }

    @Test(arguments: cases)
    func eachCaseGetsItsVerdictInTime(_ c: Case) async throws {
        let (json, took) = try await Self.json(c.host)
        let platforms = try #require(json["platforms"]?.arrayValue)
        let ios = platforms.first, android = platforms.last
        print("live case \(c.host): iOS \(ios?["valid"]?.boolValue == true ? "reads" : "refuses") \(Self.codes(ios).sorted()), "
              + "Android \(android?["valid"]?.boolValue == true ? "reads" : "refuses") \(Self.codes(android).sorted()), \(took)")
        #expect(ios?["valid"]?.boolValue == c.ios.reads, "\(String(describing: ios))")
        #expect(Self.codes(ios) == c.ios.codes)
        #expect(android?["valid"]?.boolValue == c.android.reads, "\(String(describing: android))")
        #expect(Self.codes(android) == c.android.codes)
        #expect(json["reachable"]?.boolValue == (c.server != .nothing))
        // Every fetch ends by its 6 s total deadline, whatever the server does (its own clock, so
        // a busy machine's slow process start does not count); the whole command well within a minute.
        for file in WellKnownFile.allCases {
            let record = try Self.file(json, file)
            #expect(record["bytesRead"]?.intValue ?? .max <= file.sizeLimit + 1)
            #expect(record["elapsedMs"]?.intValue ?? .max < 8_000, "\(file): \(String(describing: record["elapsedMs"]))")
        }
        #expect(took < .seconds(60), "took \(took)")
    }

    @Test func aGoodSiteIsServedOverHTTP2AndMatchedForTheApp() async throws {
        let (json, _) = try await Self.json("good", ["--app-id", "ABCDE12345.com.example.app", "https://good.lc.test/buy/1", "https://good.lc.test/private/1"])
        let fields = try #require(json["platforms"]?.arrayValue?.first?["contents"]?["fields"]?.arrayValue)
        #expect(fields.first { $0["label"]?.stringValue == "https://good.lc.test/buy/1" }?["value"]?.stringValue?.hasPrefix("match") == true)
        #expect(fields.first { $0["label"]?.stringValue == "https://good.lc.test/private/1" }?["value"]?.stringValue?.hasPrefix("exclude") == true)
        let aasa = try Self.file(json, .aasa)
        #expect(aasa["status"]?.intValue == 200 && aasa["httpVersion"]?.stringValue == "HTTP/2" && aasa["timeToHeadMs"]?.intValue != nil)
    }

    @Test func aGigabyteFileIsNeverDownloaded() async throws {
        let (json, _) = try await Self.json("huge")
        for file in [WellKnownFile.aasa, .assetLinks] {
            let record = try Self.file(json, file)
            #expect(record["stoppedAtLimit"]?.boolValue == true && record["bytesRead"]?.intValue == file.sizeLimit + 1)
        }
    }

    /// A TLS failure says what BoringSSL said, without the path of the machine that built
    /// LinkConform (`... CERTIFICATE_VERIFY_FAILED at /.../handshake.cc:320`).
    @Test func aTLSFailureNamesNoBuildPath() async throws {
        let (json, _) = try await Self.json("untrusted")
        let message = json["platforms"]?.arrayValue?.first?["findings"]?.arrayValue?.first?["message"]?.stringValue ?? ""
        #expect(message.contains("CERTIFICATE_VERIFY_FAILED"), "\(message)")
        #expect(!message.contains(".cc:") && !message.contains("/Sources/") && !message.contains(".build"), "\(message)")
    }

    @Test func sourceLocationsAreCutFromErrorDescriptions() {
        let boring = "handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:"
            + "CERTIFICATE_VERIFY_FAILED at /work/x/.build/checkouts/swift-nio-ssl/Sources/CNIOBoringSSL/ssl/handshake.cc:320, "
            + "Error: 1 error:1 at /a/b.c:7]))"
        #expect(FailureClassification.withoutSourcePaths(boring)
                == "handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED, Error: 1 error:1]))")
        // A path with a space in it (a home folder) is cut whole.
        #expect(FailureClassification.withoutSourcePaths("sslError([Error: 1 error:1:SSL:X at /Users/Jane Doe/p/.build/h.cc:320])")
                == "sslError([Error: 1 error:1:SSL:X])")
        // Not a source location: kept.
        #expect(FailureClassification.withoutSourcePaths("refused at /tmp/sock and at /x:y") == "refused at /tmp/sock and at /x:y")
        #expect(FailureClassification.withoutSourcePaths("refused at /tmp/sock; tried at 12:30 again") == "refused at /tmp/sock; tried at 12:30 again")
        #expect(FailureClassification.withoutSourcePaths("no paths") == "no paths")
    }

    @Test func aRedirectReportsWhereItPointed() async throws {
        let (json, _) = try await Self.json("redirect")
        let message = json["platforms"]?.arrayValue?.first?["findings"]?.arrayValue?.first?["message"]?.stringValue ?? ""
        #expect(message.contains("https://www.lc.test/.well-known/apple-app-site-association"), "\(message)")
    }

    @Test func aGzippedFileIsJudgedByItsDecodedSize() async throws {
        let (json, _) = try await Self.json("gzip-large")
        let aasa = try Self.file(json, .aasa)
        let encoding = aasa["headers"]?.arrayValue?.first { $0["name"]?.stringValue?.lowercased() == "content-encoding" }
        #expect(encoding?["value"]?.stringValue == "gzip")
        #expect(aasa["stoppedAtLimit"]?.boolValue == true && aasa["bytesRead"]?.intValue == WellKnownFile.aasa.sizeLimit + 1)
    }

    /// An HTTP/2 header block that never ends (CONTINUATION frames without end) is refused as
    /// soon as it passes the header list limit, and the connection closed: not after the read
    /// timeout, with whatever the server sent meanwhile buffered.
    @Test(arguments: ["h2-continuation", "h2-big-header"])
    func anEndlessHTTP2HeaderBlockIsRefusedAtOnce(_ host: String) async throws {
        let (json, _) = try await Self.json(host)
        for file in WellKnownFile.allCases {
            let record = try Self.file(json, file)
            #expect(record["failure"]?["kind"]?.stringValue == "headers-too-large", "\(file): \(String(describing: record["failure"]))")
            #expect(record["elapsedMs"]?.intValue ?? .max < 3_000, "\(file): within the 3 s read timeout")
        }
    }

    /// A server that answers HTTP/1.1 without `Connection: close` and then closes: each file has
    /// its own connection, so none is asked for on a connection the server has closed.
    @Test func eachFileIsFetchedOnAConnectionOfItsOwn() async throws {
        for _ in 0..<3 {
            let (json, _) = try await Self.json("keep-alive")
            let files = try #require(json["files"]?.arrayValue)
            #expect(files.map { $0["status"]?.intValue } == [200, 404, 200], "\(files.map { $0["failure"] })")
        }
    }

    @Test func aCAFileThatDoesNotReadIsASetupError() throws {
        var options = FetchOptions()
        options.caFile = "/nonexistent/ca.pem"
        #expect(throws: FetchSetupError.self) { try DomainFetcher(options: options) }
    }

    /// The error says what is wrong with the CA file (NIOSSL's own says failedToLoadCertificate
    /// for every case).
    @Test func aCAFileThatDoesNotReadSaysWhy() throws {
        let folder = NSTemporaryDirectory() + "linkconform-ca-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data().write(to: URL(fileURLWithPath: folder + "/empty.pem"))
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: folder + "/key.pem"))
        for (path, why) in [(folder + "/missing.pem", "no such file"), (folder, "it is a folder"), (folder + "/empty.pem", "the file is empty"),
                            (folder + "/key.pem", "no PEM certificate in it")] {
            var options = FetchOptions()
            options.caFile = path
            let error = #expect(throws: FetchSetupError.self) { try DomainFetcher(options: options) }
            #expect(error?.message.contains(why) == true, "\(error?.message ?? "")")
        }
    }
}
