import Foundation
import LinkJSON
import ResultsStore
import Testing

/// `kill -9` during a run: what was answered well before the kill is in the database, and the
/// run is marked interrupted when the database is next opened.
struct KillDuringRunTests {
    /// The times (seconds since 1970) at which the zoo's slow adapter sent its answers.
    static func answerTimes(_ log: String) -> [Double] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Double($0) }
    }

    @Test func aRunKilledAtNinetyPercentKeepsWhatWasAnsweredBeforeTheLastSecond() async throws {
        let dir = CLI.temporaryDirectory()
        let log = dir + "/answered"
        // The ULC suite has 171 ulc.parse cases, the only operation the zoo answers: at 40 ms an
        // answer, about 7 s of run. The other ULC cases are skipped at once.
        let parseCases = 171
        let process = try CLI.launch(["run", "--corpus", CLI.repository.appendingPathComponent("Corpus").path, "--suite", "ulc",
                                      "--db", dir + "/r.sqlite", "--no-reports", "--no-progress", "--timeout", "600",
                                      "--adapter", "python3 \(AdapterRunTests.zoo) slow 40 \(log) \(parseCases * 9 / 10)"])
        // Killed once 90% of the answers are out, as the adapter's own log says (the adapter
        // answers no more after that, and the 600 s timeout keeps the harness from giving it up,
        // so however late this task wakes on a busy machine, the run is still going).
        let stop = await CLI.signal(process, [SIGKILL], when: { Self.answerTimes(log).count >= parseCases * 9 / 10 }, within: 60)
        try #require(stop.wasRunning && stop.reason == .uncaughtSignal, "the run ended before the kill (status \(stop.status))")
        let killedAt = stop.signalled.timeIntervalSince1970

        let answers = Self.answerTimes(log)
        let answeredBeforeTheLastSecond = answers.filter { $0 < killedAt - 1 }.count
        #expect(answeredBeforeTheLastSecond >= parseCases / 2, "the kill came late in the run")
        let store = try ResultsStore(path: dir + "/r.sqlite")
        let run = try #require(try store.runs().first)
        #expect(run.status == .interrupted)
        let kept = try store.results(run: run.id).filter { $0.result.operation == "ulc.parse" }
        #expect(kept.count >= answeredBeforeTheLastSecond,
                "\(kept.count) of \(answers.count) answers kept; \(answeredBeforeTheLastSecond) were sent more than 1 s before the kill")
        print("kill -9 at \(answers.count) of \(parseCases) answers: \(kept.count) kept")
    }

    /// Two signals at once (coreutils' `timeout` signals the process, then its process group)
    /// are one stop: the run stores what it has and writes its reports. The second one quit at
    /// once, with no report (seen in one run of four by the nightly audit).
    @Test func twoSignalsAtOnceAreOneStop() async throws {
        let dir = CLI.temporaryDirectory(), log = dir + "/answered"
        let process = try CLI.launch(["run", "--corpus", CLI.repository.appendingPathComponent("Corpus").path, "--suite", "ulc",
                                      "--db", dir + "/r.sqlite", "--reports", dir + "/reports", "--no-progress", "--timeout", "60",
                                      "--adapter", "python3 \(AdapterRunTests.zoo) slow 40 \(log) 30"])
        let stop = await CLI.signal(process, [SIGINT, SIGINT], when: { Self.answerTimes(log).count >= 20 }, within: 60)
        try #require(stop.wasRunning, "the run ended before the signals (status \(stop.status))")
        #expect(stop.status == 130)
        #expect(FileManager.default.fileExists(atPath: dir + "/reports/summary.md"), "the reports were written")
        let run = try #require(try ResultsStore(path: dir + "/r.sqlite").runs().first)
        #expect(run.status == .interrupted)
    }

    /// A store's first run killed before any result (its adapter still starting): `report`
    /// writes every file, index.html with a history of no point, and exits 2 for the
    /// incomplete run. It trapped on the empty history (SIGILL, exit 132) and wrote no index.html.
    @Test func aFirstRunKilledBeforeAnyResultIsReported() async throws {
        let dir = CLI.temporaryDirectory(), db = dir + "/r.sqlite"
        let process = try CLI.launch(["run", "--corpus", CLI.repository.appendingPathComponent("Corpus").path, "--suite", "mitid",
                                      "--db", db, "--no-reports", "--no-progress", "--adapter", "sh -c 'cat >/dev/null'", "--start-timeout", "600"])
        // The adapter never answers its start and never exits on its own (a `sleep` did, once
        // this task woke over two minutes late in a loaded CI run), so the run has no result
        // however late the kill comes; it leaves when its input closes, with the run.
        let stop = await CLI.signal(process, [SIGKILL], when: { FileManager.default.fileExists(atPath: db) }, within: 300, settle: 1.5)
        try #require(stop.wasRunning, "the run ended before the kill (status \(stop.status))")
        let report = try await CLI.run(["report", "--db", db, "--out", dir + "/reports"])
        #expect(report.status == 2, "\(report.output)")
        let html = try String(contentsOfFile: dir + "/reports/index.html", encoding: .utf8)
        #expect(html.contains("No run in the store has a result yet"))
    }

    /// A run of the zoo's slow adapter over the ULC suite into `db`, stopped by `signal` once the
    /// adapter has sent `answers` answers; returns the run's exit status and the seconds from the
    /// signal to its end. The adapter answers no more after `answers + 10` (it then hangs, with a
    /// 60 s timeout), so the run cannot end before the signal, however late this task wakes.
    static func stoppedRun(db: String, log: String, signal: Int32, after answers: Int) async throws -> (status: Int32, seconds: Double) {
        let process = try CLI.launch(["run", "--corpus", CLI.repository.appendingPathComponent("Corpus").path, "--suite", "ulc",
                                      "--db", db, "--no-reports", "--no-progress", "--timeout", "60",
                                      "--adapter", "python3 \(AdapterRunTests.zoo) slow 40 \(log) \(answers + 10)"])
        let stop = await CLI.signal(process, [signal], when: { Self.answerTimes(log).count >= answers }, within: 60)
        return (stop.status, stop.seconds)
    }

    /// Ctrl-C and kill -9 leave the same thing behind (the results so far, none for the cases not
    /// reached, the run interrupted), and `compare` and `report` say the same of both: the run is
    /// incomplete, this many cases have no result, exit 2; junit.xml holds a test case in error.
    @Test func aRunStoppedByCtrlCAndOneKilledAreBothReportedIncomplete() async throws {
        let dir = CLI.temporaryDirectory(), db = dir + "/r.sqlite"
        let whole = try await CLI.run(["run", "--corpus", CLI.repository.appendingPathComponent("Corpus").path, "--suite", "ulc",
                                       "--db", db, "--no-reports", "--no-progress", "--adapter", "python3 \(AdapterRunTests.zoo) slow 1"])
        try #require(whole.stdout.contains("run 1 completed"), "\(whole.output)")
        let interrupted = try await Self.stoppedRun(db: db, log: dir + "/answered-2", signal: SIGINT, after: 20)
        #expect(interrupted.status == 130, "Ctrl-C ends the run with 130")
        // A second in flight, and the adapter's stop (2 s for it to leave after its input closes):
        // not the 60 s timeout of the case the adapter holds.
        #expect(interrupted.seconds < 20, "Ctrl-C ended the run \(interrupted.seconds) s later")
        _ = try await Self.stoppedRun(db: db, log: dir + "/answered-3", signal: SIGKILL, after: 20)
        for run in ["2", "3"] {
            let compare = try await CLI.run(["compare", "1", run, "--db", db])
            #expect(compare.status == 2, "\(compare.output)")
            #expect(compare.stdout.contains("run \(run) is incomplete (interrupted): "), "\(compare.output)")
            #expect(compare.stdout.contains("without a result (run \(run) is incomplete)"))
            #expect(compare.stderr.split(separator: "\n").count == 1 && compare.stderr.contains("cases it was to run have no result"))
            let out = dir + "/reports-" + run
            let report = try await CLI.run(["report", "--run", run, "--db", db, "--out", out])
            #expect(report.status == 2, "\(report.output)")
            let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
            #expect(junit.contains(#"<error type="incomplete" message="run \#(run) is incomplete (interrupted): "#), "\(junit.suffix(600))")
            #expect(try String(contentsOfFile: out + "/summary.md", encoding: .utf8).contains("**Incomplete run:** run \(run) is incomplete"))
            // Its badges show no pass rate over the few cases that ran, and their index says why.
            let index = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/badges/index.json"))))
            #expect(index["incomplete"]?["run"]?.intValue == Int(run))
            let overall = try #require(index["badges"]?.arrayValue?.first)
            #expect(overall["message"]?.stringValue?.hasPrefix("incomplete: ") == true && overall["state"] == "incomplete", "\(overall)")
        }
    }
}
