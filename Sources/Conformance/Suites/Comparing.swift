import LinkJSON

/// Helpers shared by the suites' readers and comparators.

/// Compares one key when the expectation has it: `null` expected means the output must not
/// have the key (an output's `null` reads as absent).
func compareEqual(_ key: String, _ expect: JSONValue, _ got: JSONValue?, _ found: inout [Mismatch]) {
    guard let wanted = expect[key] else { return }
    if wanted.isNull {
        if let got { found.append(Mismatch(key, expected: "(absent)", actual: got.serialized())) }
    } else if got != wanted {
        found.append(Mismatch(key, expected: wanted, actual: got))
    }
}

/// Compares the expectation's list of violation keys under `field` (when it has one) with the
/// keys an output reported, as sets; nothing is compared when the output reported none at all.
///
/// An adapter's answer may list any number of keys (up to the 1 MiB line): short lists are
/// compared in place, long ones through sets, so the time stays linear; and a mismatch names at
/// most ``listedKeys`` missing and unexpected keys, with how many more there are.
func compareKeySets(_ field: String, _ expect: JSONValue, _ reported: [String]?, _ found: inout [Mismatch]) {
    guard let wanted = expect[field]?.arrayValue, let reported else { return }
    // Short lists: equal as sets when each side's keys all appear on the other side, checked
    // without building anything. Sets are built for long lists and to describe a difference.
    if wanted.count * reported.count <= 1_024 {
        let covered = wanted.allSatisfy { w in
            guard let key = w.stringValue else { return true }
            return reported.contains(key)
        }
        if covered && reported.allSatisfy({ r in wanted.contains { $0.stringValue == r } }) { return }
    }
    let want = Set(wanted.compactMap(\.stringValue))
    let got = Set(reported)
    if want == got { return }
    var parts: [String] = []
    if case let missing = want.subtracting(got), !missing.isEmpty { parts.append("missing " + listed(missing)) }
    if case let extra = got.subtracting(want), !extra.isEmpty { parts.append("unexpected " + listed(extra)) }
    found.append(Mismatch(field, expected: "[" + want.sorted().joined(separator: ", ") + "]", actual: parts.joined(separator: "; ")))
}

/// Most keys a key-set mismatch names on each side.
let listedKeys = 20

/// Keys in order, at most ``listedKeys`` of them, then how many more.
func listed(_ keys: Set<String>) -> String {
    let sorted = keys.sorted()
    let shown = sorted.prefix(listedKeys).joined(separator: ", ")
    return sorted.count > listedKeys ? shown + " and \(sorted.count - listedKeys) more" : shown
}

/// The violation keys an output lists under `key`, when it lists any. Each item is a key
/// (`ulc-error:callback-not-https`) or an object with a `key` member, or with `code` and an
/// optional `parameter` (read as `<parameter>:<code>`); any other item is an error naming it.
func violationKeys(_ fields: JSONFields, _ key: String) throws(JSONFieldError) -> [String]? {
    try fields.optionalList(key) { (item) throws(JSONFieldError) -> String in
        if case .string(let s) = item.value { return s }
        guard case .object = item.value else {
            throw item.mismatch(expected: "a violation key or an object with 'key' or 'code'")
        }
        let violation = try item.fields(known: ["key", "code", "parameter"], strict: false)
        if let key = try violation.optionalString("key") { return key }
        guard let code = try violation.optionalString("code") else {
            throw item.mismatch(expected: "a violation key or an object with 'key' or 'code'")
        }
        guard let parameter = try violation.optionalString("parameter") else { return code }
        return parameter + ":" + code
    }
}

/// What every `*.build` operation expects: `{"roundTrip": true}`, or a refusal with the
/// violations optionally listed.
let buildExpectShape = JSONShape.either([
    .object(["roundTrip": .bool], required: ["roundTrip"]),
    .object(["refused": .bool, "violations": .array(.nonEmptyString)], required: ["refused"]),
])

/// The member a `*.build` output carries its built text in (`link`, `url`), and what the text
/// is called in messages.
protocol BuiltMember: Sendable {
    static var name: String { get }
    static var what: String { get }
}

/// What every `*.build` operation answers: the built text, or `refused` with the violation keys
/// (possibly none).
struct BuildOutput<Built: BuiltMember>: OperationOutput {
    let built: String?
    let refused: [String]?

    init(_ fields: JSONFields) throws(JSONFieldError) {
        built = try fields.optionalString(Built.name)
        refused = try violationKeys(fields, "refused")
    }

    /// The comparison every `*.build` operation shares: for `roundTrip` the built text goes to
    /// `roundTrip`; otherwise the output must be a refusal, whose listed violation keys, when it
    /// lists any, are compared as a set.
    func compare(_ expect: JSONValue, roundTrip: (String) -> [Mismatch]) -> [Mismatch] {
        if expect["roundTrip"] != nil {
            guard let built else {
                return [Mismatch(Built.name, expected: "a built \(Built.what)", actual: shown)]
            }
            return roundTrip(built)
        }
        guard let refused else {
            return [Mismatch("refused", expected: "a refusal", actual: shown)]
        }
        var found: [Mismatch] = []
        if !refused.isEmpty { compareKeySets("violations", expect, refused, &found) }
        return found
    }

    /// The members read, as JSON, for a mismatch's message.
    private var shown: String {
        var o = JSONObject(capacity: 2)
        if let built { o.append(Built.name, .string(built)) }
        if let refused { o.append("refused", .array(refused.map(JSONValue.string))) }
        return JSONValue.object(o).serialized()
    }
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
