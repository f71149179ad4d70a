import LinkJSON

/// Helpers shared by the suites' comparators.

/// Compares one key when the expectation has it: `null` expected means the output must not
/// have the key (or have it `null`).
func compareEqual(_ key: String, _ expect: JSONValue, _ actual: JSONValue, _ found: inout [Mismatch]) {
    guard let wanted = expect[key] else { return }
    let got = actual[key]
    if wanted.isNull {
        if let got, !got.isNull { found.append(Mismatch(key, expected: "(absent)", actual: got.serialized())) }
    } else if got != wanted {
        found.append(Mismatch(key, expected: wanted, actual: got))
    }
}

/// Compares two lists of violation keys as sets. Reported items may be strings or objects
/// with a `key` member (or `code` and optional `parameter`).
func compareKeySets(_ field: String, _ wanted: [JSONValue], _ reported: [JSONValue], _ found: inout [Mismatch]) {
    // The lists are short: equal as sets when each side's keys all appear on the other side,
    // checked without building anything. Sets are only built to describe a difference.
    let covered = wanted.allSatisfy { w in
        guard let key = w.stringValue else { return true }
        return reported.contains { violationKey($0) == key }
    }
    if covered && reported.allSatisfy({ r in
        guard let key = violationKey(r) else { return true }
        return wanted.contains { $0.stringValue == key }
    }) { return }
    let want = Set(wanted.compactMap(\.stringValue))
    let got = Set(reported.compactMap(violationKey))
    let missing = want.subtracting(got).sorted()
    let extra = got.subtracting(want).sorted()
    var parts: [String] = []
    if !missing.isEmpty { parts.append("missing " + missing.joined(separator: ", ")) }
    if !extra.isEmpty { parts.append("unexpected " + extra.joined(separator: ", ")) }
    found.append(Mismatch(field, expected: "[" + want.sorted().joined(separator: ", ") + "]", actual: parts.joined(separator: "; ")))
}

func violationKey(_ item: JSONValue) -> String? {
    if let s = item.stringValue { return s }
    if let key = item["key"]?.stringValue { return key }
    guard let code = item["code"]?.stringValue else { return nil }
    return item["parameter"]?.stringValue.map { "\($0):\(code)" } ?? code
}


/// What every `*.build` operation expects: `{"roundTrip": true}`, or a refusal with the
/// violations optionally listed.
let buildExpectShape = JSONShape.either([
    .object(["roundTrip": .bool], required: ["roundTrip"]),
    .object(["refused": .bool, "violations": .array(.nonEmptyString)], required: ["refused"]),
])

/// The comparison every `*.build` operation shares: for `roundTrip` the built text (under
/// `outputKey`) goes to `roundTrip`; otherwise the output must be a refusal, whose listed
/// violation keys, when it lists any, are compared as a set.
func compareBuild(_ expect: JSONValue, _ actual: JSONValue, outputKey: String, what: String,
                  roundTrip: (String) -> [Mismatch]) -> [Mismatch] {
    if expect["roundTrip"] != nil {
        guard let built = actual[outputKey]?.stringValue else {
            return [Mismatch(outputKey, expected: "a built \(what)", actual: actual.serialized())]
        }
        return roundTrip(built)
    }
    guard let refused = actual["refused"] else {
        return [Mismatch("refused", expected: "a refusal", actual: actual.serialized())]
    }
    var found: [Mismatch] = []
    if let wanted = expect["violations"]?.arrayValue, let listed = refused.arrayValue, !listed.isEmpty {
        compareKeySets("violations", wanted, listed, &found)
    }
    return found
}

/// A violation as every suite's parse output writes it.
func violationJSON(key: String, requirement: String, level: String, offset: Int?, message: String) -> JSONValue {
    var item = JSONObject(capacity: 5)
    item.append("key", .string(key))
    item.append("requirement", .string(requirement))
    item.append("level", .string(level))
    item.append("offset", offset.map { .int($0) } ?? .null)
    item.append("message", .string(message))
    return .object(item)
}
