import BenchSupport
import ChildProcess
import Conformance
import Foundation
import ResultsStore
import SeededRandom

/// `linkconform-bench history [runs]`: a store of `runs` nightly runs (default 100) of four
/// implementations over the whole corpus, written through the store's own writing path
/// (`ResultWriter`, as `linkconform run` writes), then the commands a nightly runs on it, each
/// in a process of its own so that its time and peak memory are its own: the reports with the
/// history, `compare` of the last two runs, `run --baseline previous`'s comparison.
///
/// The four implementations answer every case the way the reference does, except for a share
/// of cases they fail (none, 3%, 10% and 25%), and every night about 0.5% of each one's cases
/// change (a pass turns into a failure or back), so the history has regressions and fixes to
/// find. The generator is seeded: the same store every time.
func benchHistory(runs: Int) async {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("linkconform").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("history: no linkconform beside this executable: build it first (swift build -c release)")
        return
    }
    let dir = NSTemporaryDirectory() + "linkconform-bench-history-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let db = dir + "/results.sqlite"
    // The store is written by a process of its own (this executable, `history-generate`): a
    // child started with posix_spawn begins with its parent's resident memory counted in its
    // peak, so the parent that measures the commands stays small.
    let generated = ContinuousClock.now
    guard let generator = try? CapturedCommand.run([CommandLine.arguments[0], "history-generate", db, String(runs)]),
          generator.status == 0 else {
        print("history: cannot write the store (is the corpus clean? `linkconform corpus lint`)")
        return
    }
    let seconds = generated.duration(to: ContinuousClock.now).seconds
    let results = Int(String(decoding: generator.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    let size = (try? FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0
    print("history: \(runs) runs x 4 implementations x \(results / max(1, runs * 4)) cases = \(results) results, "
        + "written in \(String(format: "%.1f", seconds)) s (\(Int(Double(results) / seconds)) results/s), "
        + "store \(size / 1_048_576) MB; peak memory of a command counts at least this process's "
        + String(format: "%.1f MB", currentRSSMegabytes()))

    // Each command in its own process: its wall time, CPU time and peak memory.
    let commands: [(String, [String])] = [
        ("report (every format and badges)", ["report", "--db", db, "--out", dir + "/reports"]),
        ("report --format html (page, history)", ["report", "--db", db, "--out", dir + "/reports-html", "--format", "html"]),
        ("report --format md (no history)", ["report", "--db", db, "--out", dir + "/reports-md", "--format", "md"]),
        ("compare (last two runs)", ["compare", "--db", db]),
        ("compare --json", ["compare", "--db", db, "--json"]),
        ("report --list", ["report", "--db", db, "--list"]),
    ]
    print("  command                                   wall       cpu      peak memory")
    for (title, arguments) in commands {
        let start = ContinuousClock.now
        guard let result = try? CapturedCommand.run([binary] + arguments) else {
            print("  \(title): cannot start \(binary)")
            continue
        }
        let wall = start.duration(to: ContinuousClock.now).seconds
        // Exit 1: the run has failures (report) or a regression (compare); the generated nights
        // have both.
        let ok = result.status == 0 || result.status == 1
        print("  " + title.padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: "%7.2f s  %6.2f s  %7.1f MB", wall, result.termination.cpuSeconds,
                     Double(result.termination.peakResidentBytes) / 1_048_576)
            + (ok ? "" : "   (exit \(result.status): \(String(decoding: result.stderr.suffix(200), as: UTF8.self)))"))
    }
    if let html = try? FileManager.default.attributesOfItem(atPath: dir + "/reports/index.html")[.size] as? Int {
        print("  index.html: \(html / 1024) KB")
    }
}

/// `history-generate DB RUNS`: writes the store and prints how many results it holds.
func generateHistory(into path: String, runs: Int) async {
    let corpus = Corpus.load(from: "Corpus")
    guard corpus.errors.isEmpty else {
        FileHandle.standardError.write(Data("the corpus has errors; run `linkconform corpus lint`\n".utf8))
        exit(2)
    }
    var reference: [CaseResult] = []
    _ = try? await Runner(corpus: corpus).run(SwiftImplementation.reference) { reference += $0 }
    do {
        try generateHistory(corpus: corpus, reference: reference, runs: runs, into: path)
        print(runs * 4 * reference.count)
    } catch {
        FileHandle.standardError.write(Data("cannot write the store: \(error)\n".utf8))
        exit(2)
    }
}

/// Writes `runs` nights of four implementations, derived from the reference's results.
private func generateHistory(corpus: Corpus, reference: [CaseResult], runs: Int, into path: String) throws {
    let store = try ResultsStore(path: path)
    let names = ["reference", "vendor-a", "vendor-b", "vendor-c"]
    let failShare = [0.0, 0.03, 0.10, 0.25]
    var rng = SeededGenerator(seed: 2026)
    // Which cases each implementation fails tonight; a few flip every night.
    var failing: [Set<Int>] = failShare.map { share in
        Set(reference.indices.filter { _ in Double.random(in: 0..<1, using: &rng) < share })
    }
    for night in 0..<runs {
        let run = try store.beginRun(RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: String(format: "%040x", night),
                                              toolVersion: "bench", options: ["night": .number(Double(night))]))
        try store.recordRequirements(run: run, corpus: corpus)
        try store.recordCases(corpus: corpus)   // once per corpus, as RunSession does
        for (i, name) in names.enumerated() {
            if i > 0 {
                for _ in 0..<max(1, reference.count / 200) {
                    let index = Int.random(in: 0..<reference.count, using: &rng)
                    if failing[i].remove(index) == nil { failing[i].insert(index) }
                }
            }
            let id = try store.register(ImplementationInfo(name: name, version: "1.\(night)", language: "bench", homepage: ""), run: run)
            let writer = ResultWriter(store: store, run: run, implementation: id)
            var batch: [CaseResult] = []
            batch.reserveCapacity(256)
            for (index, r) in reference.enumerated() {
                let fails = failing[i].contains(index) && r.level.isJudged
                batch.append(fails
                    ? CaseResult(suite: r.suite, caseID: r.caseID, operation: r.operation, requirement: r.requirement, level: r.level,
                                 outcome: r.level == .must ? .fail : .nonStrict, nullWouldPass: r.nullWouldPass, actual: ["kind": "other"],
                                 expected: r.expected, encodedExpected: r.encodedExpected,
                                 message: "kind: expected the reference's answer, got \"other\"", durationNanos: r.durationNanos)
                    : r)
                if batch.count == 256 {
                    try writer.append(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try writer.append(batch)
            _ = try writer.finish()
            try store.setImplementationStatus(run: run, implementation: id, status: .ok, notes: [], expectedFailures: nil)
        }
        try store.finishRun(run, status: .completed)
    }
}
