import Foundation

// What every benchmark executable shares: side-by-side timing in alternating rounds, rates and
// the comparison lines they print, and the count argument.

/// Times two bodies in alternating rounds (A, B, A, B, ...), so that a burst of noise on this
/// shared machine hits both alike, and returns each one's best round and the median of the
/// per-round ratios B/A, in seconds.
public func sideBySide(rounds: Int = 25, _ a: () -> Int, _ b: () -> Int) -> (a: Double, b: Double, medianRatio: Double) {
    func time(_ body: () -> Int) -> Double {
        let start = ContinuousClock.now
        let checksum = body()
        let elapsed = start.duration(to: ContinuousClock.now)
        if checksum == Int.min { print("") }   // keeps the work observable
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
    var bestA = Double.infinity, bestB = Double.infinity
    var ratios: [Double] = []
    for _ in 0..<rounds {
        let ta = time(a), tb = time(b)
        bestA = min(bestA, ta)
        bestB = min(bestB, tb)
        ratios.append(tb / ta)
    }
    ratios.sort()
    return (bestA, bestB, ratios[ratios.count / 2])
}

public func rate(_ n: Int, _ seconds: Double, unit: String = "links") -> String {
    String(format: "%10.0f", Double(n) / seconds) + " \(unit)/s"
}


/// How this executable was built, printed with its figures: the same code runs 10-20% faster
/// in the parser comparisons when built with link-time and cross-module optimisation
/// (`scripts/bench.sh`, docs/benchmarks.md "2026-11-28, afternoon"), so a figure says which
/// build gave it.
public var benchBuild: String {
    #if LINKCONFORM_BENCH_LTO
    "release, link-time and cross-module optimisation (scripts/bench.sh)"
    #elseif DEBUG
    "debug: these figures say nothing; build with -c release, or use scripts/bench.sh"
    #else
    "release, no link-time optimisation (swift build -c release; scripts/bench.sh builds with it)"
    #endif
}

/// Prints a side-by-side parsing comparison: rates, best-round ratio and median ratio.
public func printComparison(_ title: String, ours: String, theirs: String, count: Int,
                     _ timing: (a: Double, b: Double, medianRatio: Double), target: String = "", unit: String = "links") {
    print(title)
    print("  build: \(benchBuild)")
    print("  \(ours.padding(toLength: 38, withPad: " ", startingAt: 0)) \(rate(count, timing.a, unit: unit))   (best round \(String(format: "%.1f", timing.a * 1e3)) ms)")
    print("  \(theirs.padding(toLength: 38, withPad: " ", startingAt: 0)) \(rate(count, timing.b, unit: unit))   (best round \(String(format: "%.1f", timing.b * 1e3)) ms)")
    print(String(format: "  ratio of best rounds                   %10.1fx   ", timing.b / timing.a) + target)
    print(String(format: "  median of per-round ratios             %10.1fx", timing.medianRatio))
}

/// This process's peak resident set size, in megabytes.
public func peakRSSMegabytes() -> Double {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576   // bytes on Darwin
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024        // kilobytes on Linux
    #endif
}

/// This process's resident set size now, in megabytes (`/proc/self/statm`; where there is no
/// such file, the peak so far).
public func currentRSSMegabytes() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return peakRSSMegabytes() }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return peakRSSMegabytes() }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// The count of inputs a benchmark was asked for (its first numeric argument), or `fallback`.
public func benchCount(_ arguments: ArraySlice<String>, default fallback: Int) -> Int {
    arguments.lazy.compactMap { Int($0) }.first ?? fallback
}

/// The main of a suite's benchmark executable: `NAME [count]` runs the comparison,
/// `NAME MODE [count]` one of the profile loops; anything else prints the usage and exits 64.
///
/// ```swift
/// benchMain("linkconform-bench-ulc", compare: benchULC, profiles: [("profile", profileULC)])
/// ```
public func benchMain(_ name: String, compare: (Int) -> Void, profiles: [(mode: String, run: (Int) -> Void)],
                      defaultCount: Int = 20_000) -> Never {
    let arguments = CommandLine.arguments.dropFirst()
    let count = benchCount(arguments, default: defaultCount)
    if let first = arguments.first, Int(first) == nil {
        guard let profile = profiles.first(where: { $0.mode == first }) else {
            print("usage: \(name) [\(profiles.map(\.mode).joined(separator: " | "))] [count]")
            exit(64)
        }
        profile.run(count)
    } else {
        compare(count)
    }
    exit(0)
}
