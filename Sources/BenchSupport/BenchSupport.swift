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

public func rate(_ n: Int, _ seconds: Double) -> String {
    String(format: "%10.0f links/s", Double(n) / seconds)
}


/// Prints a side-by-side parsing comparison: rates, best-round ratio and median ratio.
public func printComparison(_ title: String, ours: String, theirs: String, count: Int,
                     _ timing: (a: Double, b: Double, medianRatio: Double), target: String = "") {
    print(title)
    print("  \(ours.padding(toLength: 38, withPad: " ", startingAt: 0)) \(rate(count, timing.a))   (best round \(String(format: "%.1f", timing.a * 1e3)) ms)")
    print("  \(theirs.padding(toLength: 38, withPad: " ", startingAt: 0)) \(rate(count, timing.b))   (best round \(String(format: "%.1f", timing.b * 1e3)) ms)")
    print(String(format: "  ratio of best rounds                   %10.1fx   ", timing.b / timing.a) + target)
    print(String(format: "  median of per-round ratios             %10.1fx", timing.medianRatio))
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
