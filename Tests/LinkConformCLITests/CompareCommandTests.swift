import Conformance
import Foundation
import LinkJSON
@testable import LinkConformCLI
@testable import ResultsStore
import Testing

/// `linkconform compare` and `run --baseline`: what a nightly gates on.
struct CompareCommandTests {
    /// A store with two runs of one implementation (named `name`): the second has `worse` failing.
    static func seeded(name: String = "impl", worse: [String] = ["b"]) throws -> String {
        let path = CLI.temporaryDirectory() + "/r.sqlite"
        let store = try ResultsStore(path: path)
        for night in 0..<2 {
            let run = try store.beginRun(RunStart(corpusFingerprint: "f", gitCommit: nil, toolVersion: "t", options: [:]))
            let impl = try store.register(ImplementationInfo(name: name, version: "\(night)", language: "", homepage: ""), run: run)
            try store.insert(["a", "b", "c"].map { id in
                CaseResult(suite: "ulc", caseID: "ulc/\(id)", operation: "ulc.parse", requirement: "ULC-1", level: .must,
                           outcome: night == 1 && worse.contains(id) ? .fail : .pass, nullWouldPass: false, actual: nil, expected: [:],
                           message: "expected \(id)", durationNanos: 1)
            }, run: run, implementation: impl)
            try store.finishRun(run, status: .completed)
        }
        return path
    }

    @Test func aRegressionIsListedAndExitsOne() async throws {
        let db = try Self.seeded()
        let result = try await CLI.run(["compare", "--db", db])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.stdout.contains("run 1 -> run 2"))
        #expect(result.stdout.contains("impl (0 -> 1): 1 regression, 0 fixes"))
        #expect(result.stdout.contains("ulc/b (ULC-1 MUST): pass -> fail: expected b"))
        // Reversed, the same case is a fix, and a fix does not fail.
        let reversed = try await CLI.run(["compare", "2", "1", "--db", db])
        #expect(reversed.status == 0, "\(reversed.output)")
        #expect(reversed.stderr.contains("run 2 is later than run 1: the changes are read backwards"), "\(reversed.stderr)")
        #expect(!result.stderr.contains("backwards"))
        #expect(reversed.stdout.contains("0 regressions, 1 fix"))
        // One argument is the later run, compared with the completed run before it.
        #expect(try await CLI.run(["compare", "2", "--db", db]).status == 1)
    }

    @Test func jsonListsEveryChange() async throws {
        let db = try Self.seeded(worse: ["a", "b", "c"])
        let result = try await CLI.run(["compare", "--db", db, "--json", "--limit", "1"])
        #expect(result.status == 1)
        let json = try JSONParser.parse(result.stdout)
        #expect(json["regressions"] == 3)
        #expect(json["implementations"]?.arrayValue?.first?["regressions"]?.arrayValue?.count == 3)
        #expect(json["implementations"]?.arrayValue?.first?["regressions"]?.arrayValue?.first?["before"] == "pass")
        let text = try await CLI.run(["compare", "--db", db, "--limit", "1"])
        #expect(text.stdout.contains("... and 2 more"))
    }

    /// `report --list` shows the 50 newest runs and says that older ones exist.
    @Test func theRunListSaysWhenItStopsShort() async throws {
        let path = CLI.temporaryDirectory() + "/r.sqlite"
        let store = try ResultsStore(path: path)
        for _ in 0..<52 {
            try store.finishRun(try store.beginRun(RunStart(corpusFingerprint: "f", gitCommit: nil, toolVersion: "t", options: [:])), status: .completed)
        }
        let list = try await CLI.run(["report", "--list", "--db", path])
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 51 && lines.first?.hasPrefix("52\t") == true && lines[49].hasPrefix("3\t"), "\(list.stdout)")
        #expect(lines.last == "(the 50 newest runs; older ones, before run 3, are stored too: --run N reports any of them)")
        let few = try await CLI.run(["report", "--list", "--db", try Self.seeded()])
        #expect(few.stdout.split(separator: "\n").count == 2)
    }

    @Test func missingRunsAreClearErrors() async throws {
        let db = try Self.seeded()
        let missing = try await CLI.run(["compare", "7", "9", "--db", db])
        #expect(missing.status == 2 && missing.stderr.contains("no run 9"))
        let first = try await CLI.run(["compare", "1", "--db", db])
        #expect(first.status == 2 && first.stderr.contains("no earlier results to compare run 1 with"), "\(first.stderr)")
        let noFile = try await CLI.run(["compare", "--db", CLI.temporaryDirectory() + "/none.sqlite"])
        #expect(noFile.status == 2 && noFile.stderr.contains("no results database"))
    }

    /// Without an earlier run given, `compare` compares as `run --baseline previous` gates: a
    /// night the implementation did not start is skipped (against it, 2 -> 3 read every case as
    /// fixed and missed the regression, exit 0), and so is a run of other suites.
    @Test func theDefaultComparisonSkipsANightThatDidNotStartAsTheGateDoes() async throws {
        let path = CLI.temporaryDirectory() + "/r.sqlite"
        let store = try ResultsStore(path: path)
        for night in 0..<4 {
            let run = try store.beginRun(RunStart(corpusFingerprint: "f", gitCommit: nil, toolVersion: "t", options: [:]))
            let impl = try store.register(ImplementationInfo(name: "impl", version: "\(night)", language: "", homepage: ""), run: run)
            let suite = night == 2 ? "xcallback" : "ulc"
            try store.insert(["a", "b"].map { id in
                CaseResult(suite: suite, caseID: "\(suite)/\(id)", operation: "op", requirement: "R-1", level: .must,
                           outcome: night == 1 ? .notRun : night == 3 && id == "b" ? .fail : .pass, nullWouldPass: false,
                           actual: nil, expected: [:], message: "m", durationNanos: 1)
            }, run: run, implementation: impl)
            if night == 1 { try store.setImplementationStatus(run: run, implementation: impl, status: .failedToStart, notes: [], expectedFailures: nil) }
            try store.finishRun(run, status: .completed)
        }
        let result = try await CLI.run(["compare", "--db", path])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.stdout.contains("run 1 -> run 4") && result.stdout.contains("ulc/b (R-1 MUST): pass -> fail"), "\(result.stdout)")
        let json = try JSONParser.parse(try await CLI.run(["compare", "--db", path, "--json"]).stdout)
        #expect(json["before"] == 1 && json["regressions"] == 1)
        // Given explicitly, the runs are compared as given, with a word about the night that did not start.
        let explicit = try await CLI.run(["compare", "2", "4", "--db", path])
        #expect(explicit.status == 0 && explicit.stderr.contains("impl did not start in run 2: against it every case looks fixed"), "\(explicit.output)")
    }

    @Test func hostileNamesReachTheTerminalEscaped() async throws {
        let db = try Self.seeded(name: "evil\u{1b}]0;owned\u{07}\n# heading")
        let result = try await CLI.run(["compare", "--db", db])
        #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 })
        #expect(result.stdout.contains("evil\\x1b]0;owned\\x07\\n# heading"))
    }

    /// A copy of the repository's ULC corpus in which, when `broken`, the reference fails the
    /// first case that expects a link not to be ULC (it is made to expect ULC).
    static func corpus(in dir: String, broken: Bool) throws -> String {
        let corpus = dir + "/Corpus-\(broken)"
        try? FileManager.default.removeItem(atPath: corpus)
        try FileManager.default.copyItem(atPath: CLI.repository.appendingPathComponent("Corpus").path, toPath: corpus)
        if broken {
            let file = corpus + "/ulc/cases/parse-identification.json"
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let at = try #require(text.range(of: #""kind": "notULC""#), "a case of \(file) expects notULC")
            try text.replacingCharacters(in: at, with: #""kind": "ulc""#).write(toFile: file, atomically: true, encoding: .utf8)
        }
        return corpus
    }

    /// `--baseline previous` compares each suite with the last run that has it: a night of other
    /// suites in between hides no regression (it did: every ulc case was "new" against an
    /// xcallback-only run, exit 0). `--baseline N` for an implementation not in run N judges it
    /// the usual way (it passed whatever failed: all its cases were "new").
    @Test func aBaselineIsChosenPerSuiteAndAnAbsentImplementationIsJudgedAsUsual() async throws {
        let dir = CLI.temporaryDirectory()
        func run(_ corpus: String, _ suites: [String], _ extra: [String] = []) async throws -> CLI.Result {
            try await CLI.run(["run", "--corpus", corpus, "--db", dir + "/r.sqlite", "--no-reports", "--no-progress"]
                              + suites.flatMap { ["--suite", $0] } + extra)
        }
        let good = try Self.corpus(in: dir, broken: false), bad = try Self.corpus(in: dir, broken: true)
        #expect(try await run(good, ["ulc", "xcallback"]).status == 0)
        #expect(try await run(good, ["xcallback"]).status == 0)
        let third = try await run(bad, ["ulc"], ["--baseline", "previous"])
        #expect(third.status == 1, "\(third.output)")
        #expect(third.stdout.contains("run 1 -> run 3") && third.stdout.contains("ulc/parse-identification/no-query (ULC-1 MUST): pass -> fail"),
                "\(third.stdout)")
        #expect(third.stdout.contains(" 0 new, 0 removed"), "xcallback's cases are not compared: \(third.stdout)")
        // A suite run for the first time is judged as usual, not waved through as "new": mitid's
        // first results here hold a failure (its first case made to expect another platform).
        let mitid = dir + "/Corpus-mitid"
        try FileManager.default.copyItem(atPath: good, toPath: mitid)
        let file = mitid + "/mitid/cases/authorize-encoding.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let at = try #require(text.range(of: #""os": "ios""#))
        try text.replacingCharacters(in: at, with: #""os": "android""#).write(toFile: file, atomically: true, encoding: .utf8)
        let fourth = try await run(mitid, ["ulc", "mitid"], ["--baseline", "previous"])
        #expect(fourth.status == 1, "\(fourth.output)")
        #expect(fourth.stdout.contains("reference: first results in mitid; judged as usual (1 unexpected failure)"), "\(fourth.stdout)")
        // Against run 1, which has no mitid results: judged as usual once, not listed again
        // among the cases new to the comparison.
        let againstOne = try await run(mitid, ["ulc", "mitid"], ["--baseline", "1"])
        #expect(againstOne.status == 1 && againstOne.stdout.contains("reference: no results in run 1 for mitid; judged as usual (1 unexpected failure)"),
                "\(againstOne.stdout)")
        #expect(!againstOne.stdout.contains("in cases new since the baseline"), "\(againstOne.stdout)")
        let disagreeing = "python3 " + DifferentialFuzzTests.adapter
        let absent = try await run(good, ["ulc"], ["--implementation", "reference", "--adapter", disagreeing, "--baseline", "1"])
        #expect(absent.status == 1, "\(absent.output)")
        #expect(absent.stdout.contains("disagreeing: not in run 1; judged as usual ("), "\(absent.stdout)")
    }

    /// An adapter that declares `ulc.build` only from its second night on (an operation the
    /// vendor has just implemented) fails the gate for its unlisted failures there: they were
    /// `skipped` in the baseline, so they are no known failures (skipped to fail is "changed",
    /// bad to bad, and passed). The night after, they are known.
    @Test func casesSkippedInTheBaselineAreJudgedAsUsual() async throws {
        let dir = CLI.temporaryDirectory()
        let adapter = dir + "/growing.py"
        try #"""
            import json, sys
            operations = ["ulc.parse"] + (["ulc.build"] if sys.argv[1] == "two" else [])
            for line in sys.stdin:
                msg = json.loads(line)
                if msg["cmd"] == "start":
                    me = {"name": "growing", "version": sys.argv[1], "language": "Python", "homepage": ""}
                    print(json.dumps({"version": 1, "implementation": me, "operations": operations}), flush=True)
                elif msg["cmd"] == "run":
                    out = {"kind": "notULC"} if msg["operation"] == "ulc.parse" else {"link": "not a link"}
                    print(json.dumps({"seq": msg["seq"], "output": out}), flush=True)
                elif msg["cmd"] == "stop":
                    break
            """#.write(toFile: adapter, atomically: true, encoding: .utf8)
        func night(_ operations: String) async throws -> CLI.Result {
            try await CLI.run(["run", "--suite", "ulc", "--adapter", "python3 \(adapter) \(operations)", "--db", dir + "/r.sqlite",
                               "--no-reports", "--no-progress", "--baseline", "previous"])
        }
        #expect(try await night("one").status == 1, "the first night is judged as usual")
        let second = try await night("two")
        #expect(second.status == 1, "\(second.output)")
        #expect(second.stdout.contains("0 regressions"), "\(second.stdout)")
        #expect(second.stdout.contains("in cases new since the baseline or not judged in it (skipped, not run); judged as usual:"),
                "\(second.stdout)")
        #expect(second.stdout.contains(": skipped -> fail"), "\(second.stdout)")
        let third = try await night("two")
        #expect(third.status == 0, "the same failures the night after are known: \(third.output)")
        #expect(!third.stdout.contains("judged as usual"), "\(third.stdout)")
    }

    /// What the gate judges as usual among one implementation's changes: a failure (here an
    /// unexpected pass too, a stale line) of a case new since the baseline or not judged in it,
    /// whichever kind the comparison filed it under; not a failure the baseline had too.
    @Test func theGateJudgesAsUsualEveryFailureWithNothingToCompareWith() {
        func change(_ id: String, _ kind: CaseChange.Kind, _ before: Outcome?, _ after: Outcome?) -> CaseChange {
            CaseChange(kind: kind, suite: "ulc", caseID: id, requirementID: "R", level: .must, before: before, after: after, message: nil)
        }
        var comparison = ImplementationComparison(name: "x", versionBefore: "1", versionAfter: "2")
        comparison.changed = [change("skipped-fail", .changed, .skipped, .fail), change("notrun-crash", .changed, .notRun, .crashed),
                              change("fail-crash", .changed, .fail, .crashed)]
        comparison.fixes = [change("skipped-stale", .fix, .skipped, .unexpectedPass), change("fail-pass", .fix, .fail, .pass)]
        comparison.new = [change("new-fail", .new, nil, .fail), change("new-pass", .new, nil, .pass)]
        let failing = Set(Outcome.allCases.filter { $0.isFailure(strict: false) })
        #expect(RunCommand.withoutBaseline(comparison, failing: failing).map(\.caseID).sorted()
                == ["new-fail", "notrun-crash", "skipped-fail", "skipped-stale"])
    }

    @Test func runWithABaselineFailsOnRegressionsOnly() async throws {
        let dir = CLI.temporaryDirectory()
        func run(_ corpus: String, _ extra: [String] = []) async throws -> CLI.Result {
            try await CLI.run(["run", "--corpus", corpus, "--suite", "ulc", "--db", dir + "/r.sqlite", "--no-reports", "--no-progress"] + extra)
        }
        let good = try Self.corpus(in: dir, broken: false), bad = try Self.corpus(in: dir, broken: true)
        // Night 1: nothing to compare with, judged as usual (all pass).
        let first = try await run(good, ["--baseline", "previous"])
        #expect(first.status == 0, "\(first.output)")
        #expect(first.stdout.contains("no earlier run to compare with"))
        // Night 2: the case that passed now fails: a regression.
        let second = try await run(bad, ["--baseline", "previous"])
        #expect(second.status == 1, "\(second.output)")
        #expect(second.stdout.contains("ulc/parse-identification/no-query (ULC-1 MUST): pass -> fail"))
        // Night 3: the same failure, already there last night: not a regression, exit 0;
        // without --baseline the same run fails.
        let third = try await run(bad, ["--baseline", "previous"])
        #expect(third.status == 0, "\(third.output)")
        #expect(third.stdout.contains("no regressions"))
        #expect(try await run(bad).status == 1)
        // Against run 1 explicitly, it is a regression again; a run that does not exist is an error.
        #expect(try await run(bad, ["--baseline", "1"]).status == 1)
        let missing = try await run(bad, ["--baseline", "99"])
        #expect(missing.status == 2 && missing.stderr.contains("no run 99"))
        #expect(try await run(bad, ["--baseline", "yesterday"]).status == 64)
    }
}
