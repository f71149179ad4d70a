import Foundation
import BenchSupport

// linkconform-bench: figures measured side by side in one process.
//
// Build everything first (swift build -c release): the suites' benchmarks and the linkconform
// adapter the protocol figure talks to are executables of their own. scripts/bench.sh ARGS builds
// them all with link-time and cross-module optimisation in .build-bench and runs this with ARGS;
// every figure says which build it came from.
//
//   swift run -c release linkconform-bench suite            wall time of the whole corpus, in process
//   swift run -c release linkconform-bench protocol [n]     corpus repeated to n cases: in process, stored, over the adapter protocol
//   swift run -c release linkconform-bench history [runs]    a store of runs (100) x 4 implementations x the corpus: report, compare
//   swift run -c release linkconform-bench fuzz [seconds]    differential fuzzing: reference adapter, do-nothing adapter, bundled adapters
//   swift run -c release linkconform-bench mutations [n]     what making fuzzing inputs costs: each link mutation, each operation's inputs
//   swift run -c release linkconform-bench json [rounds]     reading the corpus's JSON files: plain, and with every value's position
//   swift run -c release linkconform-bench SUITE [args]     a suite's own benchmark: the executable linkconform-bench-SUITE
//                                                           beside this one (every Sources/linkconform-bench-*)
//   swift run -c release linkconform-bench [all]            every suite's benchmark, then suite and protocol
//   profile-inprocess [n], profile-stored [n], profile-protocol [window] [n],
//   profile-do-nothing [window] [n]: one loop each, for a profiler
//
// A suite's benchmark lives with the suite, in an executable of its own (it links only its own
// module): nothing here names a suite. Each figure is the best of several rounds (the machines
// are noisy; the best round is the least disturbed one). Ratios compare rounds measured in the
// same run. The work runs in nonisolated functions (not in main-actor top-level code), as a
// library caller would.

@main
struct BenchMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let mode = arguments.first ?? "all"
        let number = arguments.dropFirst().first.flatMap(Int.init)
        // The modes whose figures this process prints (a suite's bench prints its own build line;
        // profiles and usage messages print none).
        if ["all", "suite", "protocol", "history", "fuzz", "mutations", "json"].contains(mode) {
            print("linkconform-bench: \(benchBuild)")
            fflush(nil)   // before the output of the suite benches `all` runs as children
        }
        switch mode {
        case "suite": await benchSuite()
        case "protocol": await benchProtocol(count: number ?? 100_000)
        case "history": await benchHistory(runs: number ?? 100)
        case "fuzz": await benchFuzz(seconds: number.map(Double.init) ?? 5)
        case "mutations": benchMutations(count: number ?? 20_000)
        case "json": benchJSON(rounds: number ?? 20)
        case "history-generate" where arguments.count == 3:
            await generateHistory(into: arguments[1], runs: Int(arguments[2]) ?? 100)
        case "all":
            if SuiteBenchmarks.all().isEmpty {
                print("no suite benchmarks beside this executable: build them first (swift build -c release)")
            }
            for bench in SuiteBenchmarks.all() { SuiteBenchmarks.run(bench, arguments: number.map { [String($0)] } ?? []) }
            await benchSuite()
            await benchProtocol(count: 100_000)
            await benchFuzz(seconds: 5)
        case "profile-inprocess": await profileInProcess(count: number ?? 100_000)
        case "profile-stored": await profileStored(count: number ?? 100_000)
        case "profile-protocol":
            await profileProtocol(window: number ?? 64, count: arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000)
        case "profile-do-nothing":
            await profileProtocol(window: number ?? 64, count: arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000, doNothing: true)
        default:
            if let bench = SuiteBenchmarks.all().first(where: { $0.suite == mode }) {
                exit(SuiteBenchmarks.run(bench, arguments: Array(arguments.dropFirst())))
            }
            let suites = SuiteBenchmarks.all().map(\.suite).joined(separator: " | ")
            if suites.isEmpty { print("no suite benchmarks beside this executable: build them first (swift build -c release)") }
            print("usage: linkconform-bench [all | suite | protocol [count] | history [runs] | fuzz [seconds] | mutations [count] | json [rounds] | \(suites.isEmpty ? "SUITE" : suites) [args] | profile-inprocess [count] | profile-stored [count] | profile-protocol [window] [count] | profile-do-nothing [window] [count]]")
            exit(64)
        }
    }
}
