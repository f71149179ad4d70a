import Conformance
import Foundation
import LinkJSON
import ResultsStore
import Testing

/// `linkconform report --statement` and `--verify-statement`, through the binary, on stores
/// seeded with the store's own writing path.
struct StatementTests {
    /// A run of one implementation whose every kind of result the statement counts: MUST cases
    /// that pass, fail, are listed (expectedFail), passed though listed (unexpectedPass) or were
    /// skipped; SHOULD cases that pass and that are not met; an informational case; a second
    /// suite. Its expected-failures file lists two of the run's cases and one it does not have.
    static func seededStore(name: String = "vendor-impl", version: String = "1.2.3", homepage: String = "https://vendor.example/impl",
                            message: String = "kind: expected \"ulc\", got \"notULC\"") throws -> (dir: String, db: String) {
        let dir = CLI.temporaryDirectory()
        let list = dir + "/expected-failures.txt"
        try Data("# known failures\nulc/a/listed  # the parser keeps a raw plus\nulc/a/stale # fixed since\nulc/not-in-run # stale\n".utf8)
            .write(to: URL(fileURLWithPath: list))
        let store = try ResultsStore(path: dir + "/r.sqlite")
        let run = try store.beginRun(RunStart(corpusFingerprint: "f00dfeed", gitCommit: "abc123def", toolVersion: "9.8.7", options: [:]))
        let other = try store.register(ImplementationInfo(name: "other", version: "1", language: "Swift", homepage: ""), run: run)
        let impl = try store.register(ImplementationInfo(name: name, version: version, language: "Rust", homepage: homepage), run: run)
        func r(_ suite: String, _ id: String, _ requirement: String, _ level: RequirementLevel, _ outcome: Outcome) -> CaseResult {
            CaseResult(suite: suite, caseID: id, operation: "\(suite).parse", requirement: requirement, level: level, outcome: outcome,
                       nullWouldPass: false, actual: ["kind": "notULC"], expected: ["kind": "ulc"],
                       message: outcome == .pass ? nil : message, durationNanos: 1_000)
        }
        let results = [
            r("ulc", "ulc/a/pass1", "ULC-1", .must, .pass), r("ulc", "ulc/a/pass2", "ULC-1", .must, .pass),
            r("ulc", "ulc/a/fail", "ULC-2", .must, .fail), r("ulc", "ulc/a/listed", "ULC-3", .must, .expectedFail),
            r("ulc", "ulc/a/stale", "ULC-4", .must, .unexpectedPass), r("ulc", "ulc/a/skip", "ULC-5", .must, .skipped),
            r("ulc", "ulc/a/should-pass", "ULC-D1", .should, .pass), r("ulc", "ulc/a/should", "ULC-D2", .should, .nonStrict),
            r("ulc", "ulc/a/info", "ULC-I1", .info, .informational),
            r("xcallback", "xcb/a/pass", "XCB-1", .must, .pass),
        ]
        try store.insert(results, run: run, implementation: impl)
        try store.insert([r("ulc", "ulc/a/fail", "ULC-2", .must, .fail)], run: run, implementation: other)
        try store.setImplementationStatus(run: run, implementation: impl, status: .ok, notes: [], expectedFailures: list)
        try store.finishRun(run, status: .completed)
        return (dir, dir + "/r.sqlite")
    }

    static func json(_ path: String) throws -> JSONValue {
        try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test func statementCountsMustAndShouldAndListsFailuresAndExpectedFailureLines() async throws {
        let (dir, db) = try Self.seededStore()
        let result = try await CLI.run(["report", "--db", db, "--statement", "vendor-impl", "--out", dir])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("statement-vendor-impl.json"), "\(result.stdout)")
        let s = try Self.json(dir + "/statement-vendor-impl.json")
        #expect(s["format"] == "linkconform-statement/1")
        #expect(s["implementation"]?["name"] == "vendor-impl")
        #expect(s["implementation"]?["version"] == "1.2.3")
        #expect(s["implementation"]?["language"] == "Rust")
        #expect(s["implementation"]?["homepage"] == "https://vendor.example/impl")
        #expect(s["linkconform"]?["version"] == "9.8.7")
        #expect(s["linkconform"]?["gitCommit"] == "abc123def")
        #expect(s["corpus"]?["fingerprint"] == "f00dfeed")
        #expect(s["run"]?["id"] == 1)
        #expect(s["run"]?["status"] == "completed")
        #expect(s["run"]?["startedAt"]?.stringValue?.isEmpty == false)
        #expect(s["run"]?["finishedAt"]?.stringValue?.isEmpty == false)

        let suites = try #require(s["suites"]?.arrayValue)
        #expect(suites.map { $0["suite"] } == ["ulc", "xcallback"])
        let ulc = suites[0]
        #expect(ulc["cases"] == 9)
        // MUST: 2 passes and an unexpected pass; a fail and an expected fail; a skip. ULC-1 and
        // ULC-4 met, ULC-2 and ULC-3 not, ULC-5 unverified (its only case was skipped).
        #expect(ulc["must"] == ["cases": 6, "passed": 3, "failed": 2, "other": 1, "requirements": 5, "requirementsMet": 2,
                                "requirementsNotMet": 2, "requirementsUnverified": 1])
        #expect(ulc["should"] == ["cases": 2, "passed": 1, "failed": 1, "other": 0, "requirements": 2, "requirementsMet": 1,
                                  "requirementsNotMet": 1, "requirementsUnverified": 0])
        #expect(ulc["outcomes"]?["informational"] == 1)
        #expect(suites[1]["must"]?["requirementsMet"] == 1)

        let failed = try #require(s["failedMust"]?.arrayValue)
        #expect(failed.map { [$0["requirement"], $0["case"], $0["outcome"]] }
                == [["ULC-2", "ulc/a/fail", "fail"], ["ULC-3", "ulc/a/listed", "expectedFail"]])
        #expect(failed.first?["message"] == "kind: expected \"ulc\", got \"notULC\"")

        let expected = try #require(s["expectedFailures"])
        #expect(expected["path"]?.stringValue == dir + "/expected-failures.txt")
        #expect(expected["sha256"]?.stringValue?.count == 64)
        #expect(expected["lines"] == [
            ["line": 2, "text": "ulc/a/listed  # the parser keeps a raw plus", "case": "ulc/a/listed", "outcome": "expectedFail"],
            ["line": 3, "text": "ulc/a/stale # fixed since", "case": "ulc/a/stale", "outcome": "unexpectedPass"],
        ])
        #expect(expected["notListed"] == [])

        let html = try String(contentsOfFile: dir + "/statement-vendor-impl.html", encoding: .utf8)
        #expect(html.contains("ulc/a/listed  # the parser keeps a raw plus"))
        #expect(html.contains("ULC-2") && html.contains("ulc/a/fail"))
        #expect(html.contains(try #require(s["sha256"]?.stringValue)), "the digest is on the page too")
        #expect(html.contains("2 of 6 MUST requirements in 2 suites are not met; 1 could not be verified"), "\(html)")
    }

    /// Each suite names the operations the implementation answered and those whose every case
    /// was skipped, so "unverified" can be read as "not claimed" where that is why.
    @Test func theStatementNamesTheOperationsAnsweredAndThoseSkipped() async throws {
        let dir = CLI.temporaryDirectory()
        let store = try ResultsStore(path: dir + "/r.sqlite")
        let run = try store.beginRun(RunStart(corpusFingerprint: "f", gitCommit: nil, toolVersion: "t", options: [:]))
        let impl = try store.register(ImplementationInfo(name: "parser-only", version: "1", language: "C", homepage: ""), run: run)
        try store.insert([("ulc/p", "ulc.parse", Outcome.pass), ("ulc/s", "ulc.parse", .skipped), ("ulc/b1", "ulc.build", .skipped),
                          ("ulc/b2", "ulc.build", .skipped), ("ulc/h1", "ulc.handle", .notRun), ("ulc/h2", "ulc.handle", .skipped)].map { id, operation, outcome in
            CaseResult(suite: "ulc", caseID: id, operation: operation, requirement: "ULC-7", level: .must, outcome: outcome,
                       nullWouldPass: false, actual: nil, expected: [:], message: nil, durationNanos: 1)
        }, run: run, implementation: impl)
        try store.finishRun(run, status: .completed)
        let result = try await CLI.run(["report", "--db", dir + "/r.sqlite", "--statement", "parser-only", "--out", dir])
        #expect(result.status == 0, "\(result.output)")
        let ulc = try #require(try Self.json(dir + "/statement-parser-only.json")["suites"]?.arrayValue?.first)
        #expect(ulc["operationsAnswered"] == ["ulc.parse"] && ulc["operationsSkipped"] == ["ulc.build"], "\(ulc)")
        #expect(ulc["operationsNotRun"] == ["ulc.handle"], "a case never sent is not answered: \(ulc)")
        let html = try String(contentsOfFile: dir + "/statement-parser-only.html", encoding: .utf8)
        #expect(html.contains("every case skipped (not done by the implementation): <code>ulc.build</code>; never reached (not run): "
                              + "<code>ulc.handle</code>; answered: <code>ulc.parse</code>"), "\(html)")
        #expect(try await CLI.run(["report", "--verify-statement", dir + "/statement-parser-only.json"]).status == 0)
    }

    /// `corpus fingerprint` prints what a run of the same suites records, so that a reviewer can
    /// check a statement's corpus against a checkout.
    @Test func theCorpusFingerprintIsWhatARunRecords() async throws {
        let dir = CLI.temporaryDirectory()
        let printed = try await CLI.run(["corpus", "fingerprint", "--suite", "xignqr"])
        #expect(printed.status == 0 && printed.stdout.count == 65, "\(printed.output)")
        _ = try await CLI.run(["run", "--suite", "xignqr", "--db", dir + "/r.sqlite", "--no-reports", "--no-progress"])
        let stored = try #require(try ResultsStore(path: dir + "/r.sqlite").run(1)?.corpusFingerprint)
        #expect(printed.stdout == stored + "\n")
        #expect(try await CLI.run(["corpus", "fingerprint"]).stdout != printed.stdout, "another set of suites, another fingerprint")
    }

    /// The digest verifies; a one-byte change of a value does not; neither does a file that is no
    /// longer JSON. Key order and whitespace do not matter, and the digest is what any JSON
    /// library gets for the canonical form (here Python's: keys sorted, no whitespace).
    @Test func theDigestVerifiesAndAnEditedStatementDoesNot() async throws {
        let (dir, db) = try Self.seededStore()
        #expect(try await CLI.run(["report", "--db", db, "--statement", "vendor-impl", "--out", dir]).status == 0)
        let path = dir + "/statement-vendor-impl.json"
        let verified = try await CLI.run(["report", "--verify-statement", path])
        #expect(verified.status == 0, "\(verified.output)")
        #expect(verified.stdout.contains("verified"))

        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        func edited(_ body: (inout [UInt8]) -> Void) throws -> String {
            var bytes = Array(original)
            body(&bytes)
            let file = dir + "/edited-\(UUID().uuidString).json"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            return file
        }
        // One byte: a digit of the MUST cases passed ("passed": 3 -> 4).
        let digit = try edited { bytes in
            let at = bytes.indices.first { Array(bytes[$0...].prefix(11)) == Array("\"passed\": 3".utf8) }!
            bytes[at + 10] = UInt8(ascii: "4")
        }
        let changed = try await CLI.run(["report", "--verify-statement", digit])
        #expect(changed.status == 1, "\(changed.output)")
        #expect(changed.stdout.contains("NOT verified") && changed.stdout.contains("edited"), "\(changed.stdout)")
        // One byte that breaks the JSON: not a statement any more.
        let broken = try edited { bytes in bytes[bytes.firstIndex(of: UInt8(ascii: ":"))!] = UInt8(ascii: ";") }
        let brokenResult = try await CLI.run(["report", "--verify-statement", broken])
        #expect(brokenResult.status == 1 && brokenResult.stdout.contains("NOT verified"), "\(brokenResult.output)")
        // The same content, keys sorted and compact: still verified.
        let compact = dir + "/compact.json"
        try Data(try Self.json(path).serialized(sortKeys: true).utf8).write(to: URL(fileURLWithPath: compact))
        #expect(try await CLI.run(["report", "--verify-statement", compact]).status == 0)
        // A missing file is a harness error, not a verdict.
        #expect(try await CLI.run(["report", "--verify-statement", dir + "/missing.json"]).status == 2)

        let python = """
            import hashlib, json, sys
            doc = json.load(open(sys.argv[1], encoding="utf-8"))
            recorded = doc.pop("sha256")
            canonical = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            print(recorded == hashlib.sha256(canonical.encode("utf-8")).hexdigest())
            """
        let script = dir + "/digest.py"
        try Data(python.utf8).write(to: URL(fileURLWithPath: script))
        let crossCheck = try await CLI.runTool(["python3", script, path])
        #expect(crossCheck.stdout == "True\n", "\(crossCheck.output)")
    }

    /// Everything the implementation said, and its messages, reach the page as text: only the
    /// page's own tags are in it (no link, image, frame or script), and no control or bidi character is raw.
    @Test func hostileStringsAreEscapedInTheHTML() async throws {
        let name = "<script>alert(1)</script>\u{202E}evil"
        let (dir, db) = try Self.seededStore(name: name, version: "1\"><img src=x onerror=alert(2)>",
                                             homepage: "javascript:alert(3)//<a href='x'>",
                                             message: "</td></tr></table><iframe src=//e.example>\u{1B}[31m")
        let result = try await CLI.run(["report", "--db", db, "--statement", name, "--out", dir])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("\\u{202E}"), "the terminal line shows the bidi control escaped: \(result.stdout)")
        let stem = "statement-script-alert-1-script-evil"
        let html = try String(contentsOfFile: dir + "/\(stem).html", encoding: .utf8)
        let allowed: Set<String> = ["!doctype", "html", "head", "meta", "title", "style", "body", "main", "header", "p", "h1", "h2",
                                    "span", "section", "div", "table", "thead", "tbody", "tr", "th", "td", "code"]
        var tags: Set<String> = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            let name = rest[rest.index(after: open)...].drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber || $0 == "!" }
            tags.insert(name.lowercased())
            rest = rest[rest.index(after: open)...]
        }
        #expect(tags.subtracting(allowed).isEmpty, "tags the page did not write: \(tags.subtracting(allowed))")
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;\\u{202E}evil"))
        #expect(html.contains("1&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(html.contains("javascript:alert(3)//&lt;a href=&#39;x&#39;&gt;"), "the homepage is text, not a link")
        #expect(html.contains("&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;iframe src=//e.example&gt;\\x1b[31m"))
        let raw = html.unicodeScalars.filter { s in
            s != "\n" && (s.value < 0x20 || (0x7F...0x9F).contains(s.value) || (0x202A...0x202E).contains(s.value)
                          || (0x2066...0x2069).contains(s.value))
        }
        #expect(raw.isEmpty, "raw control or bidi characters: \(raw.map { String($0.value, radix: 16) })")
        // The JSON stays exact, and its digest still verifies.
        let s = try Self.json(dir + "/\(stem).json")
        #expect(s["implementation"]?["name"]?.stringValue == name)
        #expect(try await CLI.run(["report", "--verify-statement", dir + "/\(stem).json"]).status == 0)
    }

    @Test func anUnknownImplementationIsAClearError() async throws {
        let (dir, db) = try Self.seededStore()
        let result = try await CLI.run(["report", "--db", db, "--statement", "nope", "--out", dir])
        #expect(result.status == 2, "\(result.output)")
        #expect(result.stderr.contains("run 1 has no implementation named 'nope'; its implementations: 'other', 'vendor-impl'"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/statement-nope.json"))
        let noRun = try await CLI.run(["report", "--db", db, "--run", "7", "--statement", "vendor-impl", "--out", dir])
        #expect(noRun.status == 2 && noRun.stderr.contains("no run 7"), "\(noRun.output)")
        #expect(try await CLI.run(["report", "--db", db, "--statement", "vendor-impl", "--list"]).status == 64)
        #expect(try await CLI.run(["report", "--statement", "a", "--verify-statement", "b"]).status == 64)
    }

    /// A file that no longer lists a case the run counted as listed is named in the statement,
    /// not silently dropped.
    @Test func aChangedExpectedFailuresFileIsSaidSo() async throws {
        let (dir, db) = try Self.seededStore()
        try Data("ulc/a/stale # fixed since\n".utf8).write(to: URL(fileURLWithPath: dir + "/expected-failures.txt"))
        let result = try await CLI.run(["report", "--db", db, "--statement", "vendor-impl", "--out", dir])
        #expect(result.status == 0)
        #expect(result.stderr.contains("does not list 1 case(s)"), "\(result.stderr)")
        let expected = try Self.json(dir + "/statement-vendor-impl.json")["expectedFailures"]
        #expect(expected?["notListed"] == ["ulc/a/listed"])
        #expect(expected?["lines"]?.arrayValue?.map { $0["line"] } == [1])
    }
}
