import Conformance
import Foundation

/// The corpus repeated to `count` cases, run (a) in process and (b) through `linkconform adapter`
/// over the adapter protocol with windows of 1 and 64; cases per second for each, and the
/// harness's peak memory (this process: the adapter is a child with its own).
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
    print("protocol: the ULC corpus repeated to \(corpus.caseCount) cases")

    func measure(_ label: String, _ implementation: some Implementation) async {
        var judged = 0
        var passes = 0
        let start = ContinuousClock.now
        do {
            try await runner.run(implementation) { batch in
                judged += batch.count
                passes += batch.filter { $0.outcome == .pass || $0.outcome == .informational }.count
            }
        } catch {
            print("  \(label): failed: \(error)")
            return
        }
        let seconds = start.duration(to: ContinuousClock.now).seconds
        let note = passes == judged ? "" : "   (\(judged - passes) not passed!)"
        let padded = label.padding(toLength: 32, withPad: " ", startingAt: 0)
        print(String(format: "  %@ %10.0f cases/s   (%.2f s)   peak RSS so far %.0f MB%@",
                     padded as NSString, Double(judged) / seconds, seconds, peakRSSMegabytes(), note as NSString))
    }

    await measure("in process", SwiftImplementation.reference)
    for window in [1, 64] {
        let adapter = AdapterImplementation(AdapterConfiguration(name: "reference over the protocol", arguments: [binary, "adapter"],
                                                                 timeout: .seconds(30), window: window))
        do {
            _ = try await adapter.start()
        } catch {
            print("  adapter did not start: \(error)")
            return
        }
        await measure("adapter protocol, window \(window)", adapter)
        await adapter.stop()
    }
    print("  targets: in process >= 300000 cases/s; protocol with a window >= 30000 cases/s; harness peak RSS <= 150 MB")
}

/// This process's peak resident set size, in megabytes.
func peakRSSMegabytes() -> Double {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576   // bytes on Darwin
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024        // kilobytes on Linux
    #endif
}

/// Only the in-process run of the repeated corpus: for a profiler.
func profileInProcess(count: Int) async {
    let corpus = Corpus.load(from: "Corpus").repeated(to: count)
    var n = 0
    _ = try? await Runner(corpus: corpus).run(SwiftImplementation.reference) { n += $0.count }
    print(n)
}
