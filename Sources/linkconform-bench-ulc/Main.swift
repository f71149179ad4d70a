// linkconform-bench-ulc: the ULC module next to a Foundation URLComponents extraction of the
// same fields, measured side by side in one process (also run by `linkconform-bench ulc` and
// `linkconform-bench all`).
//
//   linkconform-bench-ulc [count]                  the comparison (default 20,000 links)
//   linkconform-bench-ulc profile [count]          only the module's loop, for a profiler
//   linkconform-bench-ulc profile-foundation [count]   only the Foundation loop
import BenchSupport
import Foundation

@main
struct Main {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        let count = benchCount(arguments, default: 20_000)
        switch arguments.first {
        case "profile": profileULC(count: count)
        case "profile-foundation": profileFoundation(count: count)
        case nil, _ where Int(arguments.first!) != nil: benchULC(count: count)
        default:
            print("usage: linkconform-bench-ulc [profile | profile-foundation] [count]")
            exit(64)
        }
    }
}
