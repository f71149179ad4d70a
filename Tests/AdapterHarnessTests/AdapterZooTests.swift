import Foundation
import LinkJSON
import Testing
import Conformance
@testable import AdapterHarness

/// The harness against adapters that misbehave on purpose (Fixtures/zoo.py): every behaviour is
/// a recorded outcome on the right case, and nothing hangs.
@Suite(.serialized)
struct AdapterZooTests {
    static let zoo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/zoo.py").path

    /// The default timeout only bounds a broken test: no answer here is meant to time out unless
    /// the test sets its own (2 s was once too short for Python on a machine the whole suite loads).
    func adapter(_ mode: String, timeout: Duration = .seconds(30), window: Int = 8, maxRestarts: Int = 3,
                 startTimeout: Duration = .seconds(10)) -> AdapterImplementation {
        AdapterImplementation(AdapterConfiguration(arguments: ["python3", Self.zoo, mode], timeout: timeout, startTimeout: startTimeout,
                                                   window: window, maxRestarts: maxRestarts, maxLineBytes: 1 << 20))
    }

    func request(_ id: String) -> Request {
        Request(caseID: id, operation: "ulc.parse", input: ["link": "https://a.example/"])
    }

    /// Runs the ids concurrently (as the runner does with a window) and returns the answers by id.
    func runAll(_ implementation: AdapterImplementation, _ ids: [String]) async -> [String: Answer] {
        await withTaskGroup(of: (String, Answer).self) { group in
            for id in ids { group.addTask { (id, await implementation.run(self.request(id))) } }
            var answers: [String: Answer] = [:]
            for await (id, answer) in group { answers[id] = answer }
            return answers
        }
    }

    static let ids = ["c1", "c2", "c3", "bad", "c4", "c5", "c6", "c7"]

    /// Operations no suite defines are named in a note (the reports and the terminal show the
    /// notes), so that a misspelt one does not leave its cases skipped without a word.
    @Test func misspeltOperationsAreNoted() async throws {
        let a = adapter("misspelt-operations")
        _ = try await a.start()
        #expect(a.supports("ulc.parse"))
        let note = try #require(a.notes.first, "\(a.notes)")
        #expect(note.hasPrefix("declares 2 operations no suite defines, ignored: 'ulc.Parse', 'xcallback.parze' (the operations are "), "\(note)")
        #expect(note.contains("xcallback.parse"))
        await a.stop()
        let plain = adapter("echo")
        _ = try await plain.start()
        #expect(plain.notes.isEmpty, "\(plain.notes)")
        await plain.stop()
        // A manifest's name other than the adapter's own is noted; a name made from the command is not.
        let named = AdapterImplementation(AdapterConfiguration(name: "zoo", arguments: ["python3", Self.zoo, "echo"], startTimeout: .seconds(10)))
        _ = try await named.start()
        #expect(named.notes.contains { $0.hasPrefix("its manifest names it 'zoo' but it calls itself 'zoo-echo' in its answer to start") },
                "\(named.notes)")
        await named.stop()
        let many = try #require(AdapterImplementation.unknownOperationsNote(Set((0..<30).map { "op\($0)" }) .union(["ulc.parse"])))
        #expect(many.hasPrefix("declares 30 operations") && many.contains(" and 20 more"), "\(many)")
    }

    func expectOnlyTheCulpritBlamed(_ answers: [String: Answer], _ check: (Answer) -> Bool) {
        for id in Self.ids where id != "bad" {
            #expect(answers[id] == .output(["echo": .string(id)]), "\(id): \(String(describing: answers[id]))")
        }
        #expect(check(answers["bad"]!), "\(String(describing: answers["bad"]))")
    }

    @Test func wellBehavedAdapterAnswersOutOfOrderAndIsMatchedBySeq() async throws {
        let a = adapter("reverse")
        let info = try await a.start()
        #expect(info.name == "zoo-reverse")
        let answers = await runAll(a, ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"])
        for (id, answer) in answers { #expect(answer == .output(["echo": .string(id)])) }
        await a.stop()
    }

    /// A request is written to the adapter even while every thread of the concurrency pool is
    /// busy: its deadline runs from the moment it is queued, so a write that waited for the pool
    /// made the harness blame a good adapter for its own delay ("no answer within 2 s").
    @Test func aRequestIsWrittenWhileThePoolIsBusy() async throws {
        let a = adapter("echo", timeout: .seconds(2))
        _ = try await a.start()
        // Spinners on every other thread of the pool before the request is queued; this task
        // spins too, for longer than the timeout. It waits at most 10 s for them to start (not
        // for ever: in a full test run, other tests may hold the pool's threads for longer,
        // which keeps the flush task waiting just the same).
        let others = max(1, ProcessInfo.processInfo.activeProcessorCount) - 1
        let running = Locked(0), release = Locked(false)
        let spinners = (0..<others).map { _ in
            Task.detached {
                running.update { $0 += 1 }
                while !release.value {}
            }
        }
        let startBy = ContinuousClock.now + .seconds(10)
        while running.value < others && ContinuousClock.now < startBy {}
        let answer = Locked<Answer?>(nil)
        a.run(request("c1")) { a in answer.update { $0 = a } }
        let until = ContinuousClock.now + .seconds(4)
        while ContinuousClock.now < until {}
        release.update { $0 = true }
        for spinner in spinners { await spinner.value }
        let deadline = ContinuousClock.now + .seconds(60)
        while answer.value == nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(answer.value == .output(["echo": "c1"]), "\(String(describing: answer.value)); notes: \(a.notes)")
        await a.stop()
    }

    @Test func crashIsPinnedOnItsCaseAndTheRunGoesOn() async throws {
        let a = adapter("crash")
        _ = try await a.start()
        let answers = await runAll(a, Self.ids)
        expectOnlyTheCulpritBlamed(answers) {
            if case .crashed(let m) = $0 { return m.contains("exit status 7") && m.contains("fatal: cannot handle bad") }
            return false
        }
        #expect(a.notes.contains { $0.contains("restarted") })
        await a.stop()
    }

    /// An adapter that closes its output and lives on can never answer again. It is seen within
    /// half a second, not at each request's deadline: the culprit, sent again alone, is a
    /// protocol error, and every other case is answered by a new process. (With a timeout of
    /// 60 s, a timeout-based answer would be a `timedOut` after minutes.)
    @Test func anAdapterThatClosesItsOutputIsReplacedAndTheCulpritBlamed() async throws {
        let a = adapter("close-output", timeout: .seconds(60))
        _ = try await a.start()
        let answers = await runAll(a, Self.ids)
        expectOnlyTheCulpritBlamed(answers) {
            if case .protocolError(let m) = $0 { return m.contains("closed its standard output and kept running") }
            return false
        }
        let notes = a.notes
        #expect(notes.contains { $0.contains("restarted") }, "\(notes)")
        await a.stop()
    }

    /// The same between cases: the process is replaced at once, and the next case goes to a
    /// new one instead of waiting for its deadline (60 s) behind an output that will never speak.
    @Test func anAdapterThatClosesItsOutputBetweenCasesIsReplaced() async throws {
        let a = adapter("answer-then-close-output", timeout: .seconds(60), window: 1)
        _ = try await a.start()
        #expect(await a.run(request("bad")) == .output(["echo": "bad"]))
        let deadline = ContinuousClock.now + .seconds(30)
        while !a.notes.contains(where: { $0.contains("closed its standard output and kept running (between cases)") }),
              ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let answer = await a.run(request("c1"))
        #expect(answer == .output(["echo": "c1"]), "\(answer)")
        let notes = a.notes
        #expect(notes.contains { $0.contains("(between cases)") } && notes.contains { $0.contains("restarted") }, "\(notes)")
        await a.stop()
    }

    /// An adapter that closes its input and lives on is left to the timeout (the requests it
    /// read may still be answered), but the messages say why the rest were never read.
    @Test func aTimeoutAfterTheAdapterClosedItsInputSaysSo() async throws {
        let a = adapter("close-input", timeout: .seconds(1))
        _ = try await a.start()
        let answers = await runAll(a, Self.ids)
        expectOnlyTheCulpritBlamed(answers) {
            if case .timedOut(let m) = $0 { return m.contains("within 1 s (the adapter had closed its standard input)") }
            return false
        }
        let notes = a.notes
        #expect(notes.contains { $0.contains("(the adapter had closed its standard input)") }, "\(notes)")
        await a.stop()
    }

    /// Requests reach the adapter in the order they were registered, which is the order their
    /// deadlines run from: when one request expires alone, the adapter (reading in order) is
    /// stuck on it, not on one written before it. Registered and written in two steps, two
    /// threads could write them the other way round, and a case waiting behind the one that
    /// hangs could expire first and be blamed.
    @Test func requestsAreWrittenInTheOrderTheyWereRegistered() async throws {
        let a = adapter("order", window: 32)
        _ = try await a.start()
        let behind = await withTaskGroup(of: Int.self) { group in
            for i in 0..<3_000 {
                group.addTask {
                    let answer = await a.run(self.request("c\(i)"))
                    guard case .output(let output) = answer else { return -1 }
                    return output["behind"]?.intValue ?? -1
                }
            }
            // -1 (an answer that is not an output) sticks: a later count must not hide it.
            var worst = 0
            for await b in group { worst = worst < 0 || b < 0 ? -1 : max(worst, b) }
            return worst
        }
        #expect(behind == 0, "requests written out of the order they were registered in: \(behind)")
        await a.stop()
    }

    @Test func hangingCaseTimesOutAndOthersAreRetried() async throws {
        let a = adapter("hang", timeout: .milliseconds(500))
        _ = try await a.start()
        let answers = await runAll(a, Self.ids)
        // The message names the bound that fired: the configured 0.5 s, not the 30 s default.
        // (Wall time cannot show it: a full test run on two cores once took 10.7 s here.)
        expectOnlyTheCulpritBlamed(answers) { if case .timedOut(let m) = $0 { return m.contains("within 0.5 s") }; return false }
        await a.stop()
    }

    /// Stopping an adapter that holds requests answers them at once, not run, on both paths (a
    /// task waiting, and a completion): a stopped fuzzing run does not wait for their timeouts.
    /// A request after the stop is not run either.
    @Test func stoppingAnAdapterAnswersWhatItHoldsAtOnce() async throws {
        let a = adapter("hang-all", timeout: .seconds(60))
        _ = try await a.start()
        let held = Task { await runAll(a, ["c1", "c2", "c3"]) }
        let completed = Task {
            await withCheckedContinuation { (c: CheckedContinuation<Answer, Never>) in a.run(request("c4")) { c.resume(returning: $0) } }
        }
        try await Task.sleep(for: .milliseconds(500))
        await a.stop()
        let stopped = Answer.notRun(reason: "the run was stopped")
        let answers = await held.value
        #expect(answers.count == 3 && answers.values.allSatisfy { $0 == stopped }, "\(answers)")
        #expect(await completed.value == stopped)
        // Not run, rather than timed out after the 60 s timeout: they did not wait for it (no
        // bound on the wall time here, which a loaded machine's late wake-ups would break).
        #expect(await a.run(request("c5")) == stopped)
    }

    /// A restart that a stop cuts short (its handshake fails with "the run was stopped") does
    /// not give the adapter up: the reports said `gave-up` for an adapter that had crashed once.
    @Test func aRestartCutShortByAStopIsNotAGiveUp() {
        let supervision = ProcessSupervision(maxRestarts: 10)
        supervision.beginFirstLaunch()
        _ = supervision.endLaunch(.success(ImplementationInfo(name: "a", version: "1", language: "", homepage: "")), first: true)
        _ = supervision.stop()
        _ = supervision.endLaunch(.failure(ImplementationError(ProcessSupervision.stoppedReason)), first: false)
        #expect(supervision.gaveUp == nil)
        guard case .fail(let why) = supervision.nextStep() else { Issue.record("a stopped adapter takes no request"); return }
        #expect(why == ProcessSupervision.stoppedReason)
        // A launch that fails on its own, while not stopped, still gives the adapter up.
        let other = ProcessSupervision(maxRestarts: 10)
        _ = other.endLaunch(.failure(ImplementationError("exit status 3")), first: false)
        #expect(other.gaveUp == "restart failed: exit status 3")
    }

    /// A request its caller has withdrawn (`Request.withdrawn`, a fuzzer that set its operation
    /// aside) is not sent again alone after a timeout it shared: it ends not run at once. The
    /// one still wanted is sent again alone and blamed.
    @Test func aWithdrawnRequestIsNotSentAgainAlone() async throws {
        let a = adapter("hang-all", timeout: .milliseconds(500))
        _ = try await a.start()
        let answers = await withTaskGroup(of: (String, Answer).self) { group in
            for id in Self.ids {
                var r = request(id)
                if id != "bad" { r.withdrawn = { true } }
                group.addTask { (id, await a.run(r)) }
            }
            var answers: [String: Answer] = [:]
            for await (id, answer) in group { answers[id] = answer }
            return answers
        }
        let withdrawn = Answer.notRun(reason: Request.withdrawnReason)
        func timedOut(_ answer: Answer?) -> Bool { if case .timedOut? = answer { true } else { false } }
        #expect(timedOut(answers["bad"]), "bad: \(String(describing: answers["bad"]))")
        // Every request expired waiting behind the first; when only one had expired at a check,
        // that one was blamed without a second try, so it may be a withdrawn one.
        let others = Self.ids.filter { $0 != "bad" }
        #expect(others.allSatisfy { answers[$0] == withdrawn || timedOut(answers[$0]) }, "\(answers)")
        #expect(others.filter { answers[$0] == withdrawn }.count >= others.count - 1, "\(answers)")
        await a.stop()
    }

    @Test(arguments: [
        ("not-json", "not JSON"),
        ("not-object", "not an object"),
        ("too-long", "over the 1048576-byte limit"),
        ("wrong-seq", "never asked"),
    ])
    func garbledLinesArePinnedOnTheRightCase(mode: String, words: String) async throws {
        _ = try await expectProtocolErrorOnTheCulprit(mode: mode, words: words)
    }

    @Test(arguments: [
        ("none", "none of output, skipped, errored"),
        ("two", "output and skipped"),
        ("bad-skipped", "'skipped' must be a string"),
    ])
    func malformedAnswersAreProtocolErrorsWithoutARestart(mode: String, words: String) async throws {
        let notes = try await expectProtocolErrorOnTheCulprit(mode: mode, words: words)
        #expect(!notes.contains { $0.contains("restarted") })
    }

    /// Runs the zoo's cases against `mode` and expects a protocol error naming `words` on the
    /// culprit case only; returns the adapter's notes.
    private func expectProtocolErrorOnTheCulprit(mode: String, words: String) async throws -> [String] {
        let a = adapter(mode)
        _ = try await a.start()
        let answers = await runAll(a, Self.ids)
        expectOnlyTheCulpritBlamed(answers) {
            if case .protocolError(let m) = $0 { return m.contains(words) }
            return false
        }
        let notes = a.notes
        await a.stop()
        return notes
    }

    @Test func duplicateAnswerBecomesAnAmendment() async throws {
        let a = adapter("duplicate", window: 1)
        _ = try await a.start()
        for id in Self.ids { _ = await a.run(request(id)) }
        let amendments = a.takeAmendments()
        #expect(amendments.map(\.caseID) == ["bad"])
        if case .protocolError(let m) = amendments.first?.answer { #expect(m.contains("answered twice")) } else { Issue.record("no protocol error") }
        await a.stop()
    }

    @Test func stderrFloodKeepsOnlyABoundedTail() async throws {
        let a = adapter("flood-stderr")
        _ = try await a.start()
        let answer = await a.run(request("bad"))
        guard case .crashed(let message) = answer else {
            Issue.record("expected a crash, got \(answer)")
            return
        }
        #expect(message.contains("the last words before the flood ended") || message.contains("fatal: cannot handle bad"))
        #expect(message.utf8.count < 2_000)
        await a.stop()
    }

    @Test func adapterThatExitsDuringStartIsReported() async {
        let a = adapter("exit-during-start")
        do {
            _ = try await a.start()
            Issue.record("start should fail")
        } catch {
            #expect(error.message.contains("exited during start"))
            #expect(error.message.contains("cannot load my configuration"))
        }
        #expect(await a.run(request("c1")) == .notRun(reason: "the adapter did not start: " + (a.givenUp ?? "").replacingOccurrences(of: "the adapter did not start: ", with: "")))
    }

    @Test func anAdapterThatClosesItsOutputDuringStartDoesNotStart() async {
        // With a start timeout of 60 s, the kind of failure shows it was seen when it happened.
        let a = adapter("close-output-start", startTimeout: .seconds(60))
        do {
            _ = try await a.start()
            Issue.record("start should fail")
        } catch {
            #expect(error.message.contains("closed its standard output and kept running before answering start"), "\(error.message)")
            #expect(error.message.contains("closing my output"), "\(error.message)")
        }
    }

    @Test func adapterThatNeverAnswersStartTimesOut() async {
        let a = adapter("hang-start", startTimeout: .milliseconds(500))
        do {
            _ = try await a.start()
            Issue.record("start should fail")
        } catch {
            // The configured bound fired (the message names it), not a default.
            #expect(error.message.contains("no answer to start within 0.5 s"), "\(error.message)")
        }
    }

    @Test func versionRefusalIsAClearMessage() async {
        let a = adapter("refuse-version")
        do {
            _ = try await a.start()
            Issue.record("start should fail")
        } catch {
            #expect(error.message.contains("refused protocol version 1: I only speak version 2"))
        }
    }

    @Test func repeatedCrashesGiveUpAndTheRestIsNotRun() async throws {
        let a = adapter("crash", window: 1, maxRestarts: 2)
        _ = try await a.start()
        var outcomes: [String] = []
        for id in ["bad1", "bad2", "bad3", "c1", "c2"] {
            switch await a.run(request(id)) {
            case .crashed: outcomes.append("crashed")
            case .notRun: outcomes.append("notRun")
            case .output: outcomes.append("output")
            default: outcomes.append("other")
            }
        }
        #expect(outcomes == ["crashed", "crashed", "crashed", "notRun", "notRun"])
        #expect(a.givenUp?.contains("given up after 2 restarts") == true)
    }

    @Test func missingProgramIsAStartFailureNamingIt() async {
        let a = AdapterImplementation(AdapterConfiguration(arguments: ["/nonexistent/adapter-binary"], startTimeout: .seconds(5)))
        do {
            _ = try await a.start()
            Issue.record("start should fail")
        } catch {
            #expect(error.message.contains("/nonexistent/adapter-binary"))
        }
    }

    @Test func commandLinesSplitLikeAShellWithoutOne() throws {
        #expect(try CommandLineWords.split(#"python3 'my adapter.py' --name "a \"b\"" x\ y"#) == ["python3", "my adapter.py", "--name", #"a "b""#, "x y"])
        #expect(try CommandLineWords.split("  a   b  ") == ["a", "b"])
        #expect(throws: CommandLineWords.Unbalanced.self) { try CommandLineWords.split("a 'b") }
    }
}

/// An adapter starts as it would from a shell: nothing blocked, nothing ignored, whatever the
/// harness's own threads block and whatever it ignores while it stops gracefully.
@Suite(.serialized)
struct AdapterSignalTests {
    func masks() async throws -> (blocked: UInt64, ignored: UInt64) {
        let adapter = AdapterImplementation(AdapterConfiguration(arguments: ["python3", AdapterZooTests.zoo, "signals"], timeout: .seconds(60)))
        _ = try await adapter.start()
        let answer = await adapter.run(Request(caseID: "probe", operation: "ulc.parse", input: ["link": "x"]))
        await adapter.stop()
        guard case .output(let output) = answer,
              let blocked = output["blocked"]?.stringValue.flatMap({ UInt64($0, radix: 16) }),
              let ignored = output["ignored"]?.stringValue.flatMap({ UInt64($0, radix: 16) }) else {
            throw ImplementationError("no masks in \(answer)")
        }
        return (blocked, ignored)
    }

    @Test func adaptersInheritNoDescriptorButTheirThree() async throws {
        // A descriptor opened here without close-on-exec, as a parent process's socket or a
        // database file would be: the adapter must not get it.
        let leaked = open("/dev/null", O_RDONLY)
        try #require(leaked >= 3)
        defer { close(leaked) }
        let adapter = AdapterImplementation(AdapterConfiguration(arguments: ["python3", AdapterZooTests.zoo, "fds"], timeout: .seconds(60)))
        _ = try await adapter.start()
        let answer = await adapter.run(Request(caseID: "probe", operation: "ulc.parse", input: ["link": "x"]))
        await adapter.stop()
        guard case .output(let output) = answer, let fds = output["fds"]?.arrayValue?.compactMap(\.intValue) else {
            Issue.record("no descriptor list in \(answer)")
            return
        }
        #expect(Array(fds.prefix(3)) == [0, 1, 2], "\(fds)")
        #expect(!fds.contains(Int(leaked)), "the adapter holds the harness's descriptor \(leaked): \(fds)")
        #expect(fds.count <= 4, "only 0, 1, 2 and the one that lists them: \(fds)")
    }

    @Test func adaptersStartWithNoSignalBlockedOrIgnored() async throws {
        // Ignore SIGUSR2 and block SIGUSR1 and SIGALRM here, as `linkconform run` ignores INT and
        // TERM and Dispatch's threads block most signals: none of it may reach the adapter.
        // (USR2 is ignored for the whole test process; no test uses it.)
        let previous = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previous) }
        var blockedHere = sigset_t()
        sigemptyset(&blockedHere)
        sigaddset(&blockedHere, SIGUSR1)
        sigaddset(&blockedHere, SIGALRM)
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blockedHere, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }

        let (blocked, ignored) = try await masks()
        #expect(blocked == 0, "blocked in the adapter: \(String(blocked, radix: 16))")
        #expect(ignored & (1 << (UInt64(SIGUSR2) - 1)) == 0, "SIGUSR2 ignored in the adapter: \(String(ignored, radix: 16))")
        #expect(ignored & (1 << (UInt64(SIGTERM) - 1)) == 0 && ignored & (1 << (UInt64(SIGINT) - 1)) == 0)
    }
}

/// Where blame cannot be pinned on one case, the evidence is kept; a death is seen when it
/// happens, not when the output pipe closes; a line without end is refused as soon as it passes
/// the limit.
@Suite(.serialized)
struct AdapterEvidenceTests {
    func adapter(_ arguments: [String], timeout: Duration, window: Int = 8) -> AdapterImplementation {
        AdapterImplementation(AdapterConfiguration(arguments: ["python3", AdapterZooTests.zoo] + arguments, timeout: timeout,
                                                   startTimeout: .seconds(10), window: window, maxRestarts: 5, maxLineBytes: 1 << 20))
    }

    func request(_ id: String) -> Request {
        Request(caseID: id, operation: "ulc.parse", input: ["link": "https://a.example/"])
    }

    @Test func aCrashNoCaseRepeatsAloneKeepsItsStderrInTheNotes() async throws {
        let marker = NSTemporaryDirectory() + "zoo-crash-once-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let ids = ["c1", "c2", "c3", "c4", "c5", "c6"]
        // The first process dies once all six are outstanding, however long they take to come
        // (a generous timeout: no deadline may end one first).
        let a = adapter(["crash-once", marker, "\(ids.count)"], timeout: .seconds(120))
        _ = try await a.start()
        let answers = await withTaskGroup(of: (String, Answer).self) { group in
            for id in ids { group.addTask { (id, await a.run(self.request(id))) } }
            var answers: [String: Answer] = [:]
            for await (id, answer) in group { answers[id] = answer }
            return answers
        }
        // Every case passes when run again alone: no case is to blame.
        for id in ids { #expect(answers[id] == .output(["echo": .string(id)]), "\(id): \(String(describing: answers[id]))") }
        let notes = a.notes
        #expect(notes.contains { $0.contains("the adapter died (exit status 9)") && $0.contains("worker 3 ran out of memory") }, "\(notes)")
        await a.stop()
    }

    @Test func aDeathIsSeenWhileAChildStillHoldsTheOutput() async throws {
        // A death seen only when the child closes the output (after 300 s) would be a timeout
        // at 60 s: the answer's kind shows the death was seen when it happened. (A bound on
        // wall time here failed on a loaded machine, where resuming this task can take seconds.)
        let a = adapter(["orphan"], timeout: .seconds(60), window: 1)
        _ = try await a.start()
        let answer = await a.run(request("bad"))
        guard case .crashed(let message) = answer else {
            Issue.record("expected a crash, got \(answer)")
            await a.stop()
            return
        }
        #expect(message.contains("exit status 7"), "\(message)")
        // The child it left behind went with it (its process group was ended).
        if let pidText = message.split(separator: "leaving child ").last?.prefix(while: \.isNumber), let pid = Int32(pidText) {
            try await Task.sleep(for: .milliseconds(300))
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
            #expect(state == nil || state == "Z", "the child \(pid) is still running: \(String(describing: state))")
        } else {
            Issue.record("the stderr tail with the child's pid is missing: \(message)")
        }
        #expect(await a.run(request("c1")) == .output(["echo": "c1"]), "the adapter was restarted")
        await a.stop()
    }

    @Test func aLineWithoutEndIsAProtocolErrorOnceItPassesTheLimit() async throws {
        // Refused when the limit is passed: waiting for a newline instead would end in a
        // timeout at 60 s, so the answer's kind shows when it was refused.
        let a = adapter(["endless-line"], timeout: .seconds(60), window: 1)
        _ = try await a.start()
        let answer = await a.run(request("bad"))
        guard case .protocolError(let message) = answer else {
            Issue.record("expected a protocol error, got \(answer)")
            await a.stop()
            return
        }
        #expect(message.contains("over the 1048576-byte limit"), "\(message)")
        await a.stop()
    }
}

extension AdapterZooTests {
    /// A restarted process gets no case before it has answered start: a case written during the
    /// handshake could kill it there, and that death would read as a failed restart (the
    /// adapter given up, every later case not run) instead of a crash pinned on the case.
    @Test func casesWaitForTheHandshakeOfARestartedProcess() async throws {
        let a = adapter("peek-start", timeout: .seconds(20), window: 8, maxRestarts: 10)
        _ = try await a.start()
        guard case .crashed = await a.run(request("bad-1")) else {
            Issue.record("the first bad case should crash the adapter")
            await a.stop()
            return
        }
        // The restart is launched by a good case; while it shakes hands (300 ms), a bad one and
        // more good ones arrive.
        let launcher = Task { await a.run(self.request("ok-0")) }
        try await Task.sleep(for: .milliseconds(100))
        let answers = await runAll(a, ["bad-2", "ok-1", "ok-2", "ok-3"])
        #expect(await launcher.value == .output(["echo": "ok-0"]))
        if case .crashed = answers["bad-2"] {} else { Issue.record("bad-2: \(String(describing: answers["bad-2"]))") }
        for id in ["ok-1", "ok-2", "ok-3"] {
            #expect(answers[id] == .output(["echo": .string(id)]), "\(id): \(String(describing: answers[id])); notes: \(a.notes)")
        }
        #expect(!a.notes.contains { $0.contains("during start") }, "\(a.notes)")
        await a.stop()
    }
}

/// A value shared between threads, behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
