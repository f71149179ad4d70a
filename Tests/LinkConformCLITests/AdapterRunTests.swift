import Foundation
import LinkJSON
import Testing

/// Adapters end to end: the reference over the protocol, the newcomer's adapter from the docs,
/// a hanging adapter, one that never starts, and expected-failures files. Every message on the
/// wire is checked against the JSON Schemas.
struct AdapterRunTests {
    static let fixtures = CLI.repository.appendingPathComponent("Tests/LinkConformCLITests/Fixtures").path
    static let zoo = CLI.repository.appendingPathComponent("Tests/AdapterHarnessTests/Fixtures/zoo.py").path
    static let schemas = CLI.repository.appendingPathComponent("docs/schemas/adapter-v1").path
    var corpus: String { CLI.repository.appendingPathComponent("Corpus").path }

    /// The command that runs `command` behind the logging proxy.
    func teed(_ log: String, _ command: String) -> String {
        "python3 \(Self.fixtures)/tee_adapter.py \(log) \(command)"
    }

    func validateMessages(_ log: String) async throws {
        let check = try await CLI.runTool(["python3", "\(Self.fixtures)/validate_messages.py", Self.schemas, log])
        #expect(check.status == 0, "messages that break the schemas:\n\(check.output)")
    }

    func results(_ dir: String) throws -> [JSONValue] {
        let json = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/results.json"))))
        return json["results"]?.arrayValue ?? []
    }

    /// Runs the whole corpus through `linkconform adapter` behind the logging proxy (its log in
    /// `dir/log`), after the implementations `first` names (`--implementation reference`).
    /// A generous timeout: the debug build answers the largest aasa cases (a 45 KB file's rule
    /// analysis, 600 '?*' against 5,000 characters) in seconds on a loaded machine.
    func runReferenceAdapter(_ dir: String, after first: [String] = []) async throws -> CLI.Result {
        try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress",
                           "--timeout", "60"] + first + ["--adapter", teed(dir + "/log", "\(CLI.binary) adapter")])
    }

    /// The operations the corpus's cases use, read from the case files themselves.
    func corpusOperations() throws -> Set<String> {
        let files = FileManager.default
        var operations: Set<String> = []
        for suite in try files.contentsOfDirectory(atPath: corpus) {
            let folder = corpus + "/" + suite + "/cases"
            for file in (try? files.contentsOfDirectory(atPath: folder)) ?? [] where file.hasSuffix(".json") {
                let json = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))))
                operations.formUnion((json["cases"]?.arrayValue ?? []).compactMap { $0["operation"]?.stringValue })
            }
        }
        return operations
    }

    @Test func referenceOverTheProtocolAgreesWithReferenceInProcess() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await runReferenceAdapter(dir, after: ["--implementation", "reference"])
        #expect(result.status == 0, "\(result.output)")
        try await validateMessages(dir + "/log")
        var byImplementation: [String: [String: String]] = [:]
        for r in try results(dir) {
            byImplementation[r["implementation"]?.stringValue ?? "", default: [:]][r["case"]?.stringValue ?? ""] = r["outcome"]?.stringValue
        }
        #expect(Set(byImplementation.keys) == ["reference", "reference #2"], "the second is told apart: \(byImplementation.keys)")
        #expect(byImplementation["reference"] == byImplementation["reference #2"])
        let rows = try results(dir)
        #expect(rows.count >= 2 * 150)
        #expect(rows.allSatisfy { ["pass", "informational"].contains($0["outcome"]?.stringValue ?? "") })
    }

    /// The operations' schemas (docs/schemas/adapter-v1/operations/) against real messages:
    /// every `input` the harness sends for the whole corpus, and every `output` the reference
    /// answers with. An operation of the corpus without its two schemas, or none of whose inputs
    /// and outputs were checked, fails the test.
    @Test func operationSchemasHoldForTheWholeCorpus() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await runReferenceAdapter(dir)
        #expect(result.status == 0, "\(result.output)")
        let check = try await CLI.runTool(["python3", "\(Self.fixtures)/validate_messages.py", Self.schemas, dir + "/log", "--operations"])
        #expect(check.status == 0, "messages that break the operation schemas:\n\(check.output)")
        let counts = try JSONParser.parse(Array((check.stdout.split(separator: "\n").last ?? "").utf8))
        let operations = try corpusOperations()
        #expect(operations.count >= 16, "\(operations.sorted())")
        for operation in operations.sorted() {
            #expect((counts[operation + ".input"]?.intValue ?? 0) > 0, "no \(operation) input was checked: \(check.output)")
            #expect((counts[operation + ".output"]?.intValue ?? 0) > 0, "no \(operation) output was checked: \(check.output)")
        }
    }

    /// `linkconform adapter` does not send an answer over the protocol's line (1 MiB): an
    /// `xcallback.build` of a 360 KB parameter value, encoded three times as long, is answered
    /// `errored`, saying why; the next request is answered as usual.
    @Test func theReferenceAdapterSendsNoLineOverTheLimit() async throws {
        let start: JSONValue = ["cmd": "start", "version": 1]
        let big: JSONValue = ["cmd": "run", "seq": 1, "case": "big", "operation": "xcallback.build",
                              "input": ["scheme": "myapp", "action": "open", "parameters": [["name": "t", "value": .string(String(repeating: "/", count: 360_000))]]]]
        let small: JSONValue = ["cmd": "run", "seq": 2, "case": "small", "operation": "xcallback.build",
                                "input": ["scheme": "myapp", "action": "open"]]
        let input = [start, big, small].map { $0.serialized() + "\n" }.joined()
        let result = try await CLI.run(["adapter"], stdin: Data(input.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.utf8.count <= 1 << 20 })
        let answer = try JSONParser.parse(Array((lines.dropFirst().first ?? "").utf8))
        #expect(answer["seq"] == 1)
        #expect(answer["errored"]?["message"]?.stringValue?.contains("over the protocol's 1048576-byte line; not sent") == true)
        let next = try JSONParser.parse(Array((lines.last ?? "").utf8))
        #expect(next["seq"] == 2 && next["output"]?["url"] == "myapp://x-callback-url/open")
    }

    /// The adapter printed in docs/adapter-protocol.md, extracted and run as a newcomer would.
    @Test func newcomersAdapterFromTheDocsWorks() async throws {
        let doc = try String(contentsOf: CLI.repository.appendingPathComponent("docs/adapter-protocol.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```python\n"))
        let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        let code = String(doc[start.upperBound..<end.lowerBound])
        #expect(code.split(separator: "\n").count <= 25, "the doc promises about 20 lines")
        let dir = CLI.temporaryDirectory()
        try Data(code.utf8).write(to: URL(fileURLWithPath: dir + "/minimal.py"))
        let result = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress",
                                        "--adapter", teed(dir + "/log", "python3 \(dir)/minimal.py")])
        #expect(result.status == 1, "a naive adapter fails cases: \(result.output)")
        try await validateMessages(dir + "/log")
        let rows = try results(dir)
        let outcomes = Set(rows.compactMap { $0["outcome"]?.stringValue })
        #expect(outcomes.isSuperset(of: ["pass", "fail", "skipped"]))
        #expect(outcomes.isDisjoint(with: ["crashed", "timedOut", "protocolError", "notRun"]), "\(outcomes)")
        let builds = rows.filter { $0["operation"] == "ulc.build" }
        try #require(!builds.isEmpty, "the corpus has ulc.build cases")
        #expect(builds.allSatisfy { $0["outcome"] == "skipped" })
    }

    @Test func hangingAdapterEndsInBoundedTime() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress",
                                        "--suite", "ulc", "--adapter", "python3 \(Self.zoo) hang-all", "--timeout", "0.5", "--max-restarts", "2"])
        // Bounded, not fast: a harness whose timeouts did not work would never return; the
        // bound leaves room for a machine the rest of the suite keeps busy for tens of seconds.
        #expect(result.elapsed < .seconds(120))
        #expect(result.status == 1)
        let outcomes = try results(dir).compactMap { $0["outcome"]?.stringValue }
        #expect(outcomes.contains("timedOut"))
        // The zoo answers ulc.parse only: those cases are timed out, then not run; the rest skipped.
        #expect(outcomes.filter { $0 == "notRun" }.count > 150)
        #expect(outcomes.allSatisfy { ["timedOut", "notRun", "skipped"].contains($0) })
        let md = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        #expect(md.contains("given up after 2 restarts"))
    }

    @Test func adapterThatNeverStartsIsAHarnessFailure() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress",
                                        "--implementation", "reference", "--adapter", "python3 \(Self.zoo) exit-during-start"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did not start"))
        #expect(result.stderr.contains("cannot load my configuration"))
        let rows = try results(dir)
        let reference = rows.filter { $0["implementation"] == "reference" }
        try #require(!reference.isEmpty, "the reference ran beside the adapter that did not start")
        #expect(reference.allSatisfy { $0["outcome"] != "notRun" })
        #expect(rows.filter { $0["outcome"] == "notRun" }.count >= 150, "the cases it missed are recorded")
    }

    /// `--start-timeout` bounds the handshake; the adapter that missed it is named by its script,
    /// and the summary shows no empty version or language.
    @Test func startTimeoutBoundsTheHandshakeAndTheScriptNamesTheAdapter() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress",
                                        "--suite", "ulc", "--start-timeout", "0.5", "--adapter", "python3 \(Self.zoo) hang-start"])
        // The message names the bound that fired (the watchdog writes the configured one), which
        // is what shows the 20 s default did not apply; wall time alone cannot, on a machine the
        // rest of the suite keeps busy for tens of seconds. This only checks that it returned.
        #expect(result.elapsed < .seconds(120))
        #expect(result.status == 2)
        #expect(result.stderr.contains("zoo.py did not start: no answer to start within 0.5 s"), "\(result.stderr)")
        #expect(result.stdout.contains("zoo.py: failed-to-start"), "\(result.stdout)")
        #expect(!result.stdout.contains("()"), "no empty version or language is shown: \(result.stdout)")
        #expect(try await CLI.run(["run", "--start-timeout", "0"]).status == 64)
    }

    @Test func expectedFailuresDecideTheExitCodeAndNameTheLines() async throws {
        let dir = CLI.temporaryDirectory()
        let doc = try String(contentsOf: CLI.repository.appendingPathComponent("docs/adapter-protocol.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```python\n"))
        let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        try Data(String(doc[start.upperBound..<end.lowerBound]).utf8).write(to: URL(fileURLWithPath: dir + "/minimal.py"))
        func manifest(_ expected: String) throws -> String {
            try Data(expected.utf8).write(to: URL(fileURLWithPath: dir + "/expected.txt"))
            let json = #"{"name": "minimal", "command": ["python3", "minimal.py"], "expectedFailures": "expected.txt"}"#
            try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/adapter.json"))
            return dir + "/adapter.json"
        }
        // First run: nothing listed; collect the failures.
        let first = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress",
                                       "--adapter-manifest", try manifest("")])
        #expect(first.status == 1)
        let failing = try results(dir).filter { ["fail", "errored"].contains($0["outcome"]?.stringValue ?? "") }
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { ($0["message"]?.stringValue ?? "").contains("add '") })
        // Second run: all listed, plus one case that passes: the run fails on that unexpected pass only.
        let passing = try #require(try results(dir).first { $0["outcome"] == "pass" }?["case"]?.stringValue)
        var list = failing.compactMap { $0["case"]?.stringValue }.map { "\($0)  # fails with the naive reader" }
        list.append("\(passing)  # wrongly listed")
        let second = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r2.sqlite", "--reports", dir, "--no-progress",
                                        "--adapter-manifest", try manifest(list.joined(separator: "\n") + "\n")])
        #expect(second.status == 1)
        let unexpected = try results(dir).filter { $0["outcome"] == "unexpectedPass" }
        #expect(unexpected.count == 1)
        #expect(unexpected.first?["message"]?.stringValue?.contains("expected.txt:\(list.count) ") == true)
        // Third run: the stale line removed: every failure is expected, exit 0.
        list.removeLast()
        let third = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r3.sqlite", "--reports", dir, "--no-progress",
                                       "--adapter-manifest", try manifest(list.joined(separator: "\n") + "\n")])
        #expect(third.status == 0, "\(third.output)")
        #expect(try results(dir).contains { $0["outcome"] == "expectedFail" })
    }

    /// Manifest problems say what is wrong: an expected-failures file that is not UTF-8, a
    /// working directory that does not exist (the spawner's own error names neither).
    @Test func manifestProblemsSayWhatIsWrong() async throws {
        let dir = CLI.temporaryDirectory()
        try Data([0x61, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: dir + "/xf.txt"))
        try Data(#"{"name": "x", "command": ["python3", "a.py"], "expectedFailures": "xf.txt"}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/m1.json"))
        let unreadable = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--no-reports", "--no-progress",
                                            "--adapter-manifest", dir + "/m1.json"])
        #expect(unreadable.status == 2 || unreadable.status == 64, "\(unreadable.output)")
        #expect(unreadable.stderr.contains("xf.txt: not UTF-8 text"), "\(unreadable.output)")
        try Data(#"{"name": "x", "command": ["python3", "a.py"], "workingDirectory": "no-such-folder"}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/m2.json"))
        let missing = try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r2.sqlite", "--no-reports", "--no-progress",
                                         "--adapter-manifest", dir + "/m2.json"])
        #expect(missing.output.contains("no-such-folder is not a folder that exists"), "\(missing.output)")
    }
}
