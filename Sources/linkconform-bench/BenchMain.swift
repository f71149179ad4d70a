import Foundation

// linkconform-bench: figures measured side by side in one process.
//
//   swift run -c release linkconform-bench ulc [count]   ULC module vs a Foundation URLComponents extraction
//   swift run -c release linkconform-bench xcallback [count]   XCallbackURL module vs the same with Foundation
//   swift run -c release linkconform-bench xignqr [count]      XignQR redirect and pid decoder vs Foundation
//   swift run -c release linkconform-bench suite          wall time of the whole corpus, in process
//   swift run -c release linkconform-bench protocol [n]   corpus repeated to n cases: in process, and over the adapter protocol
//   swift run -c release linkconform-bench                both
//
// Each figure is the best of several rounds (the machines are noisy; the best round is the
// least disturbed one). Ratios compare rounds measured in the same run. The work runs in
// nonisolated functions (not in main-actor top-level code), as a library caller would.

@main
struct BenchMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let mode = arguments.first ?? "all"
        let count = arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
        switch mode {
        case "ulc": benchULC(count: count)
        case "xcallback": benchXCallback(count: count)
        case "xignqr": benchXignQR(count: count)
        case "suite": await benchSuite()
        case "protocol": await benchProtocol(count: arguments.dropFirst().first.flatMap(Int.init) ?? 100_000)
        case "all":
            benchULC(count: count)
            benchXCallback(count: count)
            benchXignQR(count: count)
            await benchSuite()
            await benchProtocol(count: 100_000)
        case "profile-ulc": profileULC(count: count)
        case "profile-xcallback": profileXCallback(count: count)
        case "profile-xignqr-pid": profileXignPID(count: count)
        case "profile-foundation": profileFoundation(count: count)
        case "profile-inprocess": await profileInProcess(count: arguments.dropFirst().first.flatMap(Int.init) ?? 100_000)
        case "profile-stored": await profileStored(count: arguments.dropFirst().first.flatMap(Int.init) ?? 100_000)
        case "profile-protocol":
            await profileProtocol(window: arguments.dropFirst().first.flatMap(Int.init) ?? 64,
                                  count: arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000)
        default:
            print("usage: linkconform-bench [ulc [count] | xcallback [count] | xignqr [count] | suite | protocol [count] | all | profile-ulc [count] | profile-foundation [count]]")
            exit(64)
        }
    }
}
