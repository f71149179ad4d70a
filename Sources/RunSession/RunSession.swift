import Foundation
import Conformance
import LinkJSON
import ResultsStore

/// One run, from the first stored row to its final status: the run is begun in the store with
/// the corpus's requirements, each planned implementation is prepared, started, registered
/// under a distinct name and run with its results streamed into the store (or recorded as
/// `notRun` when it does not start), and the run ends `completed`, `interrupted` or `failed`.
///
/// The CLI's `run` parses arguments and prints; the benchmark measures the same path.
///
/// ```swift
/// let session = try RunSession(store: store, corpus: corpus, options: [:], gitCommit: nil)
/// let summary = try await session.run([ImplementationPlan(implementation: SwiftImplementation.reference)])
/// summary.status        // .completed
/// ```
public final class RunSession {
    /// What the session tells its caller while it works.
    public struct Events {
        /// A line for people (an implementation that did not start, a prepare step).
        public var message: (String) -> Void
        /// A progress receiver for an implementation about to run (cases done, cases in all).
        public var progress: (ImplementationInfo) -> (@Sendable (Int, Int) -> Void)
        /// Polled between cases: true stops the run (it ends `interrupted`, with what ran stored).
        public var shouldStop: @Sendable () -> Bool
        /// In-process cases that did not return hold every thread of Swift's shared pool
        /// (``Runner/onStarved``): the session has stored what it had and marked the run
        /// `interrupted`, and nothing that needs the pool will run again, this session included.
        /// Called from the watchdog's thread with the summary and the watchdog's message; the
        /// CLI writes its reports from here and exits.
        public var starved: (@Sendable (Summary, String) -> Void)?

        public init(message: @escaping (String) -> Void = { _ in },
                    progress: @escaping (ImplementationInfo) -> (@Sendable (Int, Int) -> Void) = { _ in { _, _ in } },
                    shouldStop: @escaping @Sendable () -> Bool = { false },
                    starved: (@Sendable (Summary, String) -> Void)? = nil) {
            self.message = message
            self.progress = progress
            self.shouldStop = shouldStop
            self.starved = starved
        }
    }

    /// How the run ended.
    public struct Summary: Sendable {
        public let runID: Int64
        public let status: RunStatus
        /// Some implementation could not be started (its cases are `notRun`): the harness did
        /// not do its whole job.
        public let harnessFailed: Bool
        /// Results stored, all implementations together.
        public let results: Int
    }

    public let store: ResultsStore
    public let corpus: Corpus
    public let runID: Int64
    /// When the results of a running implementation are committed.
    public var commitPolicy: ResultWriter.CommitPolicy = .standard
    /// How long one in-process case may run (``Runner/inProcessTimeout``).
    public var inProcessTimeout: Duration? {
        get { runner.inProcessTimeout }
        set { runner.inProcessTimeout = newValue }
    }
    var runner: Runner
    private var registered: Set<String> = []
    private var stored = 0

    /// Begins a run in the store (status `running`) and records the corpus's requirements and, once
    /// per corpus, its cases' titles and inputs (what reports show beside a case that did not pass).
    public init(store: ResultsStore, corpus: Corpus, options: JSONValue, gitCommit: String?,
                toolVersion: String = LinkConformVersion.current) throws {
        self.store = store
        self.corpus = corpus
        runner = Runner(corpus: corpus)
        runID = try store.beginRun(RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: gitCommit,
                                            toolVersion: toolVersion, options: options))
        try store.recordRequirements(run: runID, corpus: corpus)
        try store.recordCases(corpus: corpus)
    }

    /// A name a second implementation of the run has already (the same one in process and as an
    /// adapter, say, or two versions of one vendor's) gets "#2" after it, so their results stay
    /// apart: reports, badges, comparisons and the history tell implementations apart by name.
    func distinct(_ info: ImplementationInfo) -> ImplementationInfo {
        var candidate = info
        var n = 1
        while registered.contains(candidate.name) {
            n += 1
            candidate.name = "\(info.name) #\(n)"
        }
        registered.insert(candidate.name)
        return candidate
    }

    /// Runs every plan in order and ends the run. An error of the store ends the run `failed`
    /// and is thrown.
    public func run(_ plans: [ImplementationPlan], events: Events = Events()) async throws -> Summary {
        var status = RunStatus.completed
        var harnessFailed = false
        do {
            for plan in plans {
                if events.shouldStop() { status = .interrupted; break }
                switch try await runOne(plan, events) {
                case .ran: break
                case .didNotStart: harnessFailed = true
                case .starved:
                    // The watchdog stored the results and ended the run; the pool is free again.
                    return Summary(runID: runID, status: .interrupted, harnessFailed: harnessFailed, results: stored)
                }
                if events.shouldStop() { status = .interrupted; break }
            }
        } catch {
            try? store.finishRun(runID, status: .failed)
            throw error
        }
        try store.finishRun(runID, status: status)
        return Summary(runID: runID, status: status, harnessFailed: harnessFailed, results: stored)
    }

    private enum Ran { case ran, didNotStart, starved }

    /// One implementation.
    private func runOne(_ plan: ImplementationPlan, _ events: Events) async throws -> Ran {
        let implementation = plan.implementation
        let started: Result<ImplementationInfo, ImplementationError>
        if let failure = prepare(plan, events) {
            started = .failure(ImplementationError(failure))
        } else {
            do { started = .success(try await implementation.start()) } catch { started = .failure(error) }
        }
        switch started {
        case .failure(let error):
            let why = "\(implementation.displayName) did not start: \(error.message)"
            events.message(why)
            let id = try store.register(distinct(ImplementationInfo(name: implementation.displayName, version: "", language: "", homepage: "")),
                                        run: runID)
            try runner.recordNotRun(reason: why, expectedFailures: plan.expectedFailures, sink: sink(id))
            try store.setImplementationStatus(run: runID, implementation: id, status: .failedToStart,
                                              notes: [error.message],
                                              expectedFailures: plan.expectedFailures?.path)
            return .didNotStart
        case .success(let announced):
            let info = distinct(announced)
            let id = try store.register(info, run: runID)
            // Results are written on the writer's thread while the cases run: the runner hands on
            // each as it is judged, and the writer commits by count and by time, so a kill loses
            // at most what the writer had not committed yet.
            let writer = ResultWriter(store: store, run: runID, implementation: id, policy: commitPolicy)
            let starved = StarvedFlag()
            var runner = runner
            runner.onStarved = { [store, runID, stored, starvedEvent = events.starved] results, message in
                // On the watchdog's thread: this session's task will not run again.
                starved.set()
                try? writer.append(results)
                let written = (try? writer.finish()) ?? 0
                try? store.setImplementationStatus(run: runID, implementation: id, status: .ok, notes: [message],
                                                   expectedFailures: plan.expectedFailures?.path)
                try? store.finishRun(runID, status: .interrupted)
                starvedEvent?(Summary(runID: runID, status: .interrupted, harnessFailed: false, results: stored + written), message)
            }
            do {
                try await runner.run(implementation, expectedFailures: plan.expectedFailures, progress: events.progress(info),
                                     shouldStop: events.shouldStop, sink: { try writer.append($0) })
                if starved.isSet {
                    stored += writer.committed
                    return .starved
                }
                stored += try writer.finish()
            } catch {
                _ = try? writer.finish()
                await implementation.stop()
                throw error
            }
            await implementation.stop()
            try store.setImplementationStatus(run: runID, implementation: id, status: implementation.status,
                                              notes: implementation.notes,
                                              expectedFailures: plan.expectedFailures?.path)
            return .ran
        }
    }

    /// Runs the plan's prepare command, if it has one; what went wrong, or nil.
    private func prepare(_ plan: ImplementationPlan, _ events: Events) -> String? {
        guard let command = plan.prepare else { return nil }
        events.message("preparing: \(command.joined(separator: " "))")
        return Preparation.run(command, in: plan.workingDirectory)
    }

    /// Where the not-run results of an implementation that did not start go: straight into the
    /// store, a batch a transaction.
    private func sink(_ implementationID: Int64) -> ([CaseResult]) throws -> Void {
        { [self] batch in
            try store.insert(batch, run: runID, implementation: implementationID)
            stored += batch.count
        }
    }
}

/// Set once, from the watchdog's thread, when in-process cases held the whole pool.
private final class StarvedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set_ = false
    var isSet: Bool { lock.withLock { set_ } }
    func set() { lock.withLock { set_ = true } }
}
