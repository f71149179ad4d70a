import AdapterHarness
import ArgumentParser
import ChildProcess
import Conformance
import Foundation
import LinkJSON
import Reports
import ResultsStore
import RunSession

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the suites against the implementations, store the results, print and write reports.",
        discussion: """
            Runs every case of the selected suites (default: all) against the implementations \
            (default: the built-in reference), shows progress on stderr, stores the run in the \
            results database, prints a summary per suite and writes summary.md, results.json, \
            junit.xml, index.html (one self-contained page: summary, history of the last runs, \
            requirement matrix, the first 500 cases per implementation that did not pass: not \
            pass, informational, skipped or expectedFail) and badges/ (an SVG badge and a \
            shields.io endpoint JSON per implementation and suite).

            Other implementations run as adapters: --adapter 'python3 my_adapter.py' or \
            --adapter-manifest Adapters/python-urllib/adapter.json (docs/adapter-protocol.md). A \
            manifest may name an expected-failures file: its listed cases become expectedFail, \
            and a listed case that passes is an unexpectedPass.

            The summary counts outcomes: pass; fail (a MUST not met); nonStrict (a SHOULD not met); \
            informational (the source is silent: recorded, not judged); skipped; errored; and, only \
            when some result has them, crashed, timedOut, protocolError, notRun, expectedFail and \
            unexpectedPass (README.md, "Reading a report"). It also says how many passes an \
            implementation that does nothing would have earned.

            With --baseline previous (what a nightly wants), the exit code depends on regressions \
            only: each suite of each implementation is compared with the last completed run in \
            which that implementation (by name) started and has results in that suite, so a run of \
            other suites in between hides nothing (`linkconform compare` explains what counts as a \
            regression; expected failures still apply), and failures it already had do not fail the \
            run. What has nothing to compare with (an implementation with no earlier results, a \
            suite it runs for the first time, and in a suite compared the cases new since the \
            baseline or skipped or not run in it, such as those of an operation the adapter \
            declares for the first time) is judged the usual way. --baseline N compares every \
            implementation with run N instead (one not in run N, or a suite it had no results in \
            there: the usual way).

            Exit codes: 0 no unexpected failure; 1 a fail, an error, a crash, a timeout, a protocol \
            error or an unexpected pass (with --strict, a nonStrict too), or with --baseline a \
            regression; 2 the harness could not do its job (corpus errors, a database that cannot \
            be read or written, an adapter that never started, a reports folder that cannot be \
            written); 64 usage; 130 interrupted (by a signal, or because in-process cases that \
            did not return within --in-process-timeout hold every thread: the run stops there, \
            stored and reported).
            """)

    @OptionGroup var corpusOptions: CorpusOptions

    @OptionGroup var implementationOptions: ImplementationOptions

    @OptionGroup var output: OutputOptions

    @Flag(help: "Count nonStrict (a SHOULD not met) as a failure for the exit code.")
    var strict = false

    @Option(help: ArgumentHelp("Seconds one case of an in-process implementation (--implementation) may run before it is recorded timedOut and the run goes on without it (default 60). Adapters have --timeout.",
                               valueName: "seconds"))
    var inProcessTimeout: Double?

    @Option(help: ArgumentHelp("Exit 1 only on regressions against an earlier run: 'previous' (per implementation, its last completed run) or a run id.",
                               valueName: "previous|run"))
    var baseline: String?

    func validate() throws {
        if let inProcessTimeout, !(inProcessTimeout > 0 && inProcessTimeout <= 86_400) {
            throw ValidationError("--in-process-timeout must be more than 0 seconds and at most 86400 (a day)")
        }
        if let baseline, baseline != "previous", Int64(baseline) == nil {
            throw ValidationError("--baseline takes 'previous' or a run id, not '\(baseline)'")
        }
    }

    func run() async throws {
        // First, so that an interrupt during loading still ends as a recorded interrupted run.
        let stop = StopSignal()
        stop.install()
        // The corpus first: a corpus that fails to load leaves no database file behind.
        let corpus = try corpusOptions.loadOrExit()
        let plans: [ImplementationPlan]
        switch implementationOptions.plans() {
        case .success(let p):
            plans = p.map { plan in
                guard strict, var expected = plan.expectedFailures else { return plan }
                expected.strict = true
                return ImplementationPlan(implementation: plan.implementation, expectedFailures: expected, prepare: plan.prepare,
                                          workingDirectory: plan.workingDirectory)
            }
        case .failure(let error):
            for message in error.messages { Console.error(message) }
            throw Exit.harness
        }
        for plan in plans {
            for stale in plan.expectedFailures?.unknown(in: corpus) ?? [] {
                Console.error("\(plan.expectedFailures!.path):\(stale.line): \(stale.caseID) is not a case of this corpus; remove the line")
            }
        }

        let store = try output.openStore()
        let db = output.db
        if let baseline, let id = Int64(baseline), try store.run(id) == nil {
            Console.error("--baseline \(id): no run \(id) in \(db) (`linkconform report --list` lists them)")
            throw Exit.harness
        }
        let options: JSONValue = [
            "suites": .array(corpus.suites.map { .string($0.name) }),
            "corpus": .string(corpusOptions.corpus),
            "strict": .bool(strict),
            "implementations": .array(plans.map { .string($0.implementation.displayName) }),
        ]
        let session: RunSession
        do {
            session = try RunSession(store: store, corpus: corpus, options: options, gitCommit: GitInfo.commit())
            if let inProcessTimeout { session.inProcessTimeout = .milliseconds(max(1, Int64((inProcessTimeout * 1000).rounded()))) }
        } catch {
            Console.error("cannot record the run in \(db): \(error)")
            throw Exit.harness
        }
        let noProgress = output.noProgress
        let command = self
        let events = RunSession.Events(
            message: { Console.error($0) },
            progress: { info in Progress(label: Escaping.terminal(info.name), enabled: !noProgress).update },
            shouldStop: { stop.isSet },
            starved: { summary, message in
                // On the watchdog's thread, with every thread of the pool held: this command's
                // task will not run again, so the end of the run is written from here.
                if !noProgress && Console.stderrIsTerminal { Console.progressLine("\n") }   // below the live line
                Console.error(message)
                let code: Int32
                do {
                    try command.finish(summary, store: store, db: db)
                    code = Exit.ok.rawValue
                } catch let exit as ExitCode {
                    code = exit.rawValue
                } catch {
                    Console.error("cannot write the reports: \(error)")
                    code = Exit.harness.rawValue
                }
                Foundation.exit(code)
            })
        let summary: RunSession.Summary
        do {
            summary = try await session.run(plans, events: events)
        } catch {
            Console.error("the run failed: \(error)")
            throw Exit.harness
        }
        try finish(summary, store: store, db: db)
    }

    /// Everything after the cases ran: the terminal summary, the reports, the gate and the exit
    /// code (thrown). Synchronous, so that the watchdog's thread can call it when in-process cases
    /// hold the pool.
    func finish(_ summary: RunSession.Summary, store: ResultsStore, db: String) throws {
        let runID = summary.runID, status = summary.status
        guard let data = try ReportData.load(from: store, run: runID) else { throw Exit.harness }
        Console.out(try TerminalSummary.render(data))
        if !output.noReports {
            let paths = try ReportWriter.write(data, to: output.reports)
            Console.line("stored as run \(runID) in \(db); reports: " + paths.joined(separator: ", "))
        } else {
            Console.line("stored as run \(runID) in \(db)")
        }
        let failed: Bool
        if let baseline {
            failed = try gateOnRegressions(store: store, data: data, run: runID, baseline: baseline)
        } else {
            failed = data.hasFailures(strict: strict)
        }
        if status == .interrupted { throw Exit.interrupted }
        if summary.harnessFailed { throw Exit.harness }
        if failed { throw Exit.failures }
    }

    /// `--baseline`: prints each implementation's changes against its baseline run and says
    /// whether the run fails (a regression, or a failure of an implementation without a baseline).
    ///
    /// `previous` is chosen suite by suite: each suite's cases are compared with the newest
    /// completed run that has this implementation's results in that suite, so a run of other
    /// suites (`run --suite`) between two nights hides no regression. `N` is used for every
    /// suite, if the implementation started in run N. What has no baseline (an implementation,
    /// or a suite run for the first time or absent from run N) is judged the usual way; an
    /// implementation that did not start is not compared.
    func gateOnRegressions(store: ResultsStore, data: ReportData, run: Int64, baseline: String) throws -> Bool {
        let failing = Set(Outcome.allCases.filter { $0.isFailure(strict: strict) })
        let names = data.implementations.map(\.info.name)
        var comparisons: [RunComparison] = []
        // Implementations, or some of their suites, with nothing to compare with: judged as
        // `run` judges without --baseline (a new suite's MUST failures are not waved through).
        var judgedAsUsual: [(StoredImplementation, suites: [String]?, String)] = []
        if let n = Int64(baseline) {
            // Each implementation that started in run N, with the suites it has results in there
            // (the others are judged as usual, and left out of the comparison).
            var compared: [String: Set<String>] = [:]
            for implementation in data.implementations {
                let name = implementation.info.name
                guard try store.started(name, in: n) else {
                    judgedAsUsual.append((implementation, nil, "not in run \(n)"))
                    continue
                }
                let before = Set(try store.suites(of: name, in: n))
                let now = try store.suites(of: name, in: run)
                let unseen = now.filter { !before.contains($0) }
                compared[name] = before
                if !unseen.isEmpty { judgedAsUsual.append((implementation, unseen, "no results in run \(n) for \(unseen.joined(separator: ", "))")) }
            }
            if !compared.isEmpty { comparisons = [try store.compare(n, run, strict: strict).only(suites: compared)] }
        } else {
            let previous = try store.comparedWithPreviousResults(run, names: names, strict: strict)
            comparisons = previous.comparisons
            for implementation in data.implementations {
                let name = implementation.info.name
                // One that did not start is compared with nothing: run exits 2 for it, and its
                // reports say why.
                if data.notStarted.contains(where: { $0.id == implementation.id }) {
                    Console.line("\(Escaping.terminal(name)): did not start; not compared")
                } else if previous.isFirst(name) {
                    judgedAsUsual.append((implementation, nil, "no earlier run to compare with"))
                } else if let unseen = previous.firstResults[name] {
                    judgedAsUsual.append((implementation, unseen, "first results in \(unseen.joined(separator: ", "))"))
                }
            }
        }
        var failed = false
        for (implementation, suites, why) in judgedAsUsual {
            let failures = data.summary.filter { $0.implementationID == implementation.id && suites?.contains($0.suite) ?? true }
                .reduce(0) { $0 + $1.count(failing) }
            Console.line("\(Escaping.terminal(implementation.info.name)): \(why); judged as usual (\(failures) unexpected failure\(failures == 1 ? "" : "s"))")
            if failures > 0 { failed = true }
        }
        for comparison in comparisons {
            Console.out("\nagainst the baseline: " + ComparisonReport.text(comparison, limit: 20))
            if comparison.regressionCount > 0 { failed = true }
        }
        // Cases of a compared suite with nothing to compare with either: new to the corpus, or
        // not judged in the baseline (skipped: an operation the implementation has only now
        // declared; notRun). A failure among them is no known failure.
        for implementation in comparisons.flatMap(\.implementations) {
            let unjudged = Self.withoutBaseline(implementation, failing: failing)
            guard !unjudged.isEmpty else { continue }
            Console.line("\(Escaping.terminal(implementation.name)): \(unjudged.count) unexpected failure\(unjudged.count == 1 ? "" : "s") in cases "
                         + "new since the baseline or not judged in it (skipped, not run); judged as usual:")
            for change in unjudged.prefix(20) {
                Console.line("  \(Escaping.terminal(change.caseID)) (\(Escaping.terminal(change.requirementID)) \(change.level.rawValue)): "
                             + "\(change.before?.rawValue ?? "new") -> \(change.after?.rawValue ?? "-")")
            }
            if unjudged.count > 20 { Console.line("  ... and \(unjudged.count - 20) more") }
            failed = true
        }
        return failed
    }

    /// The implementation's cases that fail now (`failing`) and had no judged result in the
    /// baseline: new cases, and cases that were `skipped` or `notRun` there (which a comparison
    /// files as changed, or, for an `unexpectedPass` now, as fixed).
    static func withoutBaseline(_ implementation: ImplementationComparison, failing: Set<Outcome>) -> [CaseChange] {
        (implementation.changed + implementation.new + implementation.fixes).filter { change in
            guard let after = change.after, failing.contains(after) else { return false }
            return change.before == nil || change.before == .skipped || change.before == .notRun
        }
    }
}

/// The commit of the working tree the tool runs in, if it is a git checkout.
enum GitInfo {
    static func commit() -> String? {
        guard let head = git(["rev-parse", "HEAD"]), !head.isEmpty else { return nil }
        let dirty = !(git(["status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty
        return head + (dirty ? "+dirty" : "")
    }

    static func git(_ arguments: [String]) -> String? {
        guard let result = try? CapturedCommand.run(["git"] + arguments), result.status == 0 else { return nil }
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
