import AdapterHarness
import BenchSupport
import Conformance
import Foundation
import ResultsStore
import RunSession

/// The corpus repeated to `count` cases, run (a) in process and (b) through `linkconform adapter`
/// over the adapter protocol with windows of 1 and 64; cases per second for each, and the
/// harness's peak memory (this process: the adapter is a child with its own). The in-process
/// run is also measured with every result stored in SQLite, as `linkconform run` does.
///
/// The fast runs take the best of three rounds (the median is shown too): on a noisy machine the
/// best round is the least disturbed one. Window 1 takes long enough to be measured once.
func benchProtocol(count: Int) async {
    let loaded = Corpus.load(from: "Corpus")
    guard loaded.errors.isEmpty else {
        print("protocol: the corpus has errors; run `linkconform corpus lint`")
        return
    }
    let corpus = loaded.repeated(to: count)
    let runner = Runner(corpus: corpus)
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("linkconform").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("protocol: \(binary) is missing; build it first (swift build -c release)")
        return
    }
    // Every suite since the corpus grew past ULC. The in-process and window targets below were
    // set on ULC alone: rounds of ULC alone, in process and at window 64, are printed too.
    print("protocol: the corpus (\(loaded.suites.count) suites, \(loaded.caseCount) cases) repeated to \(corpus.caseCount) cases")
    // What the bench holds before any round (the corpus loaded and repeated): the "peak RSS so
    // far" figures below include it, which a run of the real corpus does not.
    print(String(format: "  resident before the first round: %.0f MB (the loaded and repeated corpus)", currentRSSMegabytes()))

    /// Once the pipe's request bytes are built, the peak includes them: each line says so.
    var rssNote = ""
    /// Prints the best and median of the rounds' rates and returns the best.
    func report(_ label: String, _ rates: [Double], failures: Int) -> Double? {
        guard let best = rates.max() else { return nil }
        let sorted = rates.sorted()
        let padded = label.padding(toLength: 34, withPad: " ", startingAt: 0)
        let median = rates.count > 1 ? String(format: " (median %.0f)", sorted[sorted.count / 2]) : ""
        let note = failures == 0 ? "" : "   (\(failures) not passed!)"
        print(String(format: "  %@ %8.0f cases/s%@   peak RSS so far %.0f MB%@%@",
                     padded as NSString, best, median as NSString, peakRSSMegabytes(), rssNote as NSString, note as NSString))
        return best
    }

    /// Runs `rounds` times through the runner alone; prints the best and median rate and
    /// returns the best. Every case must pass (a broken protocol path would otherwise look fast),
    /// unless `mustPass` is false (an adapter that answers from a fixed table).
    @discardableResult
    func measure(_ label: String, rounds: Int, mustPass: Bool = true, on cases: Runner? = nil,
                 _ implementation: () async throws -> some Implementation) async -> Double? {
        var rates: [Double] = []
        return await measure(label, rounds: rounds, mustPass: mustPass, on: cases, between: {}, rates: &rates, implementation)
    }

    /// ``measure(_:rounds:mustPass:_:)``, running `between` after each round (a round of another
    /// figure, so that the two alternate) and leaving every round's rate in `rates`.
    func measure(_ label: String, rounds: Int, mustPass: Bool = true, on cases: Runner? = nil, between: () -> Void, rates: inout [Double],
                 _ implementation: () async throws -> some Implementation) async -> Double? {
        let runner = cases ?? runner
        var failures = 0
        for _ in 0..<rounds {
            var judged = 0
            var passes = 0
            do {
                let subject = try await implementation()
                let start = ContinuousClock.now
                try await runner.run(subject) { batch in
                    judged += batch.count
                    passes += batch.count { $0.outcome == .pass || $0.outcome == .informational }
                }
                rates.append(Double(judged) / start.duration(to: ContinuousClock.now).seconds)
                await subject.stop()
            } catch {
                print("  \(label): failed: \(error)")
                return nil
            }
            if mustPass { failures += judged - passes }
            between()
        }
        return report(label, rates, failures: failures)
    }

    let inProcess = await measure("in process", rounds: 3) { SwiftImplementation.reference }
    // The ULC corpus is loaded for each of its two figures and let go after it: held through the
    // rounds between (another 100,000 cases), it counted in the harness's peak (140 MB with it,
    // 127 MB without, one run each).
    func ulcRunner() -> Runner { Runner(corpus: Corpus.load(from: "Corpus", suites: ["ulc"]).repeated(to: count)) }
    await measure("in process, the ULC suite alone", rounds: 3, on: ulcRunner()) { SwiftImplementation.reference }
    // Part of that peak by design: the reference's store of compiled AASA rules, bounded per
    // family (about 75 bytes a unit of weight, AASACompileCache).
    let held = AASACompileCache.shared.holding
    func family(_ name: String, _ h: AASACompileCache.Held, _ limits: AASACompileCache.Limits) -> String {
        "\(h.count) \(name) (of \(limits.count)), weight \(h.weight) (of \(limits.weight))"
    }
    print("  the AASA compile cache holds " + [family("files", held.files, AASACompileCache.fileLimits),
                                             family("rules and facts", held.rules, AASACompileCache.ruleLimits),
                                             family("pairs", held.pairs, AASACompileCache.pairLimits)].joined(separator: "; "))

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkconform-bench-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    do {
        let store = try ResultsStore(path: directory + "/bench.sqlite")
        // As `linkconform run` stores: through a run session, whose writer thread commits while
        // the cases run; the round ends when every result is committed. Each round is a run of
        // its own (begun, with its requirements recorded, before the clock starts).
        var rates: [Double] = []
        var failures = 0
        for _ in 0..<3 {
            let session = try RunSession(store: store, corpus: corpus, options: .null, gitCommit: nil, toolVersion: "bench")
            let start = ContinuousClock.now
            let summary = try await session.run([ImplementationPlan(implementation: SwiftImplementation.reference)])
            rates.append(Double(summary.results) / start.duration(to: ContinuousClock.now).seconds)
            for row in try store.summary(run: summary.runID) {
                failures += row.total - row.count(.pass) - row.count(.informational)
            }
        }
        let stored = report("in process, stored (run session)", rates, failures: failures)
        if let inProcess, let stored {
            print(String(format: "  stored / in process (best rounds)   %8.0f %%", 100 * stored / inProcess))
        }
    } catch {
        print("  in process, stored in SQLite: \(error)")
    }
    // Gone before the adapter rounds, so that the kernel does not write it back while they run.
    try? FileManager.default.removeItem(atPath: directory)

    var referenceRate: Double?
    func referenceAdapter(window: Int) async throws -> AdapterImplementation {
        let adapter = AdapterImplementation(AdapterConfiguration(name: "reference over the protocol", arguments: [binary, "adapter"],
                                                                 timeout: .seconds(30), window: window))
        _ = try await adapter.start()
        return adapter
    }
    for (window, rounds) in [(1, 1), (64, 3)] {
        referenceRate = await measure("adapter protocol, window \(window)", rounds: rounds) { try await referenceAdapter(window: window) }
    }
    await measure("adapter, window 64, ULC alone", rounds: 3, on: ulcRunner()) { try await referenceAdapter(window: 64) }

    // The harness's own peak is the one before the pipe's bytes are held.
    print(String(format: "  harness peak RSS (every round above): %.0f MB", peakRSSMegabytes()))

    // The ceiling: an adapter that does nothing (C, answers from a fixed table), and the same
    // request bytes through a pipe that only echoes them.
    let ceilingDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("linkconform-ceiling-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: ceilingDirectory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: ceilingDirectory) }
    // The do-nothing rounds and the pipe rounds alternate, so each pair sees the same machine:
    // `cat`'s own rate swings by a factor of two or more from round to round on a busy machine,
    // and a best round of one set against a best round of the other says little. The fraction
    // is printed both ways: best against best, and the median of the pairs'.
    let bytes = HarnessCeiling.requestBytes(corpus)
    rssNote = String(format: " (with %.0f MB of requests held for the pipe)", Double(bytes.count) / 1e6)
    var pipeRates: [Double] = []
    var doNothingRates: [Double] = []
    var doNothingRate: Double?
    switch HarnessCeiling.buildDoNothingAdapter(in: ceilingDirectory, corpus: loaded) {
    case .failure(let error): print("  do-nothing adapter: \(error.message)")
    case .success(let doNothing):
        doNothingRate = await measure("do-nothing adapter (C), window 64", rounds: 5, mustPass: false, between: {
            if let rate = HarnessCeiling.rawPipeRate(bytes, lines: corpus.caseCount) { pipeRates.append(rate) }
        }, rates: &doNothingRates) {
            let adapter = AdapterImplementation(AdapterConfiguration(name: "do-nothing", arguments: [doNothing], timeout: .seconds(30), window: 64))
            _ = try await adapter.start()
            return adapter
        }
    }
    if doNothingRate == nil {
        pipeRates = (0..<3).compactMap { _ in HarnessCeiling.rawPipeRate(bytes, lines: corpus.caseCount) }
    }
    if let pipe = report("raw pipe echo (cat), same bytes", pipeRates, failures: 0) {
        print(String(format: "  %.1f MB of requests; as a fraction of the raw pipe (best rounds): reference adapter %.1f%%, do-nothing adapter %.1f%%",
                     Double(bytes.count) / 1e6, 100 * (referenceRate ?? 0) / pipe, 100 * (doNothingRate ?? 0) / pipe))
        if doNothingRates.count == pipeRates.count, !pipeRates.isEmpty {
            let pairs = zip(doNothingRates, pipeRates).map { $0 / $1 }
            print(String(format: "  do-nothing adapter / raw pipe, round by round: median %.1f%%", 100 * pairs.sorted()[pairs.count / 2]))
            // In the order run, with both rates: whether the harness or `cat` moved between rounds.
            print("    " + zip(doNothingRates, pipeRates).map {
                String(format: "%.1f%% (%.0fk / %.0fk)", 100 * $0 / $1, $0 / 1000, $1 / 1000)
            }.joined(separator: ", ") + "  (do-nothing / cat, thousand cases/s, in the order run)")
        }
    } else {
        print("  raw pipe echo: cat did not echo every line")
    }
    print("  targets: in process >= 300000 cases/s; stored >= 50% of in process; protocol with a window >= 30000 cases/s; "
          + "do-nothing adapter at window 64 >= 50% of the raw pipe; harness peak RSS <= 120 MB")
    print("  (the in-process and window targets were set when the corpus was ULC alone: compare them with the ULC lines)")
}

/// Only the in-process run of the repeated corpus: for a profiler.
func profileInProcess(count: Int) async {
    let clock = ContinuousClock()
    let t0 = clock.now
    let corpus = Corpus.load(from: "Corpus").repeated(to: count)
    let t1 = clock.now
    var n = 0
    _ = try? await Runner(corpus: corpus).run(SwiftImplementation.reference) { n += $0.count }
    let t2 = clock.now
    print("\(n) cases: load and repeat \(t0.duration(to: t1)), run \(t1.duration(to: t2)), "
          + "\(Int(Double(n) / t1.duration(to: t2).seconds)) cases/s")
}

/// Only one run over the adapter protocol: for a profiler. Against `linkconform adapter`, or
/// with `doNothing` against the do-nothing adapter of ``HarnessCeiling`` (the harness's own cost).
func profileProtocol(window: Int, count: Int, doNothing: Bool = false) async {
    let loaded = Corpus.load(from: "Corpus")
    let corpus = loaded.repeated(to: count)
    var arguments = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("linkconform").path, "adapter"]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkconform-profile-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    if doNothing {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        switch HarnessCeiling.buildDoNothingAdapter(in: directory, corpus: loaded) {
        case .failure(let error): return print("do-nothing adapter: \(error.message)")
        case .success(let binary): arguments = [binary]
        }
    }
    let adapter = AdapterImplementation(AdapterConfiguration(name: "profiled", arguments: arguments, timeout: .seconds(30), window: window))
    guard (try? await adapter.start()) != nil else { return print("the adapter did not start") }
    let start = ContinuousClock.now
    var n = 0
    _ = try? await Runner(corpus: corpus).run(adapter) { n += $0.count }
    let seconds = start.duration(to: ContinuousClock.now).seconds
    await adapter.stop()
    print("\(n) cases over the protocol, window \(window): \(Int(Double(n) / seconds)) cases/s; CPU seconds: "
          + "harness \(cpuSeconds(children: false)), adapter \(cpuSeconds(children: true))")
}

/// User and system CPU seconds of this process, or of its children that have been waited for.
func cpuSeconds(children: Bool) -> String {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
    #else
    getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
    #endif
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return String(format: "%.2f user + %.2f sys", seconds(usage.ru_utime), seconds(usage.ru_stime))
}

/// Only the in-process run with results stored in SQLite: for a profiler.
func profileStored(count: Int) async {
    let corpus = Corpus.load(from: "Corpus").repeated(to: count)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("linkconform-profile-\(getpid()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    do {
        let store = try ResultsStore(path: path)
        let run = try store.beginRun(RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: nil, toolVersion: "bench", options: .null))
        let id = try store.register(SwiftImplementation.reference.info, run: run)
        let start = ContinuousClock.now
        let writer = ResultWriter(store: store, run: run, implementation: id)
        let n = try await Runner(corpus: corpus).run(SwiftImplementation.reference) { try writer.append($0) }
        try writer.finish()
        print("\(n) cases stored: \(Int(Double(n) / start.duration(to: ContinuousClock.now).seconds)) cases/s")
    } catch {
        print("failed: \(error)")
    }
}
