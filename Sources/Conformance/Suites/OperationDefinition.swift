import LinkJSON

/// One operation of a suite (`ulc.parse`): the shape of its input and expectations, how an
/// output is judged against an expectation, and what a null implementation would answer.
public struct OperationDefinition: Sendable {
    /// Full name, `<suite>.<verb>`.
    public let name: String
    public let summary: String
    /// Shape of `input` in cases (and in adapter requests).
    public let input: JSONShape
    /// Shape of `expect` in cases.
    public let expect: JSONShape
    /// Compares an actual output with an expectation; no mismatches means the output passes.
    public let compare: @Sendable (_ expect: JSONValue, _ actual: JSONValue, _ input: JSONValue) -> [Mismatch]
    /// What an implementation that does nothing would answer for this input (always "not a
    /// callback", "refused", "nothing opened"): scores report how many passes it would also earn.
    public let nullOutput: @Sendable (_ input: JSONValue) -> JSONValue

    public init(name: String, summary: String, input: JSONShape, expect: JSONShape,
                compare: @escaping @Sendable (JSONValue, JSONValue, JSONValue) -> [Mismatch],
                nullOutput: @escaping @Sendable (JSONValue) -> JSONValue) {
        self.name = name
        self.summary = summary
        self.input = input
        self.expect = expect
        self.compare = compare
        self.nullOutput = nullOutput
    }
}

/// One way an output differs from what a case expects.
public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
    /// The expectation key concerned (`kind`, `violations`, `opened`).
    public let field: String
    public let expected: String
    public let actual: String

    public init(_ field: String, expected: String, actual: String) {
        self.field = field
        self.expected = expected
        self.actual = actual
    }

    /// A mismatch between two JSON values, printed compactly.
    public init(_ field: String, expected: JSONValue, actual: JSONValue?) {
        self.init(field, expected: expected.serialized(), actual: actual?.serialized() ?? "(absent)")
    }

    public var description: String { "\(field): expected \(expected), got \(actual)" }
}
