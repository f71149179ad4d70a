import Foundation
import LinkJSON
import Testing

/// The bundled adapters (Adapters/: three ULC receivers and two AASA matchers) run against the
/// corpus with their expected-failures files: every failure is listed and every listed case still
/// fails, so the run exits 0.
struct BundledAdapterTests {
    var corpus: String { CLI.repository.appendingPathComponent("Corpus").path }
    var adapters: URL { CLI.repository.appendingPathComponent("Adapters") }

    /// Manifests for this test: the Foundation adapter's binary is the one built with the tests.
    func manifests(in dir: String) throws -> [String] {
        let foundationBinary = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("foundation-adapter").path
        let foundation: JSONValue = [
            "name": "foundation", "command": .array([.string(foundationBinary)]),
            "expectedFailures": .string(adapters.appendingPathComponent("foundation/expected-failures.txt").path),
        ]
        try Data(foundation.serialized().utf8).write(to: URL(fileURLWithPath: dir + "/foundation.json"))
        return [dir + "/foundation.json",
                adapters.appendingPathComponent("python-urllib/adapter.json").path,
                adapters.appendingPathComponent("ada-url/adapter.json").path,
                adapters.appendingPathComponent("aasa-fnmatch/adapter.json").path,
                adapters.appendingPathComponent("aasa-regex/adapter.json").path]
    }

    @Test func bundledAdaptersMatchTheirExpectedFailures() async throws {
        let dir = CLI.temporaryDirectory()
        var arguments = ["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress",
                         "--implementation", "reference"]
        for m in try manifests(in: dir) { arguments += ["--adapter-manifest", m] }
        let result = try await CLI.run(arguments)
        #expect(result.status == 0, "\(result.output)")

        let json = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/results.json"))))
        let rows = json["results"]?.arrayValue ?? []
        func outcome(_ implementation: String, _ caseID: String) -> String? {
            rows.first { $0["implementation"]?.stringValue == implementation && $0["case"]?.stringValue == caseID }?["outcome"]?.stringValue
        }
        // Real differences between the libraries, as the matrix shows them.
        let bareFirst = "ulc/parse-callbacks/duplicate-with-bare-name"
        #expect(outcome("python-urllib", bareFirst) == "expectedFail", "dict(parse_qsl) keeps the last repeat")
        #expect(outcome("foundation", bareFirst) == "pass", "queryItems.first keeps the empty first one")
        #expect(outcome("foundation", "ulc/parse-encoding/raw-pipe-in-own-param") == "nonStrict", "one '|' and Foundation re-encodes the whole query")
        #expect(outcome("python-urllib", "ulc/parse-encoding/raw-pipe-in-own-param") == "pass")
        #expect(outcome("ada-url", "ulc/parse-callbacks/https-no-authority") == "expectedFail", "WHATWG repairs https:success")
        #expect(outcome("foundation", "ulc/parse-callbacks/https-no-authority") == "pass")
        #expect(outcome("python-urllib", "ulc/parse-callbacks/raw-plus-in-success") == "nonStrict", "form decoding reads '+' as a space")
        #expect(outcome("foundation", "ulc/parse-callbacks/raw-plus-in-success") == "pass")
        // The AASA matchers: where each goes wrong, and what both get right.
        #expect(outcome("aasa-fnmatch", "aasa/match-variables/custom-first-value") == "expectedFail", "fnmatch knows no variables")
        #expect(outcome("aasa-regex", "aasa/match-variables/custom-first-value") == "pass", "the regex translation expands custom ones")
        #expect(outcome("aasa-regex", "aasa/match-variables/predefined-digit") == "expectedFail", "but not the predefined ones")
        #expect(outcome("aasa-regex", "aasa/match-paths/many-stars-long-path-linear") == "expectedFail", "backtracking times out")
        #expect(outcome("reference", "aasa/match-paths/many-stars-long-path-linear") == "pass")
        #expect(outcome("aasa-fnmatch", "aasa/match-query/dict-repeated-one-differs") == "expectedFail")
        let matrix = json["matrix"]?.arrayValue ?? []
        #expect(matrix.count > 20)
        #expect(matrix.first { $0["requirement"] == "ULC-D1" }?["implementations"]?["reference"]?["pass"] != nil)
    }
}
