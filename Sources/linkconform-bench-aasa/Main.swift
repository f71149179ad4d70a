// linkconform-bench-aasa: the AASA module's compiled matcher next to a regular-expression
// translation of the same rules (Foundation NSRegularExpression) and next to reading the file
// again for each URL; the worst case (a 4 KB path against patterns that make backtracking
// matchers explode); validating a 128 KB file (also run by `linkconform-bench aasa` and `all`).
//
//   linkconform-bench-aasa [count]                 everything (default 5,000 URLs per file)
//   linkconform-bench-aasa profile-match [count]   only the compiled matcher's loop, for a profiler
//   linkconform-bench-aasa profile-validate        only validating the 128 KB file, for a profiler
//   linkconform-bench-aasa profile-compile [count] only compiling each file into a matcher, for a profiler
import BenchSupport

@main
struct Main {
    static func main() {
        benchMain("linkconform-bench-aasa", compare: benchAASA(count:),
                  profiles: [("profile-match", profileAASAMatch(count:)), ("profile-validate", profileAASAValidate(count:)),
                             ("profile-compile", profileAASACompile(count:))],
                  defaultCount: 5_000)
    }
}
