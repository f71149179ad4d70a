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

    public init(corpus: Corpus) {
        self.corpus = corpus
    }

    /// Runs every case of every suite against a started implementation. In process, chunks of
    /// cases run on every core (``Implementation/parallelism``); an adapter gets `window` requests
    /// outstanding at once (answers may come in any order). Each result, or each chunk's, goes to
    /// the sink as soon as it is judged. `progress` receives (cases done, cases in all);
    /// `shouldStop` is polled between cases (a signal handler sets it), and every case already
    /// answered is still handed to the sink; an adapter's requests still outstanding then get
    /// ``inFlightGrace`` to answer. The sink may throw to abort. Returns the number of cases run.
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
        func caseResult(_ index: Int) async -> CaseResult {
            let (suite, c) = work[index]
            let (answer, nanos) = await Self.ask(implementation, c)
            return judge(c, in: suite, answer: answer, nanos: nanos, expectedFailures: expectedFailures)
        }
        if implementation.parallelism > 1 {
            // In process: chunks of cases on every core; a chunk runs its cases one by one.
            // Chunks small enough that every core gets several, large enough to amortise a task.
            let chunk = max(1, min(256, total / (implementation.parallelism * 8)))
            let chunks = stride(from: 0, to: total, by: chunk).map { $0..<min($0 + chunk, total) }
            try await withThrowingTaskGroup(of: [CaseResult].self) { group in
                var next = 0
                func submit() {
                    let range = chunks[next]
                    next += 1
                    group.addTask {
                        var out: [CaseResult] = []
                        out.reserveCapacity(range.count)
                        for index in range {
                            if shouldStop() { break }
                            out.append(await caseResult(index))
                        }
                        return out
                    }
                }
                while next < chunks.count && next < implementation.parallelism * 2 && !shouldStop() { submit() }
                while let results = try await group.next() {
                    try record(results)
                    if next < chunks.count && !shouldStop() { submit() }
                }
            }
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

    static func ask(_ implementation: some Implementation, _ c: ConformanceCase) async -> (Answer, Int64) {
        if let skipped = unsupported(implementation, c) { return (skipped, 0) }
        let started = ContinuousClock.now
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
