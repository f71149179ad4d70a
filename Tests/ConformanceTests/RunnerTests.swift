import Foundation
import LinkJSON
import Testing
@testable import Conformance

/// Grading, null-implementation counts, skipped and errored answers.
struct RunnerTests {
    static let corpus = Corpus.load(from: TemporaryCorpus.repositoryCorpus)

    /// An implementation that answers every operation with the null output.
    static let null = SwiftImplementation(
        info: ImplementationInfo(name: "null", version: "0", language: "none", homepage: ""),
        handlers: Dictionary(uniqueKeysWithValues: SuiteRegistry.all.flatMap(\.operations).map { op in
            (op.name, { @Sendable (input: JSONValue) async throws -> JSONValue in try op.nullOutput(input) })
        }))

    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }

    /// An implementation that fails every operation it has, and lacks ulc.handle.
    static let failing = SwiftImplementation(
        info: ImplementationInfo(name: "failing", version: "0", language: "none", homepage: ""),
        handlers: ["ulc.parse": { _ in throw Boom() }, "ulc.build": { _ in throw Boom() }])

    func results(_ implementation: some Implementation) async throws -> [CaseResult] {
        var all: [CaseResult] = []
        try await Runner(corpus: Self.corpus).run(implementation) { all += $0 }
        return all
    }

    @Test func referencePassesItsOwnSuite() async throws {
        try #require(Self.corpus.errors.isEmpty && Self.corpus.caseCount > 0, "an empty corpus would pass vacuously")
        let all = try await results(SwiftImplementation.reference)
        #expect(all.count == Self.corpus.caseCount)
        let bad = all.filter { $0.outcome != .pass && $0.outcome != .informational }
        #expect(bad.isEmpty, "\(bad.map { "\($0.caseID): \($0.message ?? "")" })")
        // INFO cases are recorded, not judged, but the reference should still agree with them.
        #expect(all.filter { $0.outcome == .informational && $0.message != nil }.isEmpty)
    }

    @Test func nullImplementationPassesExactlyTheCasesCountedAsNullPasses() async throws {
        let reference = try await results(SwiftImplementation.reference)
        let null = try await results(Self.null)
        let nullPasses = Set(null.filter { $0.outcome == .pass }.map(\.caseID))
        let counted = Set(reference.filter { $0.outcome == .pass && $0.nullWouldPass }.map(\.caseID))
        #expect(nullPasses == counted)
        #expect(!nullPasses.isEmpty && nullPasses.count < reference.count / 2)
        #expect(null.contains { $0.outcome == .fail })
    }

    @Test func errorsAndUnsupportedOperationsAreRecorded() async throws {
        let all = try await results(Self.failing)
        let failing: Set = ["ulc.parse", "ulc.build"]
        let skipped = all.filter { !failing.contains($0.operation) }
        let errored = all.filter { failing.contains($0.operation) }
        try #require(!skipped.isEmpty && !errored.isEmpty, "both kinds of case are in the corpus")
        #expect(skipped.allSatisfy { $0.outcome == .skipped })
        #expect(errored.allSatisfy { $0.outcome == .errored && $0.message == "boom" })
    }

    @Test func gradingFollowsTheRequirementLevel() {
        let mismatch = [Mismatch("kind", expected: "ulc", actual: "notULC")]
        #expect(Outcome.grade(.output(.null), level: .must, mismatches: mismatch) == .fail)
        #expect(Outcome.grade(.output(.null), level: .should, mismatches: mismatch) == .nonStrict)
        #expect(Outcome.grade(.output(.null), level: .info, mismatches: mismatch) == .informational)
        #expect(Outcome.grade(.output(.null), level: .may, mismatches: []) == .informational)
        #expect(Outcome.grade(.output(.null), level: .must, mismatches: []) == .pass)
        #expect(Outcome.grade(.skipped(reason: "x"), level: .must, mismatches: []) == .skipped)
        #expect(!Outcome.nonStrict.isFailure(strict: false))
        #expect(Outcome.nonStrict.isFailure(strict: true))
    }

    @Test func runnerStopsBetweenCasesWhenAskedAndKeepsWhatItHas() async throws {
        var all: [CaseResult] = []
        let counter = Counter()
        let done = try await Runner(corpus: Self.corpus).run(SwiftImplementation.reference, progress: { n, _ in counter.set(n) },
                                                              shouldStop: { counter.value >= 10 }) { all += $0 }
        // In process, cases run in chunks on every core: the run stops within a chunk of the
        // request and keeps every case it answered.
        #expect(done >= 10 && done < Self.corpus.caseCount)
        #expect(all.count == done)
    }

    /// An implementation that answers its first `quick` requests at once and holds every later
    /// one until it is released: an adapter gone silent part-way.
    final class FallsSilent: Implementation, @unchecked Sendable {
        let quick: Int
        let window: Int
        private let lock = NSLock()
        private var asked = 0
        private var released = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(quick: Int, window: Int) {
            self.quick = quick
            self.window = window
        }

        var displayName: String { "falls silent" }
        var notes: [String] { [] }
        func start() async throws(ImplementationError) -> ImplementationInfo {
            ImplementationInfo(name: displayName, version: "0", language: "none", homepage: "")
        }
        func supports(_ operation: String) -> Bool { true }
        func stop() async {}

        func run(_ request: Request) async -> Answer {
            let holds = lock.withLock {
                asked += 1
                return asked > quick && !released
            }
            if holds {
                await withCheckedContinuation { continuation in
                    let now = lock.withLock {
                        if released { return true }
                        waiting.append(continuation)
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
            return .output(.null)
        }

        func release() {
            let woken = lock.withLock {
                released = true
                defer { waiting = [] }
                return waiting
            }
            for continuation in woken { continuation.resume() }
        }
    }

    /// Waits for `counter` to reach `target` and returns its value; gives up only after both
    /// 2,000 polls and 60 s. A bound on the clock alone is not enough: in a full test run on two
    /// cores, long tests can hold both threads of the pool for over a minute (CI saw 0 of 5
    /// arrive in 60 s, then the run finish at once), and the clock runs out before the tasks under
    /// test had a turn. Every poll sleeps, so the tasks queued before its wake-up run first: 2,000
    /// polls are 2,000 turns for them, however long the pool was busy.
    static func poll(_ counter: Counter, until target: Int) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(60)
        var polls = 0
        while counter.value < target && (polls < 2_000 || ContinuousClock.now < deadline) {
            try await Task.sleep(for: .milliseconds(10))
            polls += 1
        }
        return counter.value
    }

    /// Results go to the sink as they are judged, not once a batch is full: while an
    /// implementation is silent, what it already answered has been handed on.
    @Test(arguments: [1, 8])
    func resultsReachTheSinkWhileTheImplementationIsSilent(window: Int) async throws {
        let silent = FallsSilent(quick: 5, window: window)
        let received = Counter()
        let run = Task {
            try await Runner(corpus: Self.corpus).run(silent) { received.set(received.value + $0.count) }
        }
        let handedOnWhileSilent = try await Self.poll(received, until: 5)
        silent.release()
        #expect(try await run.value == Self.corpus.caseCount)
        #expect(handedOnWhileSilent == 5, "the five answers given before the silence reach the sink during it")
        #expect(received.value == Self.corpus.caseCount)
    }

    /// A stop while an implementation is silent ends the run once the grace is over, without the
    /// cases it holds: a first Ctrl-C does not wait for them up to the adapter's timeout.
    @Test(arguments: [1, 8])
    func aStopAbandonsTheCasesASilentImplementationHolds(window: Int) async throws {
        let silent = FallsSilent(quick: 5, window: window)
        let received = Counter(), ended = Counter()
        var runner = Runner(corpus: Self.corpus)
        runner.inFlightGrace = .milliseconds(100)
        let run = Task { [runner] in
            defer { ended.set(1) }
            return try await runner.run(silent, shouldStop: { received.value >= 5 }) { received.set(received.value + $0.count) }
        }
        let endedWhileSilent = try await Self.poll(ended, until: 1)
        silent.release()   // a run that did not end ends now: the test fails rather than hangs
        let done = try await run.value
        #expect(endedWhileSilent == 1, "the run ended while the implementation still held its cases")
        #expect(done == 5 && received.value == 5)
    }

    @Test func longMessagesAndNotesAreCut() throws {
        let suite = try #require(Self.corpus.suites.first { $0.name == "ulc" })
        let c = try #require(suite.cases.first)
        let reason = String(repeating: "🏳️‍🌈 reason ", count: 2_000)
        let result = Runner(corpus: Self.corpus).judge(c, in: suite, answer: .skipped(reason: reason), nanos: 0)
        let message = try #require(result.message)
        #expect(message.utf8.count <= ResultLimits.messageBytes)
        let saysSo = message.hasSuffix(" [cut: \(reason.utf8.count) bytes in all]")
        let beginsAsTheReason = reason.unicodeScalars.starts(with: message.unicodeScalars.dropLast(40))
        #expect(saysSo && beginsAsTheReason)
        let notes = ResultLimits.kept(notes: Array(repeating: reason, count: 1_000))
        #expect(notes.count == ResultLimits.maxNotes && notes.allSatisfy { $0.utf8.count <= ResultLimits.noteBytes })
        #expect(notes.last == "901 more notes left out (at most 100 are kept)")
        #expect(ResultLimits.kept(notes: ["short"]) == ["short"])
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        var value: Int { lock.withLock { n } }
        func set(_ v: Int) { lock.withLock { n = v } }
    }
}
