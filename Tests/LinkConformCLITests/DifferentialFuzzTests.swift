import DifferentialFuzzing
import Foundation
@testable import LinkConformCLI
import LinkJSON
import ResultsStore
import Testing

/// `linkconform fuzz` and `linkconform findings promote` as a reviewer runs them.
struct DifferentialFuzzTests {
    static let adapter = CLI.repository.appendingPathComponent("Tests/LinkConformCLITests/Fixtures/disagreeing_adapter.py").path
    static let corpus = CLI.repository.appendingPathComponent("Corpus").path

    static func fuzz(_ dir: String, _ extra: [String]) async throws -> CLI.Result {
        try await CLI.run(["fuzz", "--corpus", corpus, "--db", dir + "/r.sqlite", "--reports", dir + "/reports", "--no-progress"] + extra)
    }

    @Test func fuzzingAnAdapterThatDisagreesStoresMinimisedFindingsAndExitsOne() async throws {
        let dir = CLI.temporaryDirectory()
        // A timeout long enough that a loaded machine cannot turn a slow answer into a finding.
        // Never set aside, and bounded by inputs, not time: a run cut short when its 50th crash
        // is counted judges however many inputs were in flight then, so two runs of one seed
        // could differ in what they found (seen once in CI: 216 inputs, one signature more).
        let options = ["--adapter", "python3 \(Self.adapter) crash-on-double", "--timeout", "120", "--seconds", "600", "--max-inputs", "400",
                       "--seed", "7", "--minimise-trials", "300", "--set-aside-after", "0"]
        let first = try await Self.fuzz(dir, options)
        #expect(first.status == 1, "new signatures exit 1: \(first.output)")
        let store = try ResultsStore(path: dir + "/r.sqlite")
        let findings = try store.differentialFindings(implementation: "disagreeing")
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { $0.operation == "ulc.parse" && $0.signature.hasPrefix("ulc.parse ") })
        // A finding's minimised input is no larger than its first input and still disagrees.
        for f in findings { #expect(f.minimisedInput.utf8.count <= f.input.utf8.count, "\(f.signature)") }
        #expect(findings.contains { $0.kind == "crashed" }, "dying on a double encoding is a finding: \(findings.map(\.signature))")
        #expect(findings.contains { $0.minimisedInput.utf8.count < $0.input.utf8.count }, "something was minimised")
        let report = try String(contentsOfFile: dir + "/reports/fuzz-disagreeing.md", encoding: .utf8)
        #expect(report.contains("D\(findings[0].id)") && report.contains("# Differential fuzzing: disagreeing"))
        // The corpus pass: every finding of the run says whether a corpus case shows it.
        #expect(report.contains("- corpus pass: ") && report.contains("| in the corpus |"), "\(report)")
        #expect(first.stdout.contains("corpus pass: ") && first.stdout.contains(", corpus: ulc/"), "\(first.stdout)")
        // What minimising sent, said once at the end.
        #expect(first.stdout.contains(" of \(findings.count) new signatures, ") && first.stdout.contains(" KB of text"), "\(first.stdout)")
        // A signature that names no rule (`ulc.parse action []`: the reference saw nothing wrong)
        // is not "shown" by the corpus case that gives it: that case may differ for another cause.
        let lines = first.stdout.split(separator: "\n").filter { $0.hasPrefix("  D") }
        let ruleless = lines.filter { $0.hasSuffix(" []") && $0.contains("corpus") && !$0.contains("not in the corpus") }
        #expect(!ruleless.isEmpty, "\(first.stdout)")
        for line in ruleless { #expect(line.contains(", same signature as corpus case ") && line.contains("the cause may differ"), "\(line)") }
        #expect(report.contains("same signature, no rule named: "), "\(report)")
        // The same seed and inputs again: every signature is known, so nothing is new.
        let second = try await Self.fuzz(dir, options)
        #expect(second.status == 0, "\(second.output)")
        // Each known signature is listed with its finding's id, as a new one is.
        let ids = Set(findings.map { "D\($0.id)" })
        let listed = second.stdout.split(separator: "\n").filter { $0.contains(" seen before") }
        #expect(!listed.isEmpty && listed.allSatisfy { ids.contains(String($0.dropFirst(2).prefix { $0 != " " })) }, "\(second.stdout)")
        #expect(!second.stdout.contains("minimising: "), "nothing new, nothing minimised: \(second.stdout)")
        let again = try store.differentialFindings(implementation: "disagreeing")
        #expect(again.count == findings.count)
        #expect(again.map(\.count).reduce(0, +) > findings.map(\.count).reduce(0, +), "sightings counted up")
    }

    /// The progress line says when new signatures are being minimised: their candidates share
    /// the adapter with the inputs, so the rate drops while they run.
    @Test func theProgressLineSaysWhatIsBeingMinimised() {
        var stats = DifferentialFuzzer.Stats()
        stats.fuzzing = true
        stats.inputs = 1_000
        stats.seconds = 2
        #expect(FuzzRunCommand.status(stats) == "1000 inputs (500/s), 0 disagreements, 0 signatures (0 new)")
        stats.minimising = 2
        stats.waitingToMinimise = 7
        #expect(FuzzRunCommand.status(stats).hasSuffix(", minimising 2 (7 waiting)"))
        stats.waitingToMinimise = 0
        #expect(FuzzRunCommand.status(stats).hasSuffix(", minimising 2"))
    }

    /// fuzz compares one adapter with the reference: its help offers no --implementation and
    /// calls neither adapter option repeatable; both are refused with the reason.
    @Test func theHelpOffersOneAdapterAndNoImplementation() async throws {
        let help = try await CLI.run(["fuzz", "run", "--help"])
        #expect(help.status == 0)
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!flat.contains("--implementation"), "\(help.stdout)")
        #expect(!flat.contains("adapter command (repeatable)") && !flat.contains("adapter manifest (repeatable)"), "\(help.stdout)")
        #expect(flat.contains("Give it or --adapter-manifest, once.") && flat.contains("Give it or --adapter, once."), "\(help.stdout)")
        let builtIn = try await CLI.run(["fuzz", "--implementation", "reference", "--adapter", "x"])
        #expect(builtIn.status == 64 && builtIn.stderr.contains("--implementation is not taken"), "\(builtIn.output)")
        let two = try await CLI.run(["fuzz", "--adapter", "a", "--adapter-manifest", "b.json"])
        #expect(two.status == 64 && two.stderr.contains("fuzz takes exactly one --adapter or --adapter-manifest"), "\(two.output)")
    }

    @Test func theReferenceOverTheProtocolAgreesWithItself() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await Self.fuzz(dir, ["--adapter", "\(CLI.binary) adapter", "--operation", "ulc.parse", "--operation", "aasa.match",
                                               "--seconds", "30", "--max-inputs", "600", "--seed", "3"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains(" 0 disagreements"), "\(result.stdout)")
    }

    @Test func anInterruptedFuzzKeepsItsFindingsAndExits130() async throws {
        let dir = CLI.temporaryDirectory()
        let process = try CLI.launch(["fuzz", "--corpus", Self.corpus, "--db", dir + "/r.sqlite", "--reports", dir + "/reports", "--no-progress",
                                      "--adapter", "python3 \(Self.adapter) slow 2", "--seconds", "600", "--seed", "5", "--minimise-trials", "50"])
        let db = dir + "/r.sqlite"
        let stop = await CLI.signal(process, [SIGINT], when: {
            ((try? ResultsStore(path: db, readOnly: true).differentialFindings().count) ?? 0) >= 2
        }, within: 60)
        try #require(stop.wasRunning, "the run ended before the signal (status \(stop.status))")
        #expect(stop.status == 130)
        let stored = try #require(try? ResultsStore(path: db).differentialFindings().count)
        try #require(stored >= 2, "findings were stored while the run went on")
        let findings = try ResultsStore(path: dir + "/r.sqlite").differentialFindings()
        #expect(findings.count >= stored)
        #expect(FileManager.default.fileExists(atPath: dir + "/reports/fuzz-disagreeing.md"), "the report is written on an interrupt too")
    }

    /// A first Ctrl-C does not wait for inputs an adapter holds: they get a second, then the
    /// adapter is stopped and the run ends, with what it found stored and the report written.
    @Test func aCtrlCDoesNotWaitForTheInputsAnAdapterHolds() async throws {
        let dir = CLI.temporaryDirectory(), log = dir + "/answered"
        // The corpus pass asks the ulc.parse cases first; the adapter falls silent during the
        // fuzzing after it, holding a window of inputs with a 60 s timeout.
        let process = try CLI.launch(["fuzz", "--corpus", Self.corpus, "--db", dir + "/r.sqlite", "--reports", dir + "/reports", "--no-progress",
                                      "--adapter", "python3 \(Self.adapter) silent-after 400 \(log)", "--timeout", "60", "--seconds", "600",
                                      "--seed", "5", "--minimise-trials", "20"])
        // Signalled 0.3 s after the adapter's 400th answer (it then holds what it is sent); a
        // run that does not end within 40 s is killed, so the test fails rather than hangs.
        let stop = await CLI.signal(process, [SIGINT], when: {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count >= 400
        }, within: 90, settle: 0.3, watchdog: 40)
        try #require(stop.wasRunning, "the run ended before the adapter fell silent (status \(stop.status))")
        // A second of grace and two for the adapter to leave, not the 60 s timeout.
        #expect(stop.seconds < 20, "Ctrl-C ended the fuzzing \(stop.seconds) s later")
        #expect(stop.status == 130)
        let findings = try ResultsStore(path: dir + "/r.sqlite").differentialFindings()
        #expect(!findings.isEmpty, "what the 400 answers showed is stored")
        #expect(findings.allSatisfy { $0.kind != "timedOut" && $0.kind != "notRun" }, "what the adapter held is dropped, not judged: \(findings.map(\.signature))")
        #expect(FileManager.default.fileExists(atPath: dir + "/reports/fuzz-disagreeing.md"))
    }

    @Test func aPromotedFindingIsALintCleanCaseOfItsSuite() async throws {
        let dir = CLI.temporaryDirectory()
        try FileManager.default.copyItem(atPath: Self.corpus, toPath: dir + "/Corpus")
        let fuzzed = try await Self.fuzz(dir, ["--adapter", "python3 \(Self.adapter)", "--seconds", "30", "--max-inputs", "200", "--seed", "11",
                                               "--minimise-trials", "200"])
        #expect(fuzzed.status == 1, "\(fuzzed.output)")
        let store = try ResultsStore(path: dir + "/r.sqlite")
        let finding = try #require(try store.differentialFindings().first { $0.kind == "differs" && !$0.referenceCodes.isEmpty })
        let promoted = try await CLI.run(["findings", "promote", "D\(finding.id)", "--db", dir + "/r.sqlite", "--corpus", dir + "/Corpus"])
        #expect(promoted.status == 0, "\(promoted.output)")
        #expect(promoted.stdout.contains("other implementations may fail it too"), "\(promoted.stdout)")
        // One the reference finds nothing wrong with waits for the reviewer to name its requirement.
        if let unnamed = try store.differentialFindings().first(where: { $0.kind == "differs" && $0.referenceCodes.isEmpty }) {
            let refused = try await CLI.run(["findings", "promote", "D\(unnamed.id)", "--db", dir + "/r.sqlite", "--corpus", dir + "/Corpus"])
            #expect(refused.status == 2 && refused.stderr.contains("--requirement ID") && refused.stderr.contains("  ULC-"), "\(refused.output)")
        }
        let lint = try await CLI.run(["corpus", "lint", "--corpus", dir + "/Corpus"])
        #expect(lint.status == 0 && lint.stdout.contains("0 errors"), "\(lint.output)")
        let caseID = try #require(try store.differentialFinding(id: finding.id)?.promotedCase)
        #expect(caseID.hasPrefix("ulc/") && caseID.hasSuffix("-d\(finding.id)"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/Corpus/ulc/cases")
        let holding = try files.filter { try String(contentsOfFile: dir + "/Corpus/ulc/cases/" + $0, encoding: .utf8).contains("\"\(caseID)\"") }
        #expect(holding.count == 1)
        // Promoting it again is refused, and leaves the corpus as it is.
        let again = try await CLI.run(["findings", "promote", "D\(finding.id)", "--db", dir + "/r.sqlite", "--corpus", dir + "/Corpus"])
        #expect(again.status == 2 && again.stderr.contains("already has a case"), "\(again.output)")
        // The libFuzzer subcommands still work beside them.
        #expect(try await CLI.run(["findings", "--db", dir + "/r.sqlite"]).status == 1, "open differential findings fail the listing")
        // A name with no findings (misspelt) is told the names that have some.
        let misspelt = try await CLI.run(["findings", "--db", dir + "/r.sqlite", "--implementation", "disagreing"])
        #expect(misspelt.status == 0 && misspelt.stdout.contains("no findings for disagreing"), "\(misspelt.output)")
        #expect(misspelt.stderr.contains("findings are stored for: disagreeing"), "\(misspelt.output)")
    }

    /// An input never minimised (a budget of 0 here) is not called minimised in the summary.
    @Test func anInputKeptAsFoundIsNotCalledMinimised() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await Self.fuzz(dir, ["--adapter", "python3 \(Self.adapter)", "--seconds", "30", "--max-inputs", "100", "--seed", "11",
                                               "--minimise-trials", "0", "--no-corpus-pass"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.stdout.contains("      input (kept as found): {") && !result.stdout.contains("minimised: {"), "\(result.stdout)")
    }

    /// A listing of a store that is not there says so and makes none (it made an 80 KB store).
    @Test func listingAStoreThatDoesNotExistMakesNone() async throws {
        let path = CLI.temporaryDirectory() + "/r.sqlite"
        for arguments in [["findings"], ["findings", "--implementation", "x"], ["findings", "promote", "D1"], ["findings", "fix", "1"]] {
            let result = try await CLI.run(arguments + ["--db", path])
            #expect(result.status == 2 && result.stderr.contains("no results database at \(path)"), "\(arguments): \(result.output)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(arguments)")
        }
        // report and compare said so already, the same way.
        let report = try await CLI.run(["report", "--db", path])
        #expect(report.status == 2 && report.stderr.contains("no results database at \(path)") && !FileManager.default.fileExists(atPath: path))
    }
}

/// `linkconform fuzz seeds`: the corpus inputs as libFuzzer seeds.
struct FuzzSeedsTests {
    /// A corpus input whose check is slow is not made a seed: the AASA compile-budget cases took
    /// 8 to 17 s each under AddressSanitizer, past libFuzzer's 10 s timeout, and ended the aasa
    /// target's run while it read its seeds. The others are written, and a second run adds nothing.
    @Test func slowInputsAreLeftOutAndTheRestWrittenOnce() async throws {
        let out = CLI.temporaryDirectory()
        let arguments = ["fuzz", "seeds", "--corpus", DifferentialFuzzTests.corpus, "--suite", "aasa", "--out", out]
        let first = try await CLI.run(arguments)
        #expect(first.status == 0, "\(first.output)")
        let line = try #require(first.stdout.split(separator: "\n").first { $0.hasPrefix("aasa: ") })
        #expect(line.contains(" left out as slow (a check over 250 ms)"), "\(line)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out + "/aasa")
        // The file of 60 rules that each use $(lang), at the compile budget.
        #expect(!written.contains("case-c2a37cee00fd8ca8") && written.count > 400)
        let second = try await CLI.run(arguments)
        #expect(second.stdout.contains("(0 new)"), "\(second.stdout)")
    }
}
