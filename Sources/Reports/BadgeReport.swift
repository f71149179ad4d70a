import Conformance
import Foundation
import LinkJSON
import ResultsStore

/// Badges for a README or a project page: for each implementation, one per suite and one for
/// all suites, each as an SVG file and as the JSON an endpoint badge of shields.io reads
/// (`{"schemaVersion": 1, "label", "message", "color"}`), so a project can either commit the
/// SVG or point `https://img.shields.io/endpoint?url=...` at the published JSON.
///
/// Written into `badges/` of the reports folder: `<implementation>.svg|json` and
/// `<implementation>-<suite>.svg|json`, names made of `a-z`, `0-9` and `-` only (see
/// ``fileStem(_:)``), and `badges/index.json`, which says which file shows what, and whether the
/// run was incomplete.
///
/// A badge shows a pass rate only over every case it stands for. When the run is incomplete
/// (interrupted, killed, failed) and some of those cases have no result, it says so instead, in
/// blue: `incomplete: 154 of 1,674 cases run` (a rate over the cases that happened to run first
/// would read as tonight's score). An implementation the run was started with but never reached
/// gets its badges all the same, `incomplete: 0 of N cases run`, so an endpoint pointed at them
/// finds them; one that never started says `did not start`, in red.
public enum BadgeReport {
    public struct Badge: Sendable, Hashable {
        public let implementation: String
        /// nil: every suite.
        public let suite: String?
        public let label: String
        public let message: String
        /// A shields.io colour name, and the colour drawn in the SVG.
        public let color: String
        public let fileStem: String
        public var state: State = .complete

        public var hex: String { BadgeReport.palette[color] ?? "#9f9f9f" }
    }

    /// Whether a badge shows a result over every case it stands for (`index.json`'s `state`).
    public enum State: String, Sendable, Hashable {
        /// Every case has a result: the pass rate (or "not judged").
        case complete
        /// The run is incomplete and some of the cases have no result.
        case incomplete
        /// The implementation never started.
        case notStarted = "did-not-start"
    }

    /// Shields' named colours used here, with the values its badges draw.
    static let palette: [String: String] = [
        "brightgreen": "#4c1", "green": "#97ca00", "yellowgreen": "#a4a61d", "yellow": "#dfb317",
        "orange": "#fe7d37", "red": "#e05d44", "lightgrey": "#9f9f9f", "blue": "#007ec6",
    ]

    /// The colour of a pass rate: all passed is bright green; then green, yellow-green, yellow,
    /// orange and red at 95, 85, 70 and 50 percent; nothing judged is grey.
    public static func color(_ count: PassCount) -> String {
        guard let rate = count.rate else { return "lightgrey" }
        if count.passed == count.judged { return "brightgreen" }
        switch rate {
        case 0.95...: return "green"
        case 0.85...: return "yellowgreen"
        case 0.70...: return "yellow"
        case 0.50...: return "orange"
        default: return "red"
        }
    }

    /// "97.2% (281/289)", "100% (12/12)", or "not judged".
    public static func message(_ count: PassCount) -> String {
        guard let percent = count.percentText else { return "not judged" }
        return "\(percent) (\(count.passed)/\(count.judged))"
    }

    /// The message of every badge of an implementation that never started, in red.
    public static let notStarted = "did not start"

    /// What one badge says: of `counts`, the results of an implementation (in one suite or in
    /// all) that started or not; `missing` of its cases have no result in an incomplete run
    /// (nil: the run is incomplete and how many is not known; 0: none, or the run completed).
    static func says(_ counts: [Outcome: Int], started: Bool, missing: Int?) -> (message: String, color: String, state: State) {
        guard started else { return (notStarted, "red", .notStarted) }
        guard let missing else { return ("incomplete run", "blue", .incomplete) }
        guard missing == 0 else {
            let ran = counts.values.reduce(0, +)
            return ("incomplete: \(HTMLReport.grouped(ran)) of \(HTMLReport.grouped(ran + missing)) cases run", "blue", .incomplete)
        }
        let count = PassCount(counts)
        return (message(count), color(count), .complete)
    }

    /// Every badge of a run, in the order of its implementations, the all-suites badge first;
    /// then, for an incomplete run, those of the implementations it never reached.
    public static func badges(_ data: ReportData) -> [Badge] {
        var badges: [Badge] = []
        // Every file name is claimed once: two names that read the same once made safe ("a b",
        // "a-b"), or one implementation's suite badge and another's name ("x" with suite ulc,
        // "x ulc"), get distinct files; index.json says which is which.
        var usedStems: Set<String> = []
        func claim(_ candidate: String) -> String {
            var stem = candidate
            var n = 2
            while usedStems.contains(stem) {
                stem = "\(candidate)-\(n)"
                n += 1
            }
            usedStems.insert(stem)
            return stem
        }
        let incomplete = data.incomplete
        let known = incomplete?.corpusCases != nil
        // Cases without a result, in all suites or in one; 0 for a completed run.
        func missing(_ gap: IncompleteRun.Gap?, suite: String?) -> Int? {
            guard incomplete != nil else { return 0 }
            guard known else { return nil }
            guard let suite else { return gap?.casesWithoutResult ?? incomplete?.corpusCases }
            return gap.map { $0.withoutResultBySuite[suite] ?? 0 } ?? incomplete?.corpusCasesBySuite[suite]
        }
        // A run of some suites only (`run --suite`) says which on its all-suites badges: its rate
        // is not the one over every suite that the same badge of a whole run shows.
        let ran = data.run.suites
        let some = !ran.isEmpty && Set(ran) != Set(SuiteRegistry.all.map(\.name))
        let scope = some ? " (" + ran.map { Escaping.terminal($0) }.joined(separator: ", ") + ")" : ""
        func add(_ implementation: String, stem: String, counts: [(suite: String, counts: [Outcome: Int])], started: Bool,
                 gap: IncompleteRun.Gap?) {
            // One line, hidden characters shown (as the terminal shows them): a badge is read
            // by people, in the SVG and through shields.io alike.
            let name = Escaping.terminal(String(implementation.prefix(40)))
            var all: [Outcome: Int] = [:]
            for row in counts { all.merge(row.counts, uniquingKeysWith: +) }
            let overall = says(all, started: started, missing: missing(gap, suite: nil))
            badges.append(Badge(implementation: implementation, suite: nil, label: "\(name) conformance\(scope)", message: overall.message,
                                color: overall.color, fileStem: stem, state: overall.state))
            for row in counts {
                let one = says(row.counts, started: started, missing: missing(gap, suite: row.suite))
                badges.append(Badge(implementation: implementation, suite: row.suite, label: "\(name) \(Escaping.terminal(row.suite))",
                                    message: one.message, color: one.color, fileStem: claim("\(stem)-\(fileStem(row.suite))"),
                                    state: one.state))
            }
        }
        // The suites of the run's corpus, in registry order: an incomplete run may not have
        // reached some of them for an implementation.
        var suites: [String] = []
        for requirement in data.requirements where !suites.contains(requirement.suite) { suites.append(requirement.suite) }
        for suite in (incomplete?.corpusCasesBySuite.keys.sorted() ?? []) where !suites.contains(suite) { suites.append(suite) }
        for implementation in data.implementations {
            var rows = data.summary.filter { $0.implementationID == implementation.id }.map { (suite: $0.suite, counts: $0.counts) }
            let gap = incomplete?.implementations.first { $0.implementationID == implementation.id }
            for suite in suites where !rows.contains(where: { $0.suite == suite }) && (gap?.withoutResultBySuite[suite] ?? 0) > 0 {
                rows.append((suite, [:]))
            }
            add(implementation.info.name, stem: claim(fileStem(implementation.info.name)), counts: rows,
                started: implementation.status != .failedToStart, gap: gap)
        }
        for name in incomplete?.namesNotReached ?? [] {
            let rows = suites.filter { (incomplete?.corpusCasesBySuite[$0] ?? 0) > 0 }.map { (suite: $0, counts: [Outcome: Int]()) }
            add(name, stem: claim(fileStem(name)), counts: rows, started: true, gap: nil)
        }
        return badges
    }

    /// A file name made of what a name holds of `a-z` and `0-9` (lower-cased), runs of anything
    /// else turned into one `-`; "implementation" when nothing is left.
    public static func fileStem(_ name: String) -> String {
        let stem = FileNames.lowercaseStem(name)
        return stem.isEmpty ? "implementation" : stem
    }

    /// The endpoint JSON shields.io reads.
    public static func endpointJSON(_ badge: Badge) -> JSONValue {
        ["schemaVersion": 1, "label": .string(badge.label), "message": .string(badge.message), "color": .string(badge.color)]
    }

    /// A flat badge in the shields.io look: a grey label and a coloured message, text in
    /// Verdana 11 px with a shadow, widths from an estimate of each character's advance.
    public static func svg(_ badge: Badge) -> String {
        let labelWidth = textWidth(badge.label) + 10, messageWidth = textWidth(badge.message) + 10
        let width = labelWidth + messageWidth
        let label = Escaping.xml(badge.label), message = Escaping.xml(badge.message)
        let title = Escaping.xml("\(badge.label): \(badge.message)")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="20" role="img" aria-label="\(title)">\
            <title>\(title)</title>\
            <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>\
            <clipPath id="r"><rect width="\(width)" height="20" rx="3" fill="#fff"/></clipPath>\
            <g clip-path="url(#r)"><rect width="\(labelWidth)" height="20" fill="#555"/>\
            <rect x="\(labelWidth)" width="\(messageWidth)" height="20" fill="\(badge.hex)"/>\
            <rect width="\(width)" height="20" fill="url(#s)"/></g>\
            <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">\
            <text x="\(labelWidth / 2)" y="15" fill="#010101" fill-opacity=".3">\(label)</text>\
            <text x="\(labelWidth / 2)" y="14">\(label)</text>\
            <text x="\(labelWidth + messageWidth / 2)" y="15" fill="#010101" fill-opacity=".3">\(message)</text>\
            <text x="\(labelWidth + messageWidth / 2)" y="14">\(message)</text></g></svg>

            """
    }

    /// Approximate advance of `text` in Verdana 11 px, in whole pixels (narrow, wide and
    /// ordinary characters; anything outside ASCII counts as wide).
    static func textWidth(_ text: String) -> Int {
        var width = 0.0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "i", "l", "j", "I", "!", "|", ".", ",", ":", ";", "'": width += 3.5
            case " ", "f", "t", "r", "(", ")", "[", "]", "/", "-": width += 4.6
            case "m", "w", "M", "W", "%", "@": width += 10.5
            case _ where scalar.value >= 0x80: width += 9
            case "A"..."Z", "0"..."9", "#", "&", "+", "=", "?", "_": width += 7.6
            default: width += 6.8
            }
        }
        return Int(width.rounded(.up))
    }

    /// Writes every badge of `data` into `directory/badges`, and its index; returns the folder.
    @discardableResult
    public static func write(_ data: ReportData, to directory: String) throws -> String {
        let folder = (directory as NSString).appendingPathComponent("badges")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var index: [JSONValue] = []
        for badge in badges(data) {
            let svgPath = (folder as NSString).appendingPathComponent(badge.fileStem + ".svg")
            let jsonPath = (folder as NSString).appendingPathComponent(badge.fileStem + ".json")
            try Data(svg(badge).utf8).write(to: URL(fileURLWithPath: svgPath), options: .atomic)
            try Data((endpointJSON(badge).serialized(pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: jsonPath), options: .atomic)
            index.append([
                "implementation": .string(badge.implementation), "suite": badge.suite.map(JSONValue.string) ?? .null,
                "svg": .string(badge.fileStem + ".svg"), "endpoint": .string(badge.fileStem + ".json"),
                "message": .string(badge.message), "color": .string(badge.color), "state": .string(badge.state.rawValue),
            ])
        }
        // Badges of implementations no longer in the run go: the folder shows this run only (an
        // implementation an incomplete run never reached is in it, with badges that say so).
        let written = Set(index.flatMap { [$0["svg"]?.stringValue, $0["endpoint"]?.stringValue].compactMap { $0 } })
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where (name.hasSuffix(".svg") || name.hasSuffix(".json")) && name != "index.json" && !written.contains(name) {
            try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
        }
        let summary: JSONValue = ["run": .int(Int(data.run.id)), "incomplete": data.incomplete.map(IncompleteRunReport.json) ?? .null,
                                  "badges": .array(index)]
        try Data((summary.serialized(pretty: true) + "\n").utf8).write(
            to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("index.json")), options: .atomic)
        return folder
    }
}
