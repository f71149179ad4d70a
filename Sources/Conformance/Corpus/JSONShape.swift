import LinkJSON

/// The expected shape of a JSON value, for checking corpus files and operation inputs with
/// messages that name the field.
///
/// ```swift
/// let shape = JSONShape.object(["link": .string], required: ["link"])
/// shape.problems(in: ["link": 3])   // [("/link", "expected a string, found a number")]
/// ```
public indirect enum JSONShape: Sendable {
    case any
    case string
    case nonEmptyString
    case bool
    case number
    /// A number from the range.
    case numberIn(ClosedRange<Double>)
    /// One of the given strings.
    case oneOf([String])
    case array(JSONShape)
    /// An object with known members; `required` must be present; other members are errors
    /// unless `open` is true.
    case object([String: JSONShape], required: Set<String> = [], open: Bool = false)
    /// Any of several shapes (the first listed one names the expectation in messages).
    case either([JSONShape])
    /// A value that may also be `null`.
    case nullable(JSONShape)

    /// A problem: the JSON Pointer of the value and what is wrong with it.
    public struct Problem: Sendable, Hashable {
        public let pointer: String
        public let message: String
    }

    /// Every mismatch between `value` and this shape.
    public func problems(in value: JSONValue, at pointer: String = "") -> [Problem] {
        var found: [Problem] = []
        check(value, pointer, &found)
        return found
    }

    var expectation: String {
        switch self {
        case .any: "any value"
        case .string: "a string"
        case .nonEmptyString: "a non-empty string"
        case .bool: "true or false"
        case .number: "a number"
        case .numberIn(let r): "a number from \(r.lowerBound.formattedCompactly) to \(r.upperBound.formattedCompactly)"
        case .oneOf(let values): "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
        case .array: "an array"
        case .object: "an object"
        case .either(let shapes): shapes.map(\.expectation).joined(separator: " or ")
        case .nullable(let s): s.expectation + " or null"
        }
    }

    private func check(_ value: JSONValue, _ pointer: String, _ found: inout [Problem]) {
        func fail(_ message: String? = nil) {
            found.append(Problem(pointer: pointer, message: message ?? "expected \(expectation), found \(value.briefDescription)"))
        }
        switch self {
        case .any: return
        case .string: if value.stringValue == nil { fail() }
        case .nonEmptyString:
            if let s = value.stringValue { if s.isEmpty { fail("must not be empty") } } else { fail() }
        case .bool: if value.boolValue == nil { fail() }
        case .number: if value.doubleValue == nil { fail() }
        case .numberIn(let range):
            if let d = value.doubleValue { if !range.contains(d) { fail() } } else { fail() }
        case .oneOf(let values):
            if let s = value.stringValue, values.contains(s) { return }
            fail()
        case .array(let element):
            guard let items = value.arrayValue else { return fail() }
            for (i, item) in items.enumerated() { element.check(item, pointer + "/\(i)", &found) }
        case .object(let members, let required, let open):
            guard let object = value.objectValue else { return fail() }
            for key in required.sorted() where object[key] == nil {
                found.append(Problem(pointer: pointer + "/" + jsonPointerToken(key), message: "missing required field '\(key)'"))
            }
            for member in object {
                let child = pointer + "/" + jsonPointerToken(member.key)
                if let shape = members[member.key] {
                    shape.check(member.value, child, &found)
                } else if !open {
                    let known = members.keys.sorted().joined(separator: ", ")
                    found.append(Problem(pointer: child, message: "unknown field '\(member.key)' (known: \(known))"))
                }
            }
        case .either(let shapes):
            for shape in shapes where shape.problems(in: value).isEmpty { return }
            // Report the problems of the best-fitting shape of the same JSON type, if any.
            if let sameType = shapes.first(where: { $0.matchesType(of: value) }) {
                sameType.check(value, pointer, &found)
            } else {
                fail()
            }
        case .nullable(let shape):
            if !value.isNull { shape.check(value, pointer, &found) }
        }
    }

    private func matchesType(of value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.nonEmptyString, .string), (.oneOf, .string), (.bool, .bool),
             (.number, .number), (.numberIn, .number), (.array, .array), (.object, .object): true
        case (.nullable(let s), _): s.matchesType(of: value)
        default: false
        }
    }
}

