import Foundation
import LinkJSON
import Testing

/// `linkconform check --aasa`: a newcomer validates a real file and matches URLs in one command.
struct AASACheckTests {
    /// A real file (Provenance-Emu's), written to a scratch folder from the corpus's byte-for-byte
    /// copy, so the test needs nothing outside the repository.
    func realFile() throws -> String {
        let dir = CLI.temporaryDirectory()
        let path = dir + "/apple-app-site-association"
        let cases = try JSONParser.parse(Array(try Data(contentsOf: CLI.repository.appendingPathComponent("Corpus/aasa/cases/real-world.json"))))
        let text = try #require(cases["cases"]?.arrayValue?.first { $0["id"]?.stringValue == "aasa/real-world/provenance-emu-validate" }?["input"]?["file"]?.stringValue)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aRealFileIsValidatedAndEachURLExplained() async throws {
        let file = try realFile()
        let result = try await CLI.run(["check", "--aasa", file, "--domain", "provenance-emu.com",
                                        "--app-id", "S32Z3HMYVQ.org.provenance-emu.provenance",
                                        "https://provenance-emu.com/skins/install?url=x", "https://provenance-emu.com/help/website/a",
                                        "https://provenance-emu.com/nothing-here"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("https://provenance-emu.com/skins/install?url=x") && result.stdout.contains("match by details[0] components[2]"))
        #expect(result.stdout.contains("exclude by details[0] components[5]"))
        #expect(result.stdout.contains("no_match"))
        #expect(result.stdout.contains("rule-unreachable"), "the exclusion that can never decide is reported")
        #expect(result.stdout.contains("verdict: valid"))
    }

    @Test func jsonCarriesTheSameAnswers() async throws {
        let file = try realFile()
        let result = try await CLI.run(["check", "--json", "--aasa", file, "--domain", "provenance-emu.com",
                                        "--app-id", "S32Z3HMYVQ.org.provenance-emu.provenance", "https://provenance-emu.com/buy/1"])
        #expect(result.status == 0, "\(result.output)")
        let json = try JSONParser.parse(Array(result.stdout.utf8))
        let suites = try #require(json["protocols"]?.arrayValue)
        #expect(suites.count == 1)
        let fields = try #require(suites.first?["fields"]?.arrayValue)
        let url = try #require(fields.first { $0["label"]?.stringValue == "https://provenance-emu.com/buy/1" })
        #expect(url["value"]?.stringValue?.hasPrefix("match by details[0] components[1]") == true, "\(url)")
    }

    @Test func aFileThatIsNotJSONBreaksAMust() async throws {
        let dir = CLI.temporaryDirectory()
        try Data("{\"applinks\": ".utf8).write(to: URL(fileURLWithPath: dir + "/aasa"))
        let result = try await CLI.run(["check", "--aasa", dir + "/aasa"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.stdout.contains("not-json"))
    }

    @Test func urlsWithoutTheDomainAndAppAreAUsageError() async throws {
        let file = try realFile()
        let result = try await CLI.run(["check", "--aasa", file, "https://provenance-emu.com/buy/1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--domain and --app-id"))
    }
}
