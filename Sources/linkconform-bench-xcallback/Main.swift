// linkconform-bench-xcallback: the XCallbackURL module next to a Foundation extraction of the
// same fields, side by side in one process (also run by `linkconform-bench xcallback` and `all`).
//
//   linkconform-bench-xcallback [count]            the comparison (default 20,000 URLs)
//   linkconform-bench-xcallback profile [count]    only the module's loop, for a profiler
import BenchSupport

@main
struct Main {
    static func main() {
        benchMain("linkconform-bench-xcallback", compare: benchXCallback(count:), profiles: [("profile", profileXCallback(count:))])
    }
}
