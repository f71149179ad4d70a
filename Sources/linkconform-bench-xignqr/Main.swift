// linkconform-bench-xignqr: the XignQR redirect check and pid decoder next to Foundation
// (URLComponents, Data(base64Encoded:)), side by side in one process (also run by
// `linkconform-bench xignqr` and `all`).
//
//   linkconform-bench-xignqr [count]               the comparison (default 20,000 links and pids)
//   linkconform-bench-xignqr profile-pid [count]   only the pid decoder's loop, for a profiler
import BenchSupport

@main
struct Main {
    static func main() {
        benchMain("linkconform-bench-xignqr", compare: benchXignQR(count:), profiles: [("profile-pid", profileXignPID(count:))])
    }
}
