/// One step of a path into a JSON value: a member name or an array index.
public enum JSONPathStep: Sendable, Hashable {
    case key(String)
    case index(Int)
}

/// A value at a path that does not have the shape its reader wants: names the field
/// (`input.parameters[2].name`) and says what is wrong with it.
public struct JSONFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: [JSONPathStep]
    /// What is wrong, without the field: `expected a string, found the number 3`.
    public let problem: String

    public init(path: [JSONPathStep], problem: String) {
        self.path = path
        self.problem = problem
    }

    /// The field as people read it: `input.parameters[2].name` (empty for the root).
    public var field: String {
        var out = ""
        for step in path {
            switch step {
            case .key(let key): out += (out.isEmpty ? "" : ".") + key
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }

    /// The field as a JSON Pointer: `/input/parameters/2/name`.
    public var pointer: String {
        path.map { step in
            switch step {
            case .key(let key): "/" + jsonPointerToken(key)
            case .index(let i): "/\(i)"
            }
        }.joined()
    }

    public var description: String { path.isEmpty ? problem : "\(field): \(problem)" }
}

/// Reads the members of a JSON object as typed values; every failure is a ``JSONFieldError``
/// that names the member's path.
///
/// ```swift
/// let fields = try JSONFields(value, at: [.key("input")], known: ["link"], strict: true)
/// let link = try fields.string("link")   // input.link: expected a string, found the number 3
/// ```
///
/// A reader knows its object's member names. A strict reader (what a case input gets) refuses
/// any other member, and `null` for an optional member; a lenient one (what an implementation's
/// output gets) ignores other members and reads `null` as absent. Wrong types of known members
/// are errors either way.
public struct JSONFields: Sendable {
    public let path: [JSONPathStep]
    public let object: JSONObject
    public let strict: Bool

    /// Reads `value` as an object whose members are `known`.
    public init(_ value: JSONValue, at path: [JSONPathStep], known: [String], strict: Bool) throws(JSONFieldError) {
        guard case .object(let object) = value else {
            throw JSONFieldError(path: path, problem: "expected an object, found \(value.briefDescription)")
        }
        if strict {
            for member in object where !known.contains(member.key) {
                throw JSONFieldError(path: path + [.key(member.key)],
                                     problem: "unknown field '\(member.key)' (known: \(known.sorted().joined(separator: ", ")))")
            }
        }
        self.path = path
        self.object = object
        self.strict = strict
    }

    /// Whether the object has the member (a lenient reader reads `null` as absent).
    public func has(_ key: String) -> Bool {
        guard let value = object[key] else { return false }
        return strict || !value.isNull
    }

    /// An error about the member `key` (a rule the types cannot express).
    public func error(_ key: String, _ problem: String) -> JSONFieldError {
        JSONFieldError(path: path + [.key(key)], problem: problem)
    }

    /// The member's value when present; `null` too when strict (the caller's type check refuses it).
    private func present(_ key: String) -> JSONValue? {
        guard let value = object[key], strict || !value.isNull else { return nil }
        return value
    }

    private func required(_ key: String) throws(JSONFieldError) -> JSONValue {
        guard let value = object[key] else { throw error(key, "missing required field") }
        return value
    }

    // MARK: scalars

    public func string(_ key: String) throws(JSONFieldError) -> String {
        try JSONElement(try required(key), under: path, .key(key)).string()
    }

    public func nonEmptyString(_ key: String) throws(JSONFieldError) -> String {
        let s = try string(key)
        if s.isEmpty { throw error(key, "must not be empty") }
        return s
    }

    public func optionalString(_ key: String) throws(JSONFieldError) -> String? {
        guard let value = present(key) else { return nil }
        return try JSONElement(value, under: path, .key(key)).string()
    }

    /// The members among `keys` that are present, as strings, by name.
    public func optionalStrings(_ keys: [String]) throws(JSONFieldError) -> [String: String] {
        var out: [String: String] = [:]
        for key in keys {
            if let value = try optionalString(key) { out[key] = value }
        }
        return out
    }

    /// A member that must be present, as a string or `null` (nil).
    public func stringOrNull(_ key: String) throws(JSONFieldError) -> String? {
        let value = try required(key)
        return value.isNull ? nil : try JSONElement(value, under: path, .key(key)).string()
    }

    /// A member that may be absent, a string, or `null` (absent and `null` are both nil).
    public func nullableString(_ key: String) throws(JSONFieldError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        return try JSONElement(value, under: path, .key(key)).string()
    }

    public func bool(_ key: String) throws(JSONFieldError) -> Bool {
        try JSONElement(try required(key), under: path, .key(key)).bool()
    }

    public func optionalBool(_ key: String) throws(JSONFieldError) -> Bool? {
        guard let value = present(key) else { return nil }
        return try JSONElement(value, under: path, .key(key)).bool()
    }

    public func int(_ key: String) throws(JSONFieldError) -> Int {
        try JSONElement(try required(key), under: path, .key(key)).int()
    }

    public func optionalInt(_ key: String) throws(JSONFieldError) -> Int? {
        guard let value = present(key) else { return nil }
        return try JSONElement(value, under: path, .key(key)).int()
    }

    public func optionalDouble(_ key: String, in range: ClosedRange<Double>? = nil) throws(JSONFieldError) -> Double? {
        guard let value = present(key) else { return nil }
        return try JSONElement(value, under: path, .key(key)).double(in: range)
    }

    /// A member whose value is the raw value of `T` (one of a fixed set of strings).
    public func oneOf<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws(JSONFieldError) -> T where T.RawValue == String {
        try JSONElement(try required(key), under: path, .key(key)).oneOf(T.self)
    }

    // MARK: arrays and objects

    /// The member's items, each read by `item` (which gets the item and its path).
    public func list<T>(_ key: String, _ item: (JSONElement) throws(JSONFieldError) -> T) throws(JSONFieldError) -> [T] {
        try JSONElement(try required(key), under: path, .key(key)).list(item)
    }

    public func optionalList<T>(_ key: String, _ item: (JSONElement) throws(JSONFieldError) -> T) throws(JSONFieldError) -> [T]? {
        guard let value = present(key) else { return nil }
        return try JSONElement(value, under: path, .key(key)).list(item)
    }

    public func stringArray(_ key: String) throws(JSONFieldError) -> [String] {
        try list(key) { (e) throws(JSONFieldError) in try e.string() }
    }

    public func optionalStringArray(_ key: String) throws(JSONFieldError) -> [String]? {
        try optionalList(key) { (e) throws(JSONFieldError) in try e.string() }
    }

    /// A list of objects with the given members, read with this reader's strictness.
    public func optionalObjects(_ key: String, known: [String]) throws(JSONFieldError) -> [JSONFields]? {
        let strict = self.strict
        return try optionalList(key) { (e) throws(JSONFieldError) in try e.fields(known: known, strict: strict) }
    }
}

/// One value and its path, as a list's item reader gets it.
///
/// The path is kept as the parent's path and this value's own step, and put together only when
/// it is needed (an error, or reading further down): every member read would otherwise copy
/// its parent's path into a new array, which made reading answers a large part of judging them.
public struct JSONElement: Sendable {
    public let value: JSONValue
    private let parent: [JSONPathStep]
    private let step: JSONPathStep

    public var path: [JSONPathStep] { parent + [step] }

    /// The value at `step` below `parent`.
    public init(_ value: JSONValue, under parent: [JSONPathStep], _ step: JSONPathStep) {
        self.value = value
        self.parent = parent
        self.step = step
    }

    /// An error about this value: `expected <what>, found <what it is>`.
    public func mismatch(expected: String) -> JSONFieldError {
        JSONFieldError(path: path, problem: "expected \(expected), found \(value.briefDescription)")
    }

    public func string() throws(JSONFieldError) -> String {
        guard case .string(let s) = value else { throw mismatch(expected: "a string") }
        return s
    }

    public func bool() throws(JSONFieldError) -> Bool {
        guard case .bool(let b) = value else { throw mismatch(expected: "true or false") }
        return b
    }

    public func int() throws(JSONFieldError) -> Int {
        guard let n = value.intValue else { throw mismatch(expected: "an integer") }
        return n
    }

    public func double(in range: ClosedRange<Double>? = nil) throws(JSONFieldError) -> Double {
        guard case .number(let d) = value else { throw mismatch(expected: "a number") }
        if let range, !range.contains(d) {
            throw mismatch(expected: "a number from \(range.lowerBound.formattedCompactly) to \(range.upperBound.formattedCompactly)")
        }
        return d
    }

    public func oneOf<T: RawRepresentable & CaseIterable>(_: T.Type) throws(JSONFieldError) -> T where T.RawValue == String {
        if case .string(let s) = value, let v = T(rawValue: s) { return v }
        throw mismatch(expected: "one of " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
    }

    public func fields(known: [String], strict: Bool) throws(JSONFieldError) -> JSONFields {
        try JSONFields(value, at: path, known: known, strict: strict)
    }

    public func list<T>(_ item: (JSONElement) throws(JSONFieldError) -> T) throws(JSONFieldError) -> [T] {
        guard case .array(let items) = value else { throw mismatch(expected: "an array") }
        let here = path
        var out: [T] = []
        out.reserveCapacity(items.count)
        for (i, v) in items.enumerated() { out.append(try item(JSONElement(v, under: here, .index(i)))) }
        return out
    }
}

extension JSONValue {
    /// The value as an error message names it: `the string "abc"`, `the number 3`, `null`,
    /// `an array` (long strings shortened).
    public var briefDescription: String {
        switch self {
        case .string(let s): "the string \"\(s.count > 40 ? String(s.prefix(37)) + "..." : s)\""
        case .number(let d): "the number \(d.formattedCompactly)"
        case .bool(let b): "\(b)"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension Double {
    /// `3` rather than `3.0`; other values as Swift prints them.
    public var formattedCompactly: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
