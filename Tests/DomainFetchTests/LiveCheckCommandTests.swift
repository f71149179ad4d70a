import ChildProcess
import Foundation
import LinkJSON
import Testing

/// `linkconform check --domain` as a user runs it, against the live fixture's servers.
@Suite(.enabled(if: LiveServers.toolsPresent || LiveServers.mustRun,
                "nginx, openssl or python3 is missing: the live tests need them (.ci/run installs nginx)"))
struct LiveCheckCommandTests {
    @Test func aGoodSiteIsReadByBothPlatformsAndItsURLsAreMatched() async throws {
        let r = try await LiveCLI.check("good", ["--app-id", "ABCDE12345.com.example.app", "https://good.lc.test/buy/7", "https://good.lc.test/private/7"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("https://good.lc.test/buy/7") && r.stdout.contains("match by details[0] components[0]"))
        #expect(r.stdout.contains("exclude by details[0] components[1]"))
        #expect(r.stdout.contains("verdict: iOS yes, Android yes"))
    }

    @Test func jsonSaysWhichPlatformReadsAWronglyTypedFile() async throws {
        let r = try await LiveCLI.check("wrong-type", ["--json"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        let json = try JSONParser.parse(Array(r.stdout.utf8))
        let platforms = try #require(json["platforms"]?.arrayValue)
        #expect(platforms.map { $0["platform"]?.stringValue } == ["ios", "android"])
        #expect(platforms.map { $0["valid"]?.boolValue } == [true, false])
        #expect(platforms[1]["findings"]?.arrayValue?.first?["code"]?.stringValue == "content-type")
        let files = try #require(json["files"]?.arrayValue)
        #expect(files.map { $0["status"]?.intValue } == [200, 404, 200])
        #expect(json["reachable"]?.boolValue == true && json["valid"]?.boolValue == false)
    }

    @Test func serverTextIsEscapedOnTheTerminal() async throws {
        let r = try await LiveCLI.check("hostile", on: .helper)
        #expect(r.status == 1)
        #expect(!r.stdout.unicodeScalars.contains("\u{202E}") && !r.stdout.utf8.contains(0x1B), "no raw bidi override or escape")
        #expect(r.stdout.contains("\\u{202E}txt.exe"), "\(r.stdout)")
    }

    /// A domain written with capitals and the root's trailing dot is the same host, and its
    /// `--resolve` entry, written either way, still applies.
    @Test func aDomainIsCheckedAsTheHostItNames() async throws {
        let servers = try await LiveServers.shared()
        let r = try await LiveCLI.run(["check", "--domain", "GOOD.\(servers.domain).", "--resolve", "good.\(servers.domain):127.0.0.1",
                                       "--port", String(servers.nginxPort), "--ca-file", servers.caFile] + LiveCLI.timeouts)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("live check of good.\(servers.domain)\n"))
    }

    @Test func anUnreachableDomainIsItsOwnError() async throws {
        let r = try await LiveCLI.run(["check", "--domain", "nothing.lc.test", "--resolve", "nothing.lc.test:127.0.0.1", "--port", "1",
                                    "--connect-timeout", "2"])
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("cannot reach nothing.lc.test"))
        #expect(r.stdout.contains("verdict: cannot reach"))
    }

    /// `tls-stall.lc.test`: the helper takes the connection and never answers the TLS ClientHello
    /// (for 30 s). No fetch has a connection, so the domain is unreachable (exit 2), for every
    /// file alike, whichever of AsyncHTTPClient's timers (the handshake's, the request's) fires first.
    static func stalledHandshake(connect: String, total: String) async throws -> (LiveCLI.Result, Duration) {
        let servers = try await LiveServers.shared()
        let domain = "tls-stall.\(servers.domain)"
        let r = try await LiveCLI.run(["check", "--domain", domain, "--resolve", "\(domain):127.0.0.1",
                                       "--port", String(servers.helperPort), "--ca-file", servers.caFile,
                                       "--connect-timeout", connect, "--total-timeout", total, "--json"])
        return (r, r.elapsed)
    }

    static func failureKinds(_ r: LiveCLI.Result) throws -> [String?] {
        try #require(try r.json()["files"]?.arrayValue).map { $0["failure"]?["kind"]?.stringValue }
    }

    @Test func aStalledTLSHandshakeIsUnreachableForEveryFile() async throws {
        let (r, _) = try await Self.stalledHandshake(connect: "2", total: "6")
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(try Self.failureKinds(r) == ["connect-timeout", "connect-timeout", "connect-timeout"])
    }

    /// The total timeout bounds the command even when the connect timeout is longer and the
    /// handshake stalls: the client's shutdown does not wait for the connection attempt.
    @Test func theTotalTimeoutBoundsAStalledHandshake() async throws {
        let (r, took) = try await Self.stalledHandshake(connect: "25", total: "2")
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(try Self.failureKinds(r) == ["connect-timeout", "connect-timeout", "connect-timeout"])
        #expect(took < .seconds(12), "took \(took) with --total-timeout 2 (25 s before the fix)")
    }

    @Test func usageErrors() async throws {
        let cases: [([String], String)] = [
            (["check", "--domain", "example.com", "--package", "com.example"], "--package and --fingerprint together"),
            (["check", "--domain", "https://example.com"], "host name alone"),
            (["check", "--domain", "example.com", "--resolve", "example.com"], "HOST:ADDRESS"),
            (["check", "--domain", "example.com", "--read-timeout", "0"], "--read-timeout"),
            (["check", "--ca-file", "ca.pem", "https://example.com/"], "go with a live check"),
            // Not DNS host names: refused as typed, shown escaped, never looked up.
            (["check", "--domain", "a\u{1B}[31mb.example"], "got 'a\\x1b[31mb.example'"),
            (["check", "--domain", "a\nb.example"], "got 'a\\nb.example'"),
            (["check", "--domain", "a\\b.example"], "DNS host name"),
            (["check", "--domain", "evil\u{202E}moc.example"], "got 'evil\\u{202E}moc.example'"),
            (["check", "--domain", String(repeating: "a", count: 300) + ".example"], "DNS host name"),
            (["check", "--domain", String(repeating: "abcdefgh.", count: 30) + "example"], "at most 253"),
            (["check", "--domain", "a..b"], "DNS host name"),
            (["check", "--domain", "a%2fb.lc.test"], "DNS host name"),
            (["check", "--domain=-a.example"], "DNS host name"),
            (["check", "--domain", "bücher.example"], "IDNA form"),
            (["check", "--domain", "example.com", "--resolve", "bad_host:127.0.0.1"], "HOST:ADDRESS"),
        ]
        for (arguments, message) in cases {
            let r = try await LiveCLI.run(arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
            #expect(!r.stderr.utf8.contains(0x1B) && !r.stderr.unicodeScalars.contains("\u{202E}"), "\(arguments): escaped")
        }
        let missingCA = try await LiveCLI.run(["check", "--domain", "example.com", "--ca-file", "/nonexistent/ca.pem"])
        #expect(missingCA.status == 2 && missingCA.stderr.contains("cannot read the CA certificates"))
    }
}
