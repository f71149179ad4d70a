// linkconform-bench-xignqr: the XignQR redirect check and pid decoder next to Foundation
// (URLComponents, Data(base64Encoded:)), side by side in one process (also run by
// `linkconform-bench xignqr` and `all`).
//
//   linkconform-bench-xignqr [count]               the comparison (default 20,000 links and pids)
//   linkconform-bench-xignqr profile-pid [count]   only the pid decoder's loop, for a profiler
import BenchSupport
import Foundation

@main
struct Main {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        let count = benchCount(arguments, default: 20_000)
        switch arguments.first {
        case "profile-pid": profileXignPID(count: count)
        case nil, _ where Int(arguments.first!) != nil: benchXignQR(count: count)
        default:
            print("usage: linkconform-bench-xignqr [profile-pid] [count]")
            exit(64)
        }
    }
}
