import Foundation
import ResultsStore

/// The history chart of the HTML report: the pass rate of each implementation over the last
/// runs, one panel per suite, drawn as inline SVG (no script, no external file). A point is a
/// run in which the implementation judged cases of the suite; a red triangle under a point marks
/// cases that got worse since the implementation's previous run, a green one above it cases
/// that got better. Every point has a `<title>` with its numbers, which browsers show on hover.
///
/// Filled from ``ResultsStore/history(runs:through:)``; implementations are told apart by name
/// (their colour is their place in ``implementations``).
struct TrendChart {
    struct Run: Sendable {
        let id: Int64
        let startedAt: String
        let status: RunStatus
        let gitCommit: String?
    }

    struct Point: Sendable {
        /// Index into ``TrendChart/runs``.
        let run: Int
        let counts: HistoryPoint

        var rate: Double? { counts.passRate }
    }

    struct Line: Sendable {
        /// Index into ``TrendChart/implementations``.
        let implementation: Int
        var points: [Point]
    }

    struct Panel: Sendable {
        let suite: String
        var lines: [Line]
    }

    /// The runs along the x axis, oldest first.
    let runs: [Run]
    /// Implementation names, in colour order.
    let implementations: [String]
    let panels: [Panel]

    /// The chart of `history`; implementations named in `first` (the reported run's, in its
    /// order) come first, so that they keep the colours the rest of the report gives them.
    init(history: [HistoryPoint], first: [String]) {
        var runs: [Run] = []
        var runIndex: [Int64: Int] = [:]
        var names = first
        var panels: [Panel] = []
        for point in history {
            if runIndex[point.runID] == nil {
                runIndex[point.runID] = runs.count
                runs.append(Run(id: point.runID, startedAt: point.startedAt, status: point.status, gitCommit: point.gitCommit))
            }
            if !names.contains(point.implementation) { names.append(point.implementation) }
            let implementation = names.firstIndex(of: point.implementation)!
            let p = panels.firstIndex { $0.suite == point.suite } ?? panels.count
            if p == panels.count { panels.append(Panel(suite: point.suite, lines: [])) }
            let l = panels[p].lines.firstIndex { $0.implementation == implementation } ?? panels[p].lines.count
            if l == panels[p].lines.count { panels[p].lines.append(Line(implementation: implementation, points: [])) }
            panels[p].lines[l].points.append(Point(run: runIndex[point.runID]!, counts: point))
        }
        self.runs = runs
        implementations = names
        // A line with nothing judged in any run (a suite the implementation skips) says nothing.
        self.panels = panels.map { panel in
            Panel(suite: panel.suite, lines: panel.lines.filter { $0.points.contains { $0.rate != nil } })
        }.filter { !$0.lines.isEmpty }
    }

    // MARK: drawing

    static let width = 560.0, height = 210.0
    static let left = 46.0, right = 18.0, top = 20.0, bottom = 38.0

    /// The panel's y axis: from a round rate below every rate drawn (so that rates close
    /// together stay apart) to 100 %, in steps of 5, 10, 20 or 25 points, at most six of them.
    func axis(_ panel: Panel) -> (floor: Double, step: Double) {
        let lowest = max(0, (panel.lines.flatMap(\.points).compactMap(\.rate).min() ?? 0) - 0.02)
        let step = [0.05, 0.1, 0.2, 0.25].first { (1 - lowest) / $0 <= 6 } ?? 0.25
        return ((lowest / step).rounded(.down) * step, step)
    }

    func x(_ run: Int) -> Double {
        let plot = Self.width - Self.left - Self.right
        return runs.count == 1 ? Self.left + plot / 2 : Self.left + plot * Double(run) / Double(runs.count - 1)
    }

    func y(_ rate: Double, floor: Double) -> Double {
        let plot = Self.height - Self.top - Self.bottom
        return Self.top + plot * (1 - (rate - floor) / (1 - floor))
    }

    /// One panel as an `<svg>` element. Every text from outside (names, versions, commits)
    /// goes through ``Escaping``.
    func svg(_ panel: Panel) -> String {
        let (low, step) = axis(panel)
        var out = #"<svg class="trend" viewBox="0 0 \#(Int(Self.width)) \#(Int(Self.height))" role="img" aria-label="\#(Escaping.htmlAttribute("Pass rate per implementation in \(panel.suite), runs \(runs.first?.id ?? 0) to \(runs.last?.id ?? 0)"))">"#
        // The grid: a line per step from the floor to 100 %.
        for tick in 0...Int(((1 - low) / step).rounded()) {
            let rate = low + Double(tick) * step
            let yy = y(rate, floor: low)
            out += #"<line class="grid" x1="\#(f(Self.left))" x2="\#(f(Self.width - Self.right))" y1="\#(f(yy))" y2="\#(f(yy))"/>"#
            out += #"<text class="axis" x="\#(f(Self.left - 6))" y="\#(f(yy + 4))" text-anchor="end">\#(String(format: "%.0f%%", rate * 100))</text>"#
        }
        // Run labels: every one when they fit, else every k-th counting back from the last.
        let every = max(1, Int((Double(runs.count) / 12).rounded(.up)))
        for (i, run) in runs.enumerated() where (runs.count - 1 - i) % every == 0 {
            let status = run.status == .completed ? "" : " (\(run.status.rawValue))"
            out += #"<text class="axis\#(run.status == .completed ? "" : " partial")" x="\#(f(x(i)))" y="\#(f(Self.height - Self.bottom + 16))" text-anchor="middle">#\#(run.id)<title>\#(Escaping.html("run \(run.id)\(status), \(run.startedAt)" + (run.gitCommit.map { ", commit \($0.prefix(12))" } ?? "")))</title></text>"#
        }
        out += #"<text class="axis" x="\#(f(Self.left + (Self.width - Self.left - Self.right) / 2))" y="\#(f(Self.height - 6))" text-anchor="middle">run</text>"#
        // Points, triangles and their counts shrink as runs crowd the axis; beyond a dozen runs
        // the counts are left to the points' titles.
        let crowded = runs.count > 12
        let dot = crowded ? 3.0 : 4.0, mark = crowded ? 3.5 : 5.0, counted = !crowded
        let sizes = radii(panel, dot: dot, ring: crowded ? 1.6 : 2.2, floor: low)
        for (l, line) in panel.lines.enumerated() {
            let series = "s\(line.implementation % Self.colours)"
            // The line breaks where the implementation judged nothing or was not in the run.
            var segments: [[Point]] = [[]]
            var previous: Int?
            for point in line.points {
                if point.rate == nil || (previous.map { point.run != $0 + 1 } ?? false) { segments.append([]) }
                if point.rate != nil { segments[segments.count - 1].append(point) }
                previous = point.run
            }
            for segment in segments where segment.count > 1 {
                let d = segment.enumerated().map { i, p in (i == 0 ? "M" : "L") + f(x(p.run)) + " " + f(y(p.rate!, floor: low)) }
                out += #"<path class="line \#(series)" d="\#(d.joined(separator: " "))"/>"#
            }
            for (p, point) in line.points.enumerated() {
                guard let rate = point.rate else { continue }
                let px = x(point.run), py = y(rate, floor: low), c = point.counts, dot = sizes[l][p]
                var title = "\(implementations[line.implementation]) \(c.version), \(panel.suite), run \(runs[point.run].id): "
                    + "\(c.passed) of \(c.judged) passed (\(c.passCount.percentText ?? "-"))"
                let moves = (c.regressions > 0 ? ["\(c.regressions) worse"] : []) + (c.fixes > 0 ? ["\(c.fixes) better"] : [])
                if !moves.isEmpty { title += "; " + moves.joined(separator: ", ") + " than in its previous run" }
                out += #"<g class="pt"><title>\#(Escaping.html(title))</title><circle class="dot \#(series)" cx="\#(f(px))" cy="\#(f(py))" r="\#(f(dot))"/>"#
                if c.regressions > 0 {
                    out += #"<path class="regression" d="M\#(f(px - mark)) \#(f(py + dot + 3)) L\#(f(px + mark)) \#(f(py + dot + 3)) L\#(f(px)) \#(f(py + dot + 3 + 1.6 * mark)) Z"/>"#
                    if counted { out += #"<text class="mark regression" x="\#(f(px + mark + 2))" y="\#(f(py + dot + 3 + 1.6 * mark))">\#(c.regressions)</text>"# }
                }
                if c.fixes > 0 {
                    out += #"<path class="fix" d="M\#(f(px - mark)) \#(f(py - dot - 3)) L\#(f(px + mark)) \#(f(py - dot - 3)) L\#(f(px)) \#(f(py - dot - 3 - 1.6 * mark)) Z"/>"#
                    if counted { out += #"<text class="mark fix" x="\#(f(px + mark + 2))" y="\#(f(py - dot - 4))">\#(c.fixes)</text>"# }
                }
                out += "</g>"
            }
        }
        return out + "</svg>"
    }

    /// The radius of each point of each line (indexed as `panel.lines[l].points[p]`). Points
    /// of several lines that fall on one spot (equal pass rates in one run, as when every
    /// implementation passes everything) would hide each other, so they become rings: the line
    /// drawn first gets the widest, each later one `ring` less, down to `dot` for the last,
    /// which is drawn on top. Each ring keeps its own title.
    func radii(_ panel: Panel, dot: Double, ring: Double, floor: Double) -> [[Double]] {
        struct Spot: Hashable { let run: Int, y: Int }
        func spot(_ point: Point) -> Spot? {
            point.rate.map { Spot(run: point.run, y: Int((y($0, floor: floor) * 2).rounded())) }
        }
        var sharing: [Spot: Int] = [:]
        for line in panel.lines {
            for point in line.points { if let s = spot(point) { sharing[s, default: 0] += 1 } }
        }
        var drawn: [Spot: Int] = [:]
        return panel.lines.map { line in
            line.points.map { point in
                guard let s = spot(point) else { return dot }
                let before = drawn[s, default: 0]
                drawn[s] = before + 1
                return dot + ring * Double(sharing[s, default: 1] - 1 - before)
            }
        }
    }

    /// How many series colours the style sheet defines (`.s0` to `.s7`); further
    /// implementations reuse them.
    static let colours = 8

    private func f(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
