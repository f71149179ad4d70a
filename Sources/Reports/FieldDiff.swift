import LinkJSON

/// An expectation set against an output member by member: what the HTML report shows for a
/// case that did not pass, so that the member that differs stands out.
///
/// An expectation names only the members its requirement judges, so a member only the output
/// has is listed as not checked rather than as a difference; a member the expectation sets to
/// `null` must be absent (as the comparators read it). The comparator's own verdict is the
/// result's message; this is the raw picture beside it, and it does not know each operation's
/// rules (a `roundTrip` expectation, say, is a property of the output, not one of its members).
///
/// ```swift
/// FieldDiff.rows(expected: ["kind": "ulc", "violations": ["a", "b"]],
///                actual: ["kind": "invalid", "violations": ["b", "a"], "action": "x"])
/// // kind: differs, violations: reordered, action: unchecked
/// ```
enum FieldDiff {
    enum Status: String, Sendable {
        /// Equal (for an expected `null`: absent from the output, as required).
        case same
        /// Both have it, with other values (or the output has a member that must be absent).
        case differs
        /// Both have the same items, in another order (a comparator may read the list as a set).
        case reordered
        /// The expectation names it and the output does not have it.
        case missing
        /// Only the output has it: the requirement does not judge it.
        case unchecked
    }

    struct Row: Sendable {
        /// The member's name, or nil when the output and the expectation are compared whole.
        let field: String?
        let expected: JSONValue?
        let actual: JSONValue?
        let status: Status
    }

    /// The rows: the expectation's members in its order, then the members only the output has.
    /// When either side is not an object, one row compares the two whole.
    static func rows(expected: JSONValue, actual: JSONValue?) -> [Row] {
        guard let wanted = expected.objectValue, let got = actual?.objectValue else {
            return [Row(field: nil, expected: expected, actual: actual, status: status(expected, actual))]
        }
        var rows = wanted.map { member in
            Row(field: member.key, expected: member.value, actual: got[member.key], status: status(member.value, got[member.key]))
        }
        for member in got where wanted[member.key] == nil {
            rows.append(Row(field: member.key, expected: nil, actual: member.value, status: .unchecked))
        }
        return rows
    }

    static func status(_ expected: JSONValue, _ actual: JSONValue?) -> Status {
        // An output's `null` reads as absent (JSONValue's own `nil` literal is `null`, hence `.none`).
        guard let present = actual, !present.isNull else { return expected.isNull ? .same : .missing }
        if expected.isNull { return .differs }
        if present == expected { return .same }
        if let a = expected.arrayValue, let b = present.arrayValue, a.count == b.count, sameItems(a, b) { return .reordered }
        return .differs
    }

    /// Whether two lists hold the same items as many times each, in any order.
    static func sameItems(_ a: [JSONValue], _ b: [JSONValue]) -> Bool {
        var counts: [JSONValue: Int] = [:]
        for item in a { counts[item, default: 0] += 1 }
        for item in b {
            guard let n = counts[item], n > 0 else { return false }
            counts[item] = n - 1
        }
        return true
    }

    /// Where two texts part: the length of their common beginning and of their common end (not
    /// overlapping), counted in Unicode scalars, so that the middle that differs can be marked.
    static func commonEnds(_ a: String, _ b: String) -> (prefix: Int, suffix: Int) {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var prefix = 0
        while prefix < x.count, prefix < y.count, x[prefix] == y[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < x.count - prefix, suffix < y.count - prefix, x[x.count - 1 - suffix] == y[y.count - 1 - suffix] { suffix += 1 }
        return (prefix, suffix)
    }
}
