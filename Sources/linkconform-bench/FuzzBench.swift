import AdapterHarness
import Conformance
import DifferentialFuzzing
import Foundation
import ResultsStore
import RunSession

/// Differential fuzzing throughput, `seconds` per figure, window 64: against `linkconform
/// adapter` (the reference over the protocol: every input agrees), on every operation and on
/// `ulc.parse` alone; against the do-nothing adapter (nearly every input disagrees) without and
/// with the store, minimising nothing, so the difference is what storing findings costs; and
/// against each bundled adapter (Adapters/*/adapter.json): its own rate (nothing minimised or
/// stored), then as `linkconform fuzz` runs it (new signatures minimised through it beside the
/// stream, which takes its share of the adapter).
func benchFuzz(seconds: Double) async {
    let corpus = Corpus.load(from: "Corpus")
    guard corpus.errors.isEmpty else { return print("fuzz: the corpus has errors; run `linkconform corpus lint`") }
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("linkconform").path
    guard FileManager.default.isExecutableFile(atPath: binary) else { return print("fuzz: \(binary) is missing; build it first (swift build -c release)") }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkconform-fuzz-bench-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let everyOperation = SuiteRegistry.all.flatMap(\.operations).map(\.name)
    print("fuzz: differential fuzzing, \(seconds.formatted()) s a figure, window 64")

    @discardableResult
    func fuzz(_ label: String, _ configuration: AdapterConfiguration, operations: [String], stored: Bool, minimise: Int = 2_000) async -> Double? {
        let adapter = AdapterImplementation(configuration)
        defer { Task { await adapter.stop() } }
        guard let info = try? await adapter.start() else {
            print("  \(label): did not start")
            return nil
        }
        let store = stored ? try? ResultsStore(path: directory + "/\(UUID().uuidString).sqlite") : nil
        var options = DifferentialFuzzer.Options(seed: 1, seconds: seconds, window: 64)
        options.minimiseTrials = minimise
        // The rate is of fuzzing alone; the corpus pass would only add its own start-up time.
        options.corpusPass = false
        let fuzzer = DifferentialFuzzer(corpus: corpus, operations: operations.filter(adapter.supports), implementation: adapter,
                                        info: info, store: store, options: options)
        guard let summary = try? await fuzzer.run() else {
            print("  \(label): the store failed")
            return nil
        }
        let s = summary.stats
        let padded = label.padding(toLength: 44, withPad: " ", startingAt: 0)
        print(String(format: "  %@ %8.0f inputs/s  (%d inputs, %d disagreements, %d signatures%@)", padded as NSString, s.rate, s.inputs,
                     s.disagreements, s.signatures, (store == nil ? "" : ", stored") as NSString))
        return s.rate
    }

    func reference() -> AdapterConfiguration {
        AdapterConfiguration(name: "reference over the protocol", arguments: [binary, "adapter"], timeout: .seconds(30), window: 64)
    }
    let all = await fuzz("reference adapter, every operation", reference(), operations: everyOperation, stored: true)
    let parse = await fuzz("reference adapter, ulc.parse", reference(), operations: ["ulc.parse"], stored: true)
    for name in ["aasa.validate", "aasa.match", "xignqr.pid"] {
        await fuzz("reference adapter, \(name)", reference(), operations: [name], stored: true)
    }

    if case .success(let doNothing) = HarnessCeiling.buildDoNothingAdapter(in: directory, corpus: corpus) {
        let config = AdapterConfiguration(name: "do-nothing", arguments: [doNothing], timeout: .seconds(30), window: 64)
        let bare = await fuzz("do-nothing adapter, ulc.parse, not stored", config, operations: ["ulc.parse"], stored: false, minimise: 0)
        let kept = await fuzz("do-nothing adapter, ulc.parse, stored", config, operations: ["ulc.parse"], stored: true, minimise: 0)
        if let bare, let kept { print(String(format: "  storing findings: %.0f%% of the rate without a store", 100 * kept / bare)) }
    }

    let manifests = ((try? FileManager.default.contentsOfDirectory(atPath: "Adapters")) ?? []).sorted()
        .map { "Adapters/\($0)/adapter.json" }.filter { FileManager.default.fileExists(atPath: $0) }
    for path in manifests {
        guard case .success(let manifest) = AdapterManifest.load(path) else { print("  \(path): not a manifest"); continue }
        var configuration = manifest.configuration
        configuration.window = 64
        configuration.maxRestarts = 1_000
        if let prepare = manifest.prepare, let failure = Preparation.run(prepare, in: configuration.workingDirectory) {
            print("  \(configuration.name): not prepared: \(failure.prefix(300))")
            continue
        }
        await fuzz("\(configuration.name) (not minimising, not stored)", configuration, operations: everyOperation, stored: false, minimise: 0)
        await fuzz("\(configuration.name) (minimising, stored)", configuration, operations: everyOperation, stored: true)
    }
    print(String(format: "  target: >= 20000 inputs/s against the reference adapter (every operation: %.0f; ulc.parse: %.0f)", all ?? 0, parse ?? 0))
}
