// linkconform-bench-ulc: the ULC module next to a Foundation URLComponents extraction of the
// same fields, measured side by side in one process (also run by `linkconform-bench ulc` and
// `linkconform-bench all`).
//
//   linkconform-bench-ulc [count]                  the comparison (default 20,000 links)
//   linkconform-bench-ulc profile [count]          only the module's loop, for a profiler
//   linkconform-bench-ulc profile-foundation [count]   only the Foundation loop
import BenchSupport

@main
struct Main {
    static func main() {
        benchMain("linkconform-bench-ulc", compare: benchULC(count:), profiles: [("profile", profileULC(count:)), ("profile-foundation", profileFoundation(count:))])
    }
}
