import Conformance
import LinkJSON
import ResultsStore

/// A comparison of two runs for people (terminal text, everything from an adapter escaped) and
/// for programs (JSON, every change listed).
public enum ComparisonReport {
    /// Per implementation: a line of counts, then the regressions, fixes, other changes, new and
    /// removed cases and those without a result, each list cut after `limit` entries with a line
    /// saying how many more. Implementations without a change get their line of counts only. A
    /// run that is incomplete is said so first, and again in the last line when it is the later.
    public static func text(_ comparison: RunComparison, limit: Int = 20) -> String {
        var out = "run \(comparison.before) -> run \(comparison.after)"
            + (comparison.strict ? " (strict: nonStrict counts as failing)" : "") + "\n"
        if let before = comparison.beforeIncomplete {
            out += Escaping.terminal(IncompleteRunReport.sentence(before)) + "; a case it has no result for shows as new\n"
        }
        if let after = comparison.afterIncomplete {
            out += Escaping.terminal(IncompleteRunReport.sentence(after)) + "; its cases without a result are neither regressions nor removed\n"
        }
        for implementation in comparison.implementations {
            out += "\n" + Escaping.terminal(implementation.name) + versions(implementation) + ": " + counts(implementation) + "\n"
            for (title, changes) in [("regressions", implementation.regressions), ("fixes", implementation.fixes),
                                     ("other changes", implementation.changed), ("new cases", implementation.new),
                                     ("removed cases", implementation.removed),
                                     ("without a result (run \(comparison.after) is incomplete)", implementation.noResult)] where !changes.isEmpty {
                out += "  \(title):\n"
                for change in changes.prefix(limit) {
                    out += "    " + line(change) + "\n"
                }
                if changes.count > limit { out += "    ... and \(changes.count - limit) more (--limit, or --json for all)\n" }
            }
        }
        let regressions = comparison.regressionCount
        out += "\n" + (regressions == 0 ? "no regressions" : "\(regressions) regression\(regressions == 1 ? "" : "s")")
            + ", \(comparison.fixCount) fix\(comparison.fixCount == 1 ? "" : "es")"
            + (comparison.afterIncomplete == nil ? "" : "; run \(comparison.after) is incomplete, so this is no verdict") + "\n"
        return out
    }

    /// "3 regressions, 1 fix, 0 other changes, 2 new, 0 removed", or what happened to the
    /// implementation as a whole.
    static func counts(_ implementation: ImplementationComparison) -> String {
        let unreached = implementation.noResult.count
        if implementation.isNewImplementation { return "new in this run (\(implementation.new.count) cases)" }
        if implementation.isRemovedImplementation {
            return "not in this run (\(implementation.removed.count + unreached) cases before"
                + (unreached == 0 ? ")" : "; the run is incomplete: \(unreached) of them have no result)")
        }
        return "\(implementation.regressions.count) regression\(implementation.regressions.count == 1 ? "" : "s"), "
            + "\(implementation.fixes.count) fix\(implementation.fixes.count == 1 ? "" : "es"), "
            + "\(implementation.changed.count) other change\(implementation.changed.count == 1 ? "" : "s"), "
            + "\(implementation.new.count) new, \(implementation.removed.count) removed"
            + (unreached == 0 ? "" : ", \(unreached) without a result")
    }

    static func versions(_ implementation: ImplementationComparison) -> String {
        switch (implementation.versionBefore, implementation.versionAfter) {
        case let (before?, after?) where before != after:
            " (" + Escaping.terminal(before.isEmpty ? "-" : before) + " -> " + Escaping.terminal(after.isEmpty ? "-" : after) + ")"
        default: ""
        }
    }

    /// `ulc/some-case (ULC-3 MUST): pass -> fail: message`
    static func line(_ change: CaseChange) -> String {
        var text = Escaping.terminal(change.caseID) + " (" + Escaping.terminal(change.requirementID) + " " + change.level.rawValue + "): "
            + (change.before?.rawValue ?? "-") + " -> " + (change.after?.rawValue ?? "-")
        if let message = change.message, !message.isEmpty, change.kind != .fix {
            text += ": " + Escaping.terminal(String(message.prefix(200)))
        }
        return text
    }

    /// Every change, for programs: `{"before": 3, "after": 4, "strict": false, "regressions": 2,
    /// "fixes": 1, "incomplete": {"before": null, "after": {...}}, "implementations": [{"name",
    /// "versionBefore", "versionAfter", "regressions": [...], ..., "noResult": [...]}]}`, an
    /// incomplete run as ``IncompleteRunReport/json(_:)`` writes it.
    public static func json(_ comparison: RunComparison) -> JSONValue {
        func change(_ c: CaseChange) -> JSONValue {
            [
                "suite": .string(c.suite), "case": .string(c.caseID), "requirement": .string(c.requirementID),
                "level": .string(c.level.rawValue),
                "before": c.before.map { .string($0.rawValue) } ?? .null, "after": c.after.map { .string($0.rawValue) } ?? .null,
                "message": c.message.map(JSONValue.string) ?? .null,
            ]
        }
        let implementations: [JSONValue] = comparison.implementations.map { i in
            [
                "name": .string(i.name),
                "versionBefore": i.versionBefore.map(JSONValue.string) ?? .null,
                "versionAfter": i.versionAfter.map(JSONValue.string) ?? .null,
                "regressions": .array(i.regressions.map(change)), "fixes": .array(i.fixes.map(change)),
                "changed": .array(i.changed.map(change)), "new": .array(i.new.map(change)), "removed": .array(i.removed.map(change)),
                "noResult": .array(i.noResult.map(change)),
            ]
        }
        return [
            "before": .int(Int(comparison.before)), "after": .int(Int(comparison.after)), "strict": .bool(comparison.strict),
            "regressions": .int(comparison.regressionCount), "fixes": .int(comparison.fixCount),
            "incomplete": [
                "before": comparison.beforeIncomplete.map(IncompleteRunReport.json) ?? .null,
                "after": comparison.afterIncomplete.map(IncompleteRunReport.json) ?? .null,
            ],
            "implementations": .array(implementations),
        ]
    }
}
