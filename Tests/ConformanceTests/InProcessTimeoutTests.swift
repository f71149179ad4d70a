import Foundation
import LinkJSON
import Testing
@testable import Conformance

/// In process, a case that does not return: left behind as `timedOut` while the run goes on, and
/// when such cases hold every thread of the pool, the run ends through `onStarved` with what it
/// has. Before the watchdog, each of these runs waited for the held case for ever.
///
/// One at a time: each test holds threads of the pool that every test of the process shares.
/// The corpus is the ULC suite's `ulc.parse` and `ulc.build` cases, whose handlers never suspend,
/// so that no case but a held one can be late (a case that awaits could wait for the pool longer
/// than the short limits used here while other tests hold it).
@Suite(.serialized)
struct InProcessTimeoutTests {
    static let corpus: Corpus = {
        let ulc = Corpus.load(from: TemporaryCorpus.repositoryCorpus, suites: ["ulc"])
        let suites = ulc.suites.map { suite in
            SuiteCorpus(definition: suite.definition, registry: suite.registry,
                        cases: suite.cases.filter { $0.operation == "ulc.parse" || $0.operation == "ulc.build" })
        }
        return Corpus(root: ulc.root, suites: suites, issues: ulc.issues, fingerprint: ulc.fingerprint)
    }()

    /// The reference, except that a case whose input is one of `held` blocks its thread (not
    /// only its task) until released, as a loop that never ends would.
    final class Holds: @unchecked Sendable {
        let held: Set<String>
        private let condition = NSCondition()
        private var released = false
        private var begun = 0
        private var expired = 0

        init(_ held: Set<String>) {
            self.held = held
        }

        var begunCount: Int { condition.withLock { begun } }
        /// Holds that ended on their own two minutes, not on a release.
        var expiredCount: Int { condition.withLock { expired } }

        func release() {
            condition.withLock {
                released = true
                condition.broadcast()
            }
        }

        /// Blocks the calling thread until released (synchronous on purpose), or for two minutes
        /// at most: a watchdog that failed makes the test fail rather than hang. (Two minutes from
        /// when the case began, not from the test's start: in a full test run on two cores the
        /// case may wait longer than that for a thread.)
        func hold() {
            let deadline = Date(timeIntervalSinceNow: 120)
            condition.lock()
            begun += 1
            while !released && condition.wait(until: deadline) {}
            if !released { expired += 1 }
            condition.unlock()
        }

        var implementation: SwiftImplementation {
            let reference = SwiftImplementation.reference
            var handlers: [String: SuiteDefinition.Handler] = [:]
            for operation in SuiteRegistry.all.flatMap(\.operations).map(\.name) {
                guard let handler = reference.handler(for: operation) else { continue }
                handlers[operation] = { [self] input in
                    if held.contains(input.serialized()) { hold() }
                    return try await handler(input)
                }
            }
            return SwiftImplementation(info: ImplementationInfo(name: "holds", version: "0", language: "Swift", homepage: ""),
                                       handlers: handlers)
        }
    }

    /// The inputs of the first `count` cases of the run (distinct), and every case that has one.
    static func firstInputs(_ count: Int) -> (inputs: Set<String>, cases: Set<String>) {
        var inputs: Set<String> = []
        for suite in corpus.suites {
            for c in suite.cases where inputs.count < count { inputs.insert(c.input.serialized()) }
        }
        let cases = corpus.suites.flatMap(\.cases).filter { inputs.contains($0.input.serialized()) }.map(\.id)
        return (inputs, Set(cases))
    }

    final class Box<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: T
        init(_ value: T) { stored = value }
        var value: T { lock.withLock { stored } }
        func update(_ body: (inout T) -> Void) { lock.withLock { body(&stored) } }
    }

    @Test func aCaseThatDoesNotReturnIsTimedOutAndTheRunGoesOn() async throws {
        try #require(Self.corpus.errors.isEmpty && Self.corpus.caseCount > 100)
        let (inputs, heldCases) = Self.firstInputs(1)
        let holds = Holds(inputs)
        var runner = Runner(corpus: Self.corpus)
        runner.inProcessTimeout = .seconds(2)
        runner.starvedAfter = .seconds(3_600)   // other tests share the pool: never taken as held here
        let starved = Box(false)
        runner.onStarved = { _, _ in starved.update { $0 = true } }
        let results = Box<[CaseResult]>([]), ended = RunnerTests.Counter()
        let run = Task { [runner] in
            defer { ended.set(1) }
            return try await runner.run(holds.implementation) { batch in results.update { $0 += batch } }
        }
        let endedWhileHeld = try await RunnerTests.poll(ended, until: 1)
        holds.release()
        _ = try await run.value
        #expect(endedWhileHeld == 1, "the run ended while a case still held its thread")
        #expect(holds.expiredCount == 0, "a held case waited out its two minutes: nothing left it behind")
        #expect(holds.begunCount >= 1, "the held case ran")
        #expect(!starved.value)
        let all = results.value
        #expect(all.count == Self.corpus.caseCount && Set(all.map(\.caseID)).count == all.count, "every case once")
        let timedOut = all.filter { $0.outcome == .timedOut }
        #expect(Set(timedOut.map(\.caseID)) == heldCases)
        #expect(timedOut.allSatisfy { $0.message?.hasPrefix("did not return within 2 s in process") == true })
        let others = all.filter { !heldCases.contains($0.caseID) }
        #expect(others.allSatisfy { $0.outcome == .pass || $0.outcome == .informational },
                "\(others.filter { $0.outcome != .pass && $0.outcome != .informational }.map(\.caseID).prefix(5))")
    }

    @Test func casesHoldingEveryThreadEndTheRunWithWhatItHas() async throws {
        let threads = ProcessInfo.processInfo.activeProcessorCount
        // More held inputs than threads: the run is held as soon as the pool is, however wide.
        let (inputs, heldCases) = Self.firstInputs(threads + 2)
        let holds = Holds(inputs)
        var runner = Runner(corpus: Self.corpus)
        runner.inProcessTimeout = .milliseconds(300)
        runner.starvedAfter = .milliseconds(500)
        let starved = Box<[(results: [CaseResult], message: String)]>([])
        runner.onStarved = { results, message in
            starved.update { $0.append((results, message)) }
            holds.release()   // the test's own tasks need the pool back
        }
        let handed = Box<[CaseResult]>([])
        let done = try await runner.run(holds.implementation) { batch in handed.update { $0 += batch } }
        let calls = starved.value
        #expect(holds.expiredCount == 0, "a held case waited out its two minutes: the pool was never found held")
        try #require(calls.count == 1, "onStarved is called once")
        let all = handed.value + calls[0].results
        #expect(Set(all.map(\.caseID)).count == all.count, "no case twice")
        #expect(all.count < Self.corpus.caseCount, "the run stopped early")
        #expect(done == handed.value.count)
        let timedOut = all.filter { $0.outcome == .timedOut }
        #expect(!timedOut.isEmpty && timedOut.allSatisfy { heldCases.contains($0.caseID) },
                "\(timedOut.map(\.caseID)) \(heldCases)")
        #expect(all.filter { heldCases.contains($0.caseID) }.allSatisfy { $0.outcome == .timedOut }, "a held case has no other result")
        #expect(calls[0].message.contains("hold every thread of Swift's shared pool"))
        #expect(timedOut.contains { calls[0].message.contains($0.caseID) }, "the message names the cases held")
        #expect(holds.begunCount >= 1)
    }

    /// The default limit (so the held case never times out) and a short grace after a stop.
    static func runnerThatStopsQuickly() -> Runner {
        var runner = Runner(corpus: corpus)
        runner.inProcessTimeout = .seconds(60)
        runner.inFlightGrace = .milliseconds(100)
        return runner
    }

    @Test func aStopLeavesAHeldCaseBehindWithoutAResult() async throws {
        let (inputs, heldCases) = Self.firstInputs(1)
        let holds = Holds(inputs)
        let runner = Self.runnerThatStopsQuickly()
        let ended = RunnerTests.Counter()
        let results = Box<[CaseResult]>([])
        let run = Task { [runner] in
            defer { ended.set(1) }
            return try await runner.run(holds.implementation, shouldStop: { holds.begunCount > 0 }) { batch in
                results.update { $0 += batch }
            }
        }
        let endedWhileHeld = try await RunnerTests.poll(ended, until: 1)
        holds.release()
        _ = try await run.value
        #expect(endedWhileHeld == 1, "a stop does not wait for the held case (nor for the limit)")
        let all = results.value
        #expect(all.allSatisfy { !heldCases.contains($0.caseID) && $0.outcome != .timedOut })
        #expect(all.count < Self.corpus.caseCount)
    }

    @Test func aSinkThatThrowsEndsTheRunWithoutWaitingForAHeldCase() async throws {
        let (inputs, _) = Self.firstInputs(1)
        let holds = Holds(inputs)
        let runner = Self.runnerThatStopsQuickly()
        struct Full: Error {}
        let ended = RunnerTests.Counter()
        let run = Task { [runner] in
            defer { ended.set(1) }
            return try await runner.run(holds.implementation) { _ in if holds.begunCount > 0 { throw Full() } }
        }
        let endedWhileHeld = try await RunnerTests.poll(ended, until: 1)
        holds.release()
        await #expect(throws: Full.self) { try await run.value }
        #expect(endedWhileHeld == 1)
    }
}
