import Conformance
import Foundation
import LinkJSON
import ResultsStore
import SeededRandom

/// Differential fuzzing of one started implementation against the reference: inputs made by
/// mutating each operation's corpus inputs (``InputMutator``) go out `window` at a time, each
/// answer is judged against the reference's (``Judge``), and every disagreement is grouped by
/// its signature (``Disagreement``). The first input of a signature the store does not know
/// yet is minimised through the implementation (``Minimiser``) and stored at once; later
/// sightings are counted in memory and written every quarter of a second in one transaction,
/// so storing does not slow the stream down, and a stop (or a kill) loses at most that.
///
/// Before fuzzing, the corpus's own inputs of the fuzzed operations are asked of the
/// implementation and judged the same way (``corpusPass(shouldStop:progress:)``): each
/// signature found while fuzzing is then marked with the first corpus case that shows it, or as
/// one the corpus does not show (what a reviewer reads first).
///
/// Input `i` is made from a generator seeded with (`seed`, `i`) alone, so a seed gives the same
/// inputs in the same order whatever the timing of the answers.
public final class DifferentialFuzzer: Sendable {
    public struct Options: Sendable {
        public var seed: UInt64 = 1
        /// Stop after this long (nil: no time limit).
        public var seconds: Double?
        /// Stop after this many inputs (nil: no limit).
        public var maxInputs: Int?
        /// Inputs outstanding at once.
        public var window: Int = 32
        /// Candidates tried to minimise one disagreement (a crash: ``crashTrials``; a timeout is
        /// not minimised: each trial would wait for the whole timeout).
        public var minimiseTrials = 2_000
        public var crashTrials = 24
        /// Bytes of text (the candidates' strings) sent to minimise one disagreement: an
        /// implementation's cost grows with a candidate's size, and a 64 KiB input that cannot
        /// shrink (a link kept over the length limit) would otherwise send 2,000 candidates of
        /// 64 KiB. At 1 MiB a typical finding (a few hundred bytes) still gets every trial.
        public var minimiseBytes = 1 << 20
        /// Whether to run the corpus inputs first, to tell which signatures the corpus shows.
        public var corpusPass = true
        /// Crashes and timeouts of one operation after which it gets no more inputs in this run
        /// (nil: never). They are one signature per operation, and each costs a restart of the
        /// adapter or a whole timeout: an operation that crashes on half its inputs would
        /// otherwise take the run's time for nothing new.
        public var setAsideAfter: Int? = 50
        /// How long the inputs outstanding get to be answered after `shouldStop`; then the
        /// implementation is stopped, what it still held is dropped, and the run ends.
        public var inFlightGrace: Duration = .seconds(1)

        public init(seed: UInt64 = 1, seconds: Double? = nil, maxInputs: Int? = nil, window: Int = 32) {
            self.seed = seed
            self.seconds = seconds
            self.maxInputs = maxInputs
            self.window = max(1, window)
        }
    }

    /// Counts while running, for a progress line.
    public struct Stats: Sendable {
        /// The corpus pass: cases asked so far, of how many (0 of 0 when there is none).
        public var corpusCasesDone = 0
        public var corpusCases = 0
        /// Whether fuzzing proper has started (the corpus pass is over).
        public var fuzzing = false
        public var inputs = 0
        public var disagreements = 0
        public var signatures = 0
        public var newSignatures = 0
        /// New signatures being minimised through the implementation now, and waiting for it:
        /// their candidates share the implementation with the inputs, which slows the rate.
        public var minimising = 0
        public var waitingToMinimise = 0
        public var seconds = 0.0
        public var rate: Double { seconds > 0 ? Double(inputs) / seconds : 0 }

        public init() {}
    }

    /// One signature found in this run.
    public struct Found: Sendable {
        public let disagreement: Disagreement
        public let suite: String
        /// Inputs of this run with the signature.
        public internal(set) var count = 1
        /// Whether the store had not seen the signature before this run.
        public internal(set) var isNew: Bool
        /// The first corpus case whose input gives the same signature (nil: none does, or the
        /// corpus pass was not run).
        public internal(set) var corpusCase: String?
        /// For an `errored` signature no case shows: the first corpus case on which the
        /// implementation raises the same error for this operation (with another leading code
        /// of the reference: most likely the same cause).
        public internal(set) var corpusCaseWithSameError: String?
        /// The stored finding's id, new or known before the run (nil when there is no store, or a
        /// new signature is not stored yet).
        public internal(set) var findingID: Int64?
        public internal(set) var input: JSONValue
        public internal(set) var minimisedInput: JSONValue
        public internal(set) var referenceOutput: JSONValue
        public internal(set) var answer: Answer
        public internal(set) var minimiseTrials = 0
        /// Bytes of text those candidates carried.
        public internal(set) var minimiseBytes = 0

        init(_ d: Disagreement, suite: String, trial: Probe.Trial, isNew: Bool) {
            disagreement = d
            self.suite = suite
            self.isNew = isNew
            input = trial.input
            minimisedInput = trial.input
            referenceOutput = trial.referenceOutput
            answer = trial.answer
        }

        /// Takes the stored, minimised form, keeping this run's count.
        mutating func merge(_ stored: Found) {
            isNew = stored.isNew
            findingID = stored.findingID
            minimisedInput = stored.minimisedInput
            referenceOutput = stored.referenceOutput
            answer = stored.answer
            minimiseTrials = stored.minimiseTrials
            minimiseBytes = stored.minimiseBytes
        }
    }

    public struct Summary: Sendable {
        public var stats: Stats
        /// In the order found.
        public var found: [Found]
        /// Why the run ended early because of the implementation (given up after repeated crashes).
        public var harnessFailure: String?
        /// The operations that got no more inputs after ``Options/setAsideAfter`` crashes and
        /// timeouts, in the order set aside, with the inputs they had been sent; `corpusPass`:
        /// set aside by the corpus pass (`inputs` are then its corpus cases asked), so that
        /// no fuzzed input was made for it.
        public var setAside: [(operation: String, inputs: Int, corpusPass: Bool)] = []
        /// Stopped by ``run(shouldStop:progress:)``'s `shouldStop`.
        public var interrupted: Bool
        /// What the corpus pass found: each signature the corpus's inputs give, with the first
        /// case that gives it (nil: the pass was not run).
        public var corpusSignatures: [String: String]?
        /// Each error the corpus's inputs make the implementation raise (``Disagreement/errorKey``),
        /// with the first case that does.
        public var corpusErrors: [String: String] = [:]
    }

    let probes: [Probe]
    let mutators: [InputMutator]
    /// The corpus cases of the fuzzed operations, in corpus order: the probe's index and the case.
    let corpusCases: [(probe: Int, id: String, input: JSONValue)]
    let implementation: any Implementation
    let info: ImplementationInfo
    let store: ResultsStore?
    let options: Options

    /// `operations`: the operations to fuzz (each needs corpus inputs and the implementation's
    /// support). The implementation must be started; `info` is what it said it is.
    public init(corpus: Corpus, operations: [String], implementation: any Implementation, info: ImplementationInfo,
                store: ResultsStore?, options: Options) {
        var probes: [Probe] = []
        var mutators: [InputMutator] = []
        let cases = corpus.suites.flatMap(\.cases)
        for name in operations {
            guard let probe = Probe(operation: name, implementation: implementation) else { continue }
            let seeds = cases.filter { $0.operation == name }.map(\.input)
            let mutator = InputMutator(operation: probe.operation, seeds: seeds)
            guard !mutator.seeds.isEmpty else { continue }
            probes.append(probe)
            mutators.append(mutator)
        }
        let probeOf = Dictionary(probes.enumerated().map { ($1.operation.name, $0) }, uniquingKeysWith: { a, _ in a })
        corpusCases = cases.compactMap { c in probeOf[c.operation].map { ($0, c.id, c.input) } }
        self.probes = probes
        self.mutators = mutators
        self.implementation = implementation
        self.info = info
        self.store = store
        self.options = options
    }

    /// The operations that will be fuzzed (those with corpus inputs).
    public var operations: [String] { probes.map(\.operation.name) }

    /// The generator for input `index`.
    static func generator(seed: UInt64, index: Int) -> SeededGenerator {
        var mix = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        return SeededGenerator(seed: mix.next())
    }

    /// Input `index` and the operation it is for, deterministic for a seed; nil when no
    /// mutation gave an input, or the operation is in `skipping` (not made at all: an input
    /// set aside is never sent, the others are the same as without it).
    func input(_ index: Int, skipping: ProbeSet? = nil) -> (probe: Int, input: JSONValue, prepared: OperationDefinition.PreparedInput)? {
        var rng = Self.generator(seed: options.seed, index: index)
        let which = Self.operation(of: index, seed: options.seed, count: probes.count)
        if let skipping, skipping.contains(which) { return nil }
        return mutators[which].nextPrepared(&rng).map { (which, $0.input, $0.prepared) }
    }

    /// Inputs come in runs of this many for one operation.
    static let run = 32

    /// Which of `count` operations input `index` is for. The operations take turns in runs of
    /// ``run`` inputs, in an order shuffled afresh for each round of turns (deterministic for a
    /// seed): every operation gets its share in any `run * count` inputs (512 for 16
    /// operations), and the code and data of one operation stay warm in both processes for a
    /// run. Runs made the mix of every operation 6-15% faster than an operation drawn for each
    /// input (both processes are bound by their CPU; two operations mixed cost what they cost
    /// apart, sixteen did not; docs/fuzzing.md, "2026-11-27").
    static func operation(of index: Int, seed: UInt64, count: Int) -> Int {
        guard count > 1 else { return 0 }
        let turn = index / run
        var order = Array(0..<count)
        var rng = generator(seed: seed ^ 0x7E57_0F_7075, index: turn / count)
        order.shuffle(using: &rng)
        return order[turn % count]
    }

    /// What the task group hands back: a judged input, or a signature minimised and stored.
    enum Event: Sendable {
        /// The trial, and the index of the probe that made it.
        case trial(Probe.Trial?, probe: Int)
        case found(Found)
    }

    /// Minimisations running at once, beside the stream of inputs.
    static let concurrentMinimisations = 2

    /// What the corpus pass found (``corpusPass(shouldStop:progress:)``).
    struct CorpusPass {
        /// Each signature the corpus's inputs give, with the first case (in corpus order) that gives it.
        var signatures: [String: String] = [:]
        /// Each error raised (``Disagreement/errorKey``), with the first case that raises it.
        var errors: [String: String] = [:]
        /// Why the implementation was given up, if it was.
        var failure: String?
        /// The operations set aside during the pass, in the order set aside.
        var setAside: [SetAside] = []
        /// The cases asked.
        var asked = 0

        struct SetAside {
            let probe: Int
            /// The crash or timeout that set it aside.
            let trial: Probe.Trial
            let disagreement: Disagreement
            /// Filled in when the pass ends: the operation's corpus cases asked (those in flight
            /// when it was set aside included), and how many of its answers had that signature.
            var asked = 0
            var sightings = 0
        }
    }

    /// The signatures the corpus already shows: every corpus input of the fuzzed operations
    /// asked of the implementation, `window` at a time, and judged as a fuzzed input is
    /// (``Probe/trial(_:caseID:prepared:withdrawn:)``), with the first case of each signature in corpus
    /// order, and likewise each error raised (``Disagreement/errorKey``). Also the reason the
    /// implementation was given up, if it was; `progress` gets the cases done every 50 ms.
    ///
    /// An operation whose answers crash or time out ``Options/setAsideAfter`` times is asked no
    /// more of its cases, as in the fuzzing after it: each costs a restart or a whole timeout,
    /// and an adapter that dies on every input spent most of a short run on the pass alone (707
    /// restarts for the 296 cases of `ulc.parse` and `xcallback.parse`, docs/fuzzing.md).
    func corpusPass(shouldStop: @escaping @Sendable () -> Bool = { false }, halted: StopFlag = StopFlag(),
                    progress: @escaping @Sendable (Int) -> Void = { _ in }) async -> CorpusPass {
        var pass = CorpusPass()
        var first: [String: Int] = [:], firstError: [String: Int] = [:]
        var done = 0
        var lastProgress = ContinuousClock.now
        var asked = [Int](repeating: 0, count: probes.count), failures = [Int](repeating: 0, count: probes.count)
        var sightings: [String: Int] = [:]
        // Read by the requests in flight too: one set aside is not sent again alone.
        let setAside = ProbeSet()
        await withTaskGroup(of: (Int, Probe.Trial?).self) { group in
            var next = 0
            func submit() {
                let index = next
                next += 1
                let (which, id, input) = corpusCases[index]
                asked[which] += 1
                group.addTask { [self] in
                    (index, await self.probes[which].trial(input, caseID: id, withdrawn: { setAside.contains(which) || halted.isSet }))
                }
            }
            func more() -> Bool {
                while next < corpusCases.count, setAside.contains(corpusCases[next].probe) { next += 1 }
                return next < corpusCases.count && pass.failure == nil && !shouldStop()
            }
            while next < options.window && more() { submit() }
            for await (index, trial) in group {
                done += 1
                switch trial?.judgement {
                case .differs(let d)?:
                    let signature = d.signature
                    sightings[signature, default: 0] += 1
                    if first[signature].map({ index < $0 }) ?? true { first[signature] = index }
                    if let key = d.errorKey, firstError[key].map({ index < $0 }) ?? true { firstError[key] = index }
                    let which = corpusCases[index].probe
                    if d.kind == .crashed || d.kind == .timedOut, let limit = options.setAsideAfter, !setAside.contains(which) {
                        failures[which] += 1
                        if failures[which] >= limit, let trial {
                            setAside.insert(which)
                            pass.setAside.append(.init(probe: which, trial: trial, disagreement: d))
                        }
                    }
                case .notRun(let why)?:
                    if pass.failure == nil { pass.failure = why }
                default: break
                }
                if more() { submit() }
                if lastProgress.duration(to: .now) >= .milliseconds(50) {
                    lastProgress = .now
                    progress(done)
                }
            }
        }
        progress(done)
        pass.asked = asked.reduce(0, +)
        pass.signatures = first.mapValues { corpusCases[$0].id }
        pass.errors = firstError.mapValues { corpusCases[$0].id }
        for i in pass.setAside.indices {
            pass.setAside[i].asked = asked[pass.setAside[i].probe]
            pass.setAside[i].sightings = sightings[pass.setAside[i].disagreement.signature] ?? 1
        }
        return pass
    }

    /// Fuzzes until the time or input limit, `shouldStop`, or the implementation is given up
    /// (after the corpus pass, when ``Options/corpusPass``; its time is not counted in the
    /// fuzzing's). `progress` gets the counts every 50 ms and at the end.
    ///
    /// After `shouldStop`, no input is sent; those outstanding get ``Options/inFlightGrace``,
    /// then the implementation is stopped (``Conformance/Implementation/stop()``) and what it
    /// still held is dropped, not judged: a first Ctrl-C does not wait for an adapter that
    /// holds its inputs up to their timeout. A minimisation cut short keeps the first input.
    public func run(shouldStop: @escaping @Sendable () -> Bool = { false },
                    progress: @escaping @Sendable (Stats) -> Void = { _ in }) async throws -> Summary {
        guard !probes.isEmpty else { return Summary(stats: Stats(), found: [], harnessFailure: nil, interrupted: false) }
        let halted = StopFlag()
        let watcher = Task { [implementation, grace = options.inFlightGrace] in
            await Self.haltWhenStopped(implementation, shouldStop: shouldStop, grace: grace, halted: halted)
        }
        do {
            let summary = try await fuzz(shouldStop: shouldStop, halted: halted, progress: progress)
            watcher.cancel()
            await watcher.value
            return summary
        } catch {
            watcher.cancel()
            await watcher.value
            throw error
        }
    }

    /// Polls `shouldStop`; once it is set, waits `grace`, then sets `halted` and stops the
    /// implementation. Ends when cancelled (at once, unless it is stopping the implementation).
    static func haltWhenStopped(_ implementation: any Implementation, shouldStop: @Sendable () -> Bool,
                                grace: Duration, halted: StopFlag) async {
        while !Task.isCancelled {
            if shouldStop() {
                try? await Task.sleep(for: grace)
                if Task.isCancelled { return }
                halted.set()
                await implementation.stop()
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    func fuzz(shouldStop: @escaping @Sendable () -> Bool, halted: StopFlag,
              progress: @escaping @Sendable (Stats) -> Void) async throws -> Summary {
        var summary = Summary(stats: Stats(), found: [], harnessFailure: nil, interrupted: false)
        // The signatures stored before, with their findings' ids.
        let known = try store?.differentialFindingIDs(implementation: info.name) ?? [:]
        var pass = CorpusPass()
        if options.corpusPass {
            let total = corpusCases.count
            summary.stats.corpusCases = total
            pass = await corpusPass(shouldStop: shouldStop, halted: halted) { done in
                var stats = Stats()
                stats.corpusCases = total
                stats.corpusCasesDone = done
                progress(stats)
            }
            // The cases asked: all of them, unless an operation was set aside or the pass stopped.
            summary.stats.corpusCasesDone = pass.asked
            summary.corpusSignatures = pass.signatures
            summary.corpusErrors = pass.errors
            if pass.failure != nil || shouldStop() {
                summary.harnessFailure = pass.failure
                summary.interrupted = shouldStop()
                progress(summary.stats)
                return summary
            }
        }
        summary.stats.fuzzing = true
        let corpusShows = summary.corpusSignatures ?? [:], corpusErrors = summary.corpusErrors
        var bySignature: [String: Int] = [:]
        var pending: [String: Int] = [:]
        let started = ContinuousClock.now
        var lastFlush = started
        var lastProgress = started
        let deadline = options.seconds.map { started + .milliseconds(Int($0 * 1000)) }
        // Set once the stream stops: minimisations still running keep what they have so far.
        let finishing = StopFlag()
        // Operations set aside after their crashes and timeouts, with the count so far and the
        // inputs each was sent.
        let setAside = ProbeSet()
        var failuresByProbe = [Int](repeating: 0, count: probes.count), sentByProbe = [Int](repeating: 0, count: probes.count)

        func flush() throws {
            try store?.addDifferentialSightings(implementation: info.name, pending)
            pending.removeAll(keepingCapacity: true)
            lastFlush = .now
        }
        func more(_ next: Int) -> Bool {
            if summary.harnessFailure != nil || shouldStop() { return false }
            if setAside.count == probes.count { return false }
            if let maxInputs = options.maxInputs, next >= maxInputs { return false }
            if let deadline, ContinuousClock.now >= deadline { return false }
            return true
        }

        try await withThrowingTaskGroup(of: Event.self) { group in
            var next = 0
            var trialsInFlight = 0
            var minimising = 0
            var waiting: [(Disagreement, Probe.Trial)] = []
            func submit() {
                let index = next
                next += 1
                trialsInFlight += 1
                group.addTask { [self] in
                    guard let (which, input, prepared) = self.input(index, skipping: setAside) else { return .trial(nil, probe: 0) }
                    return .trial(await self.probes[which].trial(input, caseID: "fuzz/\(index)", prepared: prepared,
                                                                 withdrawn: { setAside.contains(which) || halted.isSet }), probe: which)
                }
            }
            func startMinimising() {
                while minimising < Self.concurrentMinimisations, !waiting.isEmpty {
                    let (d, trial) = waiting.removeFirst()
                    minimising += 1
                    group.addTask { [self] in .found(try await self.found(d, trial, stop: { finishing.isSet || halted.isSet })) }
                }
            }
            /// Counts a disagreement seen `count` times; the first sighting of a signature the
            /// store does not know waits to be minimised.
            func sighted(_ d: Disagreement, _ trial: Probe.Trial, count: Int = 1) {
                let signature = d.signature
                if let at = bySignature[signature] {
                    summary.found[at].count += count
                    if known[signature] != nil || summary.found[at].findingID != nil { pending[signature, default: 0] += count }
                    return
                }
                bySignature[signature] = summary.found.count
                summary.stats.signatures += 1
                var found = Found(d, suite: suite(of: d), trial: trial, isNew: known[signature] == nil)
                found.count = count
                found.findingID = known[signature]
                found.corpusCase = corpusShows[signature]
                if found.corpusCase == nil, let key = d.errorKey { found.corpusCaseWithSameError = corpusErrors[key] }
                summary.found.append(found)
                if known[signature] != nil {
                    pending[signature, default: 0] += count
                } else {
                    summary.stats.newSignatures += 1
                    waiting.append((d, trial))
                    startMinimising()
                }
            }
            // An operation the corpus pass set aside gets no input; the crashes or timeouts that
            // set it aside are its finding, as they would have been in the fuzzing.
            for aside in pass.setAside {
                setAside.insert(aside.probe)
                summary.setAside.append((aside.disagreement.operation, aside.asked, true))
                sighted(aside.disagreement, aside.trial, count: aside.sightings)
            }
            while next < options.window && more(next) { submit() }
            while let event = try await group.next() {
                switch event {
                case .found(let found):
                    minimising -= 1
                    let at = bySignature[found.disagreement.signature]!
                    summary.found[at].merge(found)
                    // The store counted the first sighting; the ones seen while minimising follow.
                    if found.findingID != nil, summary.found[at].count > 1 { pending[found.disagreement.signature, default: 0] += summary.found[at].count - 1 }
                    startMinimising()
                case .trial(let result, let which):
                    trialsInFlight -= 1
                    guard let trial = result else { break }
                    summary.stats.inputs += 1
                    sentByProbe[which] += 1
                    switch trial.judgement {
                    case .agrees, .skipped: break
                    case .notRun(let why): summary.harnessFailure = summary.harnessFailure ?? why
                    case .differs(let d):
                        summary.stats.disagreements += 1
                        if d.kind == .crashed || d.kind == .timedOut, let limit = options.setAsideAfter, !setAside.contains(which) {
                            failuresByProbe[which] += 1
                            if failuresByProbe[which] >= limit {
                                setAside.insert(which)
                                summary.setAside.append((d.operation, sentByProbe[which], false))
                            }
                        }
                        sighted(d, trial)
                    }
                }
                let now = ContinuousClock.now
                if lastProgress.duration(to: now) >= .milliseconds(50) {
                    lastProgress = now
                    summary.stats.seconds = started.duration(to: now).seconds
                    summary.stats.minimising = minimising
                    summary.stats.waitingToMinimise = waiting.count
                    progress(summary.stats)
                }
                if lastFlush.duration(to: .now) >= .milliseconds(250) { try flush() }
                if more(next) {
                    while trialsInFlight < options.window && more(next) { submit() }
                } else {
                    finishing.set()
                    // Signatures not minimised yet are stored as found.
                    for (d, trial) in waiting {
                        let found = try self.stored(d, first: trial.input, minimised: trial, trials: 0)
                        let at = bySignature[d.signature]!
                        summary.found[at].merge(found)
                        if found.findingID != nil, summary.found[at].count > 1 { pending[d.signature, default: 0] += summary.found[at].count - 1 }
                    }
                    waiting.removeAll()
                }
            }
        }
        try flush()
        summary.stats.seconds = started.duration(to: .now).seconds
        summary.stats.minimising = 0
        summary.stats.waitingToMinimise = 0
        summary.interrupted = shouldStop()
        progress(summary.stats)
        return summary
    }

    func suite(of d: Disagreement) -> String {
        probes.first { $0.operation.name == d.operation }!.suite
    }

    /// A new signature: minimised (until `stop`), then stored.
    func found(_ d: Disagreement, _ trial: Probe.Trial, stop: @escaping @Sendable () -> Bool) async throws -> Found {
        let probe = probes.first { $0.operation.name == d.operation }!
        var minimised = trial
        // What differs on the input kept: the message, fields and codes stored describe it.
        var described = d
        var trials = 0, bytes = 0
        // A crash or a protocol error replaces the adapter's process on every trial that
        // reproduces it: such a signature gets the small budget of a crash.
        let budget = d.kind == .timedOut ? 0 : d.kind == .crashed || d.kind == .protocolError ? options.crashTrials : options.minimiseTrials
        if budget > 0 {
            let (small, used, sent) = await minimise(trial.input, signature: d.signature, probe: probe, budget: budget, stop: stop)
            trials = used
            bytes = sent
            // Asked once more for both answers to keep; an answer that changed (a flaky
            // implementation) leaves the first input as the reproducer.
            if small != trial.input, let again = await probe.trial(small, caseID: "fuzz/minimised"),
               case .differs(let d2) = again.judgement, d2.signature == d.signature {
                minimised = again
                described = d2
            }
        }
        var found = try stored(d, first: trial.input, minimised: minimised, describedBy: described, trials: trials)
        found.minimiseBytes = bytes
        return found
    }

    /// Stores a new signature with its first input and its minimised one (with both answers);
    /// the message, fields and codes are `described`'s, the disagreement on the minimised input
    /// (`d`, the first input's, when it was kept as found).
    func stored(_ d: Disagreement, first: JSONValue, minimised: Probe.Trial, describedBy described: Disagreement? = nil, trials: Int) throws -> Found {
        let described = described ?? d
        var found = Found(d, suite: suite(of: d), trial: minimised, isNew: true)
        found.input = first
        found.minimiseTrials = trials
        if let store {
            let (finding, isNew) = try store.recordDifferentialFinding(DifferentialFinding.New(
                implementation: info.name, implementationVersion: info.version, suite: found.suite, operation: d.operation,
                kind: d.kind.rawValue, signature: d.signature, fields: described.fields, referenceCodes: described.codes, message: described.message,
                input: first.serialized(), minimisedInput: minimised.input.serialized(),
                referenceOutput: minimised.referenceOutput.serialized(), implementationAnswer: Probe.json(minimised.answer).serialized()))
            found.findingID = finding.id
            found.isNew = isNew
        }
        return found
    }

    /// ddmin through the implementation: a candidate keeps the signature when it still
    /// disagrees for the same reason.
    func minimise(_ input: JSONValue, signature: String, probe: Probe, budget: Int,
                  stop: @escaping @Sendable () -> Bool) async -> (input: JSONValue, trials: Int, bytes: Int) {
        var minimiser = Minimiser(maxTrials: budget, maxBytes: options.minimiseBytes, parallel: options.window)
        minimiser.shouldStop = stop
        return await minimiser.minimise(input) { candidates in
            await withTaskGroup(of: (Int, Bool).self) { group in
                for (i, candidate) in candidates.enumerated() {
                    group.addTask {
                        guard let trial = await probe.trial(candidate, caseID: "fuzz/minimise"), case .differs(let d) = trial.judgement else { return (i, false) }
                        return (i, d.signature == signature)
                    }
                }
                var kept = Array(repeating: false, count: candidates.count)
                for await (i, keeps) in group { kept[i] = keeps }
                return kept
            }
        }
    }
}

/// Indexes of probes, shared between the stream and the tasks that make inputs.
final class ProbeSet: @unchecked Sendable {
    private let lock = NSLock()
    private var members = Set<Int>()
    var count: Int { lock.withLock { members.count } }
    func contains(_ i: Int) -> Bool { lock.withLock { members.contains(i) } }
    func insert(_ i: Int) { lock.withLock { _ = members.insert(i) } }
}

/// A flag set once, read from any thread.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
