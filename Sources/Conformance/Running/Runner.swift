import Foundation
import LinkJSON

/// Runs a corpus against an implementation, judging each answer and handing results to a sink
/// in batches (the results store writes one transaction per batch).
///
/// ```swift
/// let runner = Runner(corpus: corpus)
/// try await runner.run(SwiftImplementation.reference) { batch in try store.insert(batch) }
/// ```
public struct Runner: Sendable {
    public let corpus: Corpus
    /// Results handed to the sink at a time.
    public var batchSize = 500

    public init(corpus: Corpus) {
        self.corpus = corpus
    }

    /// Runs every case of every suite. `progress` receives (cases done, cases in all);
    /// `shouldStop` is polled between cases (a signal handler sets it); the sink may throw to
    /// abort. Returns the number of cases run.
    @discardableResult
    public func run(_ implementation: some Implementation,
                    progress: @Sendable (Int, Int) -> Void = { _, _ in },
                    shouldStop: @Sendable () -> Bool = { false },
                    sink: ([CaseResult]) throws -> Void) async throws -> Int {
        let total = corpus.caseCount
        var done = 0
        var batch: [CaseResult] = []
        batch.reserveCapacity(batchSize)
        let clock = ContinuousClock()
        for suite in corpus.suites {
            for c in suite.cases {
                if shouldStop() { break }
                let started = clock.now
                let answer: Answer = implementation.supports(c.operation)
                    ? await implementation.run(Request(caseID: c.id, operation: c.operation, input: c.input))
                    : .skipped(reason: "\(implementation.info.name) does not implement \(c.operation)")
                let elapsed = started.duration(to: clock.now)
                batch.append(judge(c, in: suite, answer: answer, nanos: elapsed.nanoseconds))
                done += 1
                if batch.count >= batchSize {
                    try sink(batch)
                    batch.removeAll(keepingCapacity: true)
                }
                progress(done, total)
            }
        }
        if !batch.isEmpty { try sink(batch) }
        return done
    }

    /// Grades one answer.
    public func judge(_ c: ConformanceCase, in suite: SuiteCorpus, answer: Answer, nanos: Int64) -> CaseResult {
        let level = suite.registry[c.requirement]?.level ?? .info
        let operation = suite.definition.operation(named: c.operation)
        var mismatches: [Mismatch] = []
        var actual: JSONValue? = nil
        var message: String? = nil
        switch answer {
        case .output(let output):
            actual = output
            mismatches = operation?.compare(c.expect, output, c.input) ?? []
            if !mismatches.isEmpty { message = mismatches.map(\.description).joined(separator: "; ") }
        case .skipped(let reason): message = reason
        case .errored(let why): message = why
        }
        let outcome = Outcome.grade(answer, level: level, mismatches: mismatches)
        if outcome == .informational, !mismatches.isEmpty { message = "differs from the reference expectation: " + (message ?? "") }
        var nullWouldPass = false
        if level.isJudged, let operation {
            nullWouldPass = operation.compare(c.expect, operation.nullOutput(c.input), c.input).isEmpty
        }
        return CaseResult(suite: suite.name, caseID: c.id, operation: c.operation, requirement: c.requirement,
                          level: level, outcome: outcome, nullWouldPass: nullWouldPass, actual: actual,
                          expected: c.expect, message: message, durationNanos: nanos)
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    public var nanoseconds: Int64 {
        let (s, atto) = components
        return s.multipliedReportingOverflow(by: 1_000_000_000).overflow ? .max : s * 1_000_000_000 + atto / 1_000_000_000
    }
}
