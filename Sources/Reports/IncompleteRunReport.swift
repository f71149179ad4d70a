import LinkJSON
import ResultsStore

/// How every report and comparison says that a run is incomplete (``IncompleteRun``): one
/// sentence for people, the same facts as JSON for programs. The sentence holds implementation
/// names as they were stored; each format escapes it whole, as it escapes any text from outside.
///
/// ```
/// run 3 is incomplete (interrupted): 78 of the 300 cases it was to run have no result (zoo-slow 78 of 300)
/// ```
public enum IncompleteRunReport {
    public static func sentence(_ run: IncompleteRun) -> String {
        let state = switch run.status {
        case .running: "still running"
        case .failed: "failed"
        default: "interrupted"
        }
        let head = "run \(run.run) is incomplete (\(state)): "
        guard let missing = run.casesWithoutResult, let expected = run.expectedResults, let cases = run.corpusCases else {
            return head + "how many cases have no result is not known (the store does not hold the cases of its corpus)"
        }
        var parts = run.implementations.compactMap { gap in
            gap.casesWithoutResult.flatMap { $0 > 0 ? "\(gap.name) \($0) of \(cases)" : nil }
        }
        if run.implementationsNotReached > 0 {
            let n = run.implementationsNotReached
            let names = run.namesNotReached.count == n ? ": " + run.namesNotReached.joined(separator: ", ") : ""
            parts.append("\(n) implementation\(n == 1 ? "" : "s") it was started with never ran, \(cases) cases each\(names)")
        }
        return head + "\(missing) of the \(expected) cases it was to run \(missing == 1 ? "has" : "have") no result"
            + (parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")")
    }

    /// `{"run", "status", "corpusCases", "casesWithoutResult", "implementations": [{"name",
    /// "casesWithoutResult"}], "implementationsNotReached", "message"}`; counts the store does
    /// not know are null.
    public static func json(_ run: IncompleteRun) -> JSONValue {
        [
            "run": .int(Int(run.run)), "status": .string(run.status.rawValue),
            "corpusCases": run.corpusCases.map(JSONValue.int) ?? .null,
            "casesWithoutResult": run.casesWithoutResult.map(JSONValue.int) ?? .null,
            "implementations": .array(run.implementations.map { gap in
                ["name": .string(gap.name), "casesWithoutResult": gap.casesWithoutResult.map(JSONValue.int) ?? .null]
            }),
            "implementationsNotReached": .int(run.implementationsNotReached),
            "namesNotReached": .array(run.namesNotReached.map(JSONValue.string)),
            "message": .string(sentence(run)),
        ]
    }
}
