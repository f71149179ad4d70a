import ResultsStore

extension PassCount {
    /// The pass rate as every report writes it: "100%" only when every judged case passed,
    /// otherwise one decimal rounded down ("99.9%" for 2,499 of 2,500: rounding to the nearest
    /// would say 100.0% of a run that failed a case); nil when nothing was judged.
    public var percentText: String? {
        guard let rate else { return nil }
        if passed == judged { return "100%" }
        return String(format: "%.1f%%", (rate * 1000).rounded(.down) / 10)
    }
}
