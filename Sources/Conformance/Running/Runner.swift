import Foundation
import LinkJSON

/// Runs a corpus against an implementation, judging each answer and handing the results to a
/// sink as soon as they are judged: from an adapter, whatever was judged since the sink was last
/// called (one result when the adapter is slow), a chunk at a time in process.
/// The runner keeps none back, so when to write is the sink's choice alone (`ResultWriter`
/// commits every 1,000 results or 250 ms, on its own clock): a run killed, or an adapter that
/// goes silent, leaves nothing judged waiting here. What is stored of an answer is bounded
/// (``ResultLimits``).
///
/// ```swift
/// let runner = Runner(corpus: corpus)
/// try await runner.run(SwiftImplementation.reference) { results in try store.insert(results) }
/// ```
public struct Runner: Sendable {
    public let corpus: Corpus
    /// Results handed to the sink at a time by ``recordNotRun(reason:expectedFailures:sink:)``,
    /// which has them all at once.
    public var batchSize = 500
    /// Once `shouldStop` says so, how long the requests already sent to an adapter may still
    /// take to answer; the run then ends without them (they have no result, like the cases never
    /// sent), rather than waiting for a silent adapter up to its timeout.
    public var inFlightGrace: Duration = .seconds(1)
    /// In process, how long one case may run before it is recorded `timedOut` and left behind
    /// (its task keeps its thread until it returns); nil: no limit and no watchdog.
    /// See ``InProcessRun``.
    public var inProcessTimeout: Duration? = .seconds(60)
    /// How long the watchdog's probe may wait on the pool, while no case completes, before the
    /// pool is taken to be held; nil: ``inProcessTimeout``. (Tests that share the pool with
    /// other tests set it.)
    var starvedAfter: Duration?
    /// Called from the in-process watchdog's thread when cases left behind hold every thread of
    /// Swift's shared pool, so that nothing else, this runner included, can run: with the
    /// results judged and not yet handed to the sink, and a message that names the cases. The
    /// runner hands nothing more to the sink; if it ever runs again, it returns without running
    /// another case. A caller that can no longer run either (its code needs the pool too) ends
    /// the run here: store the results, write what it can, and exit. Nil: the runner waits for a
    /// thread to come back, as long as it takes (cases left behind are still `timedOut`).
    public var onStarved: (@Sendable (_ results: [CaseResult], _ message: String) -> Void)?

    public init(corpus: Corpus) {
        self.corpus = corpus
    }

    /// Runs every case of every suite against a started implementation. In process, chunks of
    /// cases run on every core (``Implementation/parallelism``); an adapter gets `window` requests
    /// outstanding at once (answers may come in any order). Each result, or each chunk's, goes to
    /// the sink as soon as it is judged. `progress` receives (cases done, cases in all);
    /// `shouldStop` is polled between cases (a signal handler sets it), and every case already
    /// answered is still handed to the sink; an adapter's requests still outstanding, and cases
    /// still running in process, then get ``inFlightGrace`` to answer. In process, a case running
    /// past ``inProcessTimeout`` is recorded `timedOut` and the run goes on without it. The sink
    /// may throw to abort. Returns the number of cases handed to the sink.
    @discardableResult
    public func run<I: Implementation>(_ implementation: I,
                    expectedFailures: ExpectedFailures? = nil,
                    progress: @Sendable (Int, Int) -> Void = { _, _ in },
                    shouldStop: @escaping @Sendable () -> Bool = { false },
                    sink: ([CaseResult]) throws -> Void) async throws -> Int {
        let work: [(SuiteCorpus, ConformanceCase)] = corpus.suites.flatMap { suite in suite.cases.map { (suite, $0) } }
        let total = work.count
        var done = 0
        progress(0, total)
        func record(_ results: [CaseResult]) throws {
            try sink(results)
            done += results.count
            progress(done, total)
        }
        if implementation.parallelism > 1 {
            try await runInProcess(implementation, work: work, expectedFailures: expectedFailures,
                                   shouldStop: shouldStop, record: record)
        } else {
            // An adapter: `window` requests outstanding, answers in any order (one after another
            // at window 1). Each answer's completion sends the next case (see PipelinedCases);
            // this task judges.
            let cases = PipelinedCases(implementation, work: work, shouldStop: shouldStop)
            cases.start()
            let watcher = Task { await Self.abandonWhenStopped(cases, shouldStop: shouldStop, grace: inFlightGrace) }
            defer { watcher.cancel() }
            func judged(_ batch: [PipelinedCases.Answered]) -> [CaseResult] {
                batch.map { a in
                    let (suite, c) = work[a.index]
                    return judge(c, in: suite, answer: a.answer, nanos: a.nanos, expectedFailures: expectedFailures)
                }
            }
            do {
                while var batch = await cases.take() {
                    try record(judged(batch))
                    cases.recycle(&batch)
                }
            } catch {
                // The requests sent still finish before this returns (the implementation may be
                // stopped as soon as it does), unless a stop abandons them.
                cases.stop()
                while await cases.take() != nil {}
                throw error
            }
        }
        // Verdicts that came late (a case answered twice) replace the first ones.
        let amendments = implementation.takeAmendments()
        if !amendments.isEmpty {
            let byID = Dictionary(work.map { ($0.1.id, $0) }, uniquingKeysWith: { a, _ in a })
            let amended = amendments.compactMap { amendment in
                byID[amendment.caseID].map { suite, c in
                    judge(c, in: suite, answer: amendment.answer, nanos: 0, expectedFailures: expectedFailures)
                }
            }
            if !amended.isEmpty { try sink(amended) }
        }
        return done
    }

    /// In process: chunks of cases on every core, each running its cases one by one, handed to
    /// the sink chunk by chunk; a case past ``inProcessTimeout`` is left behind (``InProcessRun``).
    private func runInProcess<I: Implementation>(_ implementation: I, work: [(SuiteCorpus, ConformanceCase)],
                                                 expectedFailures: ExpectedFailures?,
                                                 shouldStop: @escaping @Sendable () -> Bool,
                                                 record: ([CaseResult]) throws -> Void) async throws {
        let total = work.count
        // Chunks small enough that every core gets several, large enough to amortise a task.
        let size = max(1, min(256, total / (implementation.parallelism * 8)))
        var ranges = stride(from: 0, to: total, by: size).map { $0..<min($0 + size, total) }
        ranges.reverse()  // taken from the end; the rest of a chunk whose case was left behind goes there
        // Without a limit there is no watchdog, and the run never reads these durations.
        let limit = inProcessTimeout ?? .seconds(Int64.max / 1_000_000_000)
        let run = InProcessRun(
            limit: limit, starvedAfter: starvedAfter ?? limit, grace: inFlightGrace, shouldStop: shouldStop,
            timedOut: { index, why in
                let (suite, c) = work[index]
                return judge(c, in: suite, answer: .timedOut(message: why), nanos: limit.nanoseconds, expectedFailures: expectedFailures)
            },
            caseID: { work[$0].1.id }, onStarved: onStarved)
        if inProcessTimeout != nil { run.startWatchdog() }
        defer { run.stopWatchdog() }
        var inFlight = 0
        func submit(_ range: Range<Int>) {
            inFlight += 1
            let chunk = run.register(range)
            Task {
                var index = range.lowerBound
                var started = ContinuousClock.now
                guard !shouldStop(), chunk.begin(index, at: started) else { return run.finished(chunk) }
                while true {
                    let (suite, c) = work[index]
                    let (answer, nanos) = await Self.ask(implementation, c, started: started)
                    let result = judge(c, in: suite, answer: answer, nanos: nanos, expectedFailures: expectedFailures)
                    let next = index + 1 < range.upperBound && !shouldStop() ? index + 1 : nil
                    started = ContinuousClock.now
                    switch chunk.complete(result, next: next, at: started) {
                    case .run: index += 1
                    case .stop: return run.finished(chunk)
                    case .leftBehind:
                        // The watchdog recorded it already.
                        return run.returned(index)
                    }
                }
            }
        }
        func fill() {
            while inFlight < implementation.parallelism * 2, !shouldStop(), let range = ranges.popLast() { submit(range) }
        }
        fill()
        do {
            while inFlight > 0, let event = await run.next() {
                inFlight -= 1
                let open = try run.handOn {
                    switch event {
                    case .done(let results):
                        try record(results)
                    case .leftBehind(let results, let remaining):
                        try record(results)
                        if !remaining.isEmpty { ranges.append(remaining) }
                    }
                }
                // Closed: the watchdog found the pool held and gave the results to onStarved.
                guard open else { break }
                fill()
            }
        } catch {
            // Every chunk still ends (between cases, or left behind after the grace) before
            // this returns, so no task of this run outlives it but those left behind.
            run.abort()
            while inFlight > 0, await run.next() != nil { inFlight -= 1 }
            throw error
        }
    }

    /// Records every case as not run (an implementation that could not start), so the run shows
    /// what it missed.
    public func recordNotRun(reason: String, expectedFailures: ExpectedFailures? = nil,
                             sink: ([CaseResult]) throws -> Void) throws {
        var batch: [CaseResult] = []
        for suite in corpus.suites {
            for c in suite.cases {
                batch.append(judge(c, in: suite, answer: .notRun(reason: reason), nanos: 0, expectedFailures: expectedFailures))
                if batch.count >= batchSize {
                    try sink(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { try sink(batch) }
    }

    /// Polls `shouldStop` while an adapter's cases run; once it is set, gives the requests
    /// outstanding `grace` to answer and then abandons them. Ends when cancelled.
    static func abandonWhenStopped(_ cases: PipelinedCases, shouldStop: @Sendable () -> Bool, grace: Duration) async {
        while !Task.isCancelled {
            if shouldStop() {
                cases.stop()
                try? await Task.sleep(for: grace)
                cases.abandon()
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    static func ask(_ implementation: some Implementation, _ c: ConformanceCase,
                    started: ContinuousClock.Instant = .now) async -> (Answer, Int64) {
        if let skipped = unsupported(implementation, c) { return (skipped, 0) }
        let answer = await implementation.run(Request(caseID: c.id, operation: c.operation, input: c.input, encodedInput: c.encodedInput))
        return (answer, started.duration(to: ContinuousClock.now).nanoseconds)
    }

    /// The answer to a case whose operation the implementation does not implement; nil when it does.
    static func unsupported(_ implementation: some Implementation, _ c: ConformanceCase) -> Answer? {
        implementation.supports(c.operation) ? nil : .skipped(reason: "\(implementation.displayName) does not implement \(c.operation)")
    }

    /// Grades one answer, on the whole of it; the message is cut to what ``ResultLimits`` allows
    /// (the store cuts the output).
    public func judge(_ c: ConformanceCase, in suite: SuiteCorpus, answer: Answer, nanos: Int64,
                      expectedFailures: ExpectedFailures? = nil) -> CaseResult {
        let level = c.level
        var mismatches: [Mismatch] = []
        var actual: JSONValue? = nil
        var message: String? = nil
        switch answer {
        case .output(let output):
            actual = output
            mismatches = c.prepared.compare(c.expect, output)
            if !mismatches.isEmpty { message = mismatches.map(\.description).joined(separator: "; ") }
        case .skipped(let reason): message = reason
        case .errored(let why, let detail): message = why + (detail.map { " (detail: \($0.serialized()))" } ?? "")
        case .crashed(let why), .timedOut(let why), .protocolError(let why): message = why
        case .notRun(let why): message = "not run: " + why
        }
        var outcome = Outcome.grade(answer, level: level, mismatches: mismatches)
        if outcome == .informational, !mismatches.isEmpty { message = "differs from the reference expectation: " + (message ?? "") }
        if let expectedFailures {
            (outcome, message) = expectedFailures.apply(to: outcome, caseID: c.id, message: message)
        }
        message = message.map(ResultLimits.kept(message:))
        let nullWouldPass = level.isJudged && c.nullPasses
        return CaseResult(suite: suite.name, caseID: c.id, operation: c.operation, requirement: c.requirement,
                          level: level, outcome: outcome, nullWouldPass: nullWouldPass, actual: actual,
                          expected: c.expect, encodedExpected: c.encodedExpect, message: message, durationNanos: nanos)
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    public var nanoseconds: Int64 {
        let (s, atto) = components
        return s.multipliedReportingOverflow(by: 1_000_000_000).overflow ? .max : s * 1_000_000_000 + atto / 1_000_000_000
    }
}
