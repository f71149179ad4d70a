import Conformance
import Foundation
import LinkJSON
import ResultsStore
import RunSession
import Testing

/// A run from start to final status, against the repository's corpus and a scratch store.
struct RunSessionTests {
    static let corpus: Corpus = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return Corpus.load(from: root.appendingPathComponent("Corpus").path)
    }()

    /// A store in a folder of its own, removed with the test's value.
    final class ScratchStore {
        let folder = NSTemporaryDirectory() + "linkconform-session-" + UUID().uuidString
        let store: ResultsStore
        init() throws { store = try ResultsStore(path: folder + "/results.sqlite") }
        deinit { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// An implementation that never starts.
    struct Unstartable: Implementation {
        var displayName: String { "unstartable" }
        var window: Int { 1 }
        var notes: [String] { [] }
        func start() async throws(ImplementationError) -> ImplementationInfo { throw ImplementationError("no such program") }
        func supports(_ operation: String) -> Bool { true }
        func run(_ request: Request) async -> Answer { .output(.null) }
        func stop() async {}
    }

    @Test func theSameImplementationTwiceIsStoredUnderDistinctNames() async throws {
        let scratch = try ScratchStore()
        let session = try RunSession(store: scratch.store, corpus: Self.corpus, options: [:], gitCommit: nil)
        let plan = ImplementationPlan(implementation: SwiftImplementation.reference)
        let summary = try await session.run([plan, plan])
        #expect(summary.status == .completed && !summary.harnessFailed)
        #expect(summary.results == 2 * Self.corpus.caseCount)
        let implementations = try scratch.store.implementations(run: summary.runID)
        #expect(implementations.map(\.info.name) == ["reference", "reference #2"])
        #expect(implementations.allSatisfy { $0.status == .ok })
        #expect(try scratch.store.run(summary.runID)?.status == .completed)
        #expect(try scratch.store.results(run: summary.runID).count == 2 * Self.corpus.caseCount)
    }

    /// An implementation that starts as `name` `version` and answers nothing but null.
    struct Announcing: Implementation {
        let name: String, version: String
        var displayName: String { "\(name) adapter" }
        var window: Int { 1 }
        var notes: [String] { [] }
        func start() async throws(ImplementationError) -> ImplementationInfo {
            ImplementationInfo(name: name, version: version, language: "C", homepage: "")
        }
        func supports(_ operation: String) -> Bool { true }
        func run(_ request: Request) async -> Answer { .output(.null) }
        func stop() async {}
    }

    @Test func twoVersionsOfOneNameInARunAreStoredUnderDistinctNames() async throws {
        let scratch = try ScratchStore()
        let session = try RunSession(store: scratch.store, corpus: Self.corpus, options: [:], gitCommit: nil)
        let summary = try await session.run([ImplementationPlan(implementation: Announcing(name: "vendor", version: "1.0")),
                                             ImplementationPlan(implementation: Announcing(name: "vendor", version: "2.0"))])
        let implementations = try scratch.store.implementations(run: summary.runID)
        #expect(implementations.map(\.info.name) == ["vendor", "vendor #2"], "results of both would be read as one implementation's")
        #expect(implementations.map(\.info.version) == ["1.0", "2.0"])
        #expect(try scratch.store.results(run: summary.runID).count == 2 * Self.corpus.caseCount)
    }

    @Test func anImplementationThatDoesNotStartHasEveryCaseNotRun() async throws {
        let scratch = try ScratchStore()
        let session = try RunSession(store: scratch.store, corpus: Self.corpus, options: [:], gitCommit: nil)
        var messages: [String] = []
        let summary = try await session.run([ImplementationPlan(implementation: Unstartable())],
                                            events: .init(message: { messages.append($0) }))
        #expect(summary.harnessFailed)
        #expect(summary.status == .completed, "the run itself completed; the harness failure is reported apart")
        #expect(messages == ["unstartable did not start: no such program"])
        let stored = try scratch.store.implementations(run: summary.runID)
        #expect(stored.map(\.status) == [.failedToStart])
        let outcomes = Set(try scratch.store.results(run: summary.runID).map(\.result.outcome))
        #expect(outcomes == [.notRun])
    }

    @Test func aFailedPrepareStepKeepsTheImplementationFromStarting() async throws {
        let scratch = try ScratchStore()
        let session = try RunSession(store: scratch.store, corpus: Self.corpus, options: [:], gitCommit: nil)
        var messages: [String] = []
        let summary = try await session.run([ImplementationPlan(implementation: SwiftImplementation.reference, prepare: ["false"])],
                                            events: .init(message: { messages.append($0) }))
        #expect(summary.harnessFailed)
        #expect(messages.first == "preparing: false")
        #expect(messages.last?.hasPrefix("reference did not start: false failed (exit 1)") == true)
    }

    @Test func aStopBetweenImplementationsEndsTheRunInterruptedWithWhatRan() async throws {
        let scratch = try ScratchStore()
        let session = try RunSession(store: scratch.store, corpus: Self.corpus, options: [:], gitCommit: nil)
        let finished = Flag()
        let events = RunSession.Events(progress: { _ in { done, total in if done == total { finished.set() } } },
                                       shouldStop: { finished.isSet })
        let plan = ImplementationPlan(implementation: SwiftImplementation.reference)
        let summary = try await session.run([plan, plan], events: events)
        #expect(summary.status == .interrupted)
        #expect(try scratch.store.run(summary.runID)?.status == .interrupted)
        #expect(try scratch.store.implementations(run: summary.runID).count == 1)
        #expect(summary.results == Self.corpus.caseCount)
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// In process, answers `null` at once, except that the cases named block their thread
    /// until released (as a loop that never ends would).
    final class HoldsThreads: Implementation, @unchecked Sendable {
        let held: Set<String>
        private let condition = NSCondition()
        private var released = false
        private var expired = 0

        init(held: Set<String>) {
            self.held = held
        }

        var displayName: String { "holds threads" }
        var window: Int { 1 }
        var parallelism: Int { ProcessInfo.processInfo.activeProcessorCount }
        var notes: [String] { [] }
        func start() async throws(ImplementationError) -> ImplementationInfo {
            ImplementationInfo(name: displayName, version: "0", language: "Swift", homepage: "")
        }
        func supports(_ operation: String) -> Bool { true }
        func stop() async {}
        func run(_ request: Request) async -> Answer {
            if held.contains(request.caseID) { hold() }
            return .output(.null)
        }

        /// Blocks the thread until released, or for two minutes from when the case began at most:
        /// a watchdog that failed makes the test fail rather than hang.
        func hold() {
            let deadline = Date(timeIntervalSinceNow: 120)
            condition.lock()
            while !released && condition.wait(until: deadline) {}
            if !released { expired += 1 }
            condition.unlock()
        }

        /// Holds that ended on their own two minutes, not on a release.
        var expiredCount: Int { condition.withLock { expired } }

        func release() {
            condition.withLock {
                released = true
                condition.broadcast()
            }
        }
    }

    /// In-process cases that hold every thread of the pool: the session stores what it has,
    /// ends the run `interrupted` with the watchdog's message as a note, and says so through
    /// `starved` (the CLI writes its reports there and exits).
    @Test func casesHoldingThePoolEndTheRunInterruptedWithWhatRan() async throws {
        let scratch = try ScratchStore()
        let session = try RunSession(store: scratch.store, corpus: Self.corpus, options: [:], gitCommit: nil)
        session.inProcessTimeout = .milliseconds(300)
        let ids = Self.corpus.suites.flatMap(\.cases).map(\.id)
        let holds = HoldsThreads(held: Set(ids.prefix(ProcessInfo.processInfo.activeProcessorCount + 2)))
        let calls = Calls()
        let events = RunSession.Events(starved: { summary, message in
            calls.add(summary, message)
            holds.release()
        })
        let summary = try await session.run([ImplementationPlan(implementation: holds), ImplementationPlan(implementation: holds)],
                                            events: events)
        let starved = calls.all
        #expect(holds.expiredCount == 0, "a held case waited out its two minutes: the pool was never found held")
        try #require(starved.count == 1)
        #expect(summary.status == .interrupted && starved[0].0.status == .interrupted)
        #expect(try scratch.store.run(summary.runID)?.status == .interrupted)
        let implementations = try scratch.store.implementations(run: summary.runID)
        #expect(implementations.count == 1, "the second plan did not run")
        #expect(implementations.first?.notes.first?.contains("hold every thread of Swift's shared pool") == true)
        let stored = try scratch.store.results(run: summary.runID).map(\.result)
        #expect(stored.count == starved[0].0.results && stored.count == summary.results)
        #expect(stored.count < ids.count && Set(stored.map(\.caseID)).count == stored.count)
        #expect(stored.contains { $0.outcome == .timedOut && holds.held.contains($0.caseID) })
    }

    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [(RunSession.Summary, String)] = []
        func add(_ summary: RunSession.Summary, _ message: String) { lock.withLock { calls.append((summary, message)) } }
        var all: [(RunSession.Summary, String)] { lock.withLock { calls } }
    }
}
