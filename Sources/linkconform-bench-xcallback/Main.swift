// linkconform-bench-xcallback: the XCallbackURL module next to a Foundation extraction of the
// same fields, side by side in one process (also run by `linkconform-bench xcallback` and `all`).
//
//   linkconform-bench-xcallback [count]            the comparison (default 20,000 URLs)
//   linkconform-bench-xcallback profile [count]    only the module's loop, for a profiler
import BenchSupport
import Foundation

@main
struct Main {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        let count = benchCount(arguments, default: 20_000)
        switch arguments.first {
        case "profile": profileXCallback(count: count)
        case nil, _ where Int(arguments.first!) != nil: benchXCallback(count: count)
        default:
            print("usage: linkconform-bench-xcallback [profile] [count]")
            exit(64)
        }
    }
}
