import LinkJSON

/// One operation of a suite (`ulc.parse`): how its input and an implementation's output are
/// read, the shape of its expectations, how an output is judged against an expectation, and
/// what a null implementation would answer.
///
/// Inputs and outputs are read into typed values (``OperationInput``, ``OperationOutput``) by
/// ``JSONFields``: a case input with a wrong shape is a lint error naming the field, and an
/// output with a wrong shape is judged `protocolError` with a message naming the field.
public struct OperationDefinition: Sendable {
    /// An input read once into the operation's typed value, with what judging needs of it: a
    /// case prepares its input when the corpus is loaded, not once per answer judged.
    public struct PreparedInput: Sendable {
        /// Compares an actual output with an expectation; no mismatches means the output
        /// passes. An output that cannot be read gives one mismatch with
        /// ``Mismatch/malformedOutput`` set.
        public let compare: @Sendable (_ expect: JSONValue, _ actual: JSONValue) -> [Mismatch]
        /// What an implementation that does nothing would answer (always "not a callback",
        /// "refused", "nothing opened"): scores report how many passes it would also earn.
        public let nullOutput: JSONValue
    }

    /// Full name, `<suite>.<verb>`.
    public let name: String
    public let summary: String
    /// Shape of `expect` in cases.
    public let expect: JSONShape
    /// Reads an input as the operation's handlers do; throws the first problem, naming the field
    /// (`input.link: expected a string, found the number 3`). Lint prepares every case's input;
    /// a case whose input fails is not run.
    public let prepare: @Sendable (_ input: JSONValue) throws(JSONFieldError) -> PreparedInput
    /// What a case should expect when the reference answered `output` (read by the operation's
    /// own output reader): differential fuzzing judges an implementation's answer against it, and
    /// a promoted finding becomes a case with it. Nil when the output cannot be read.
    public let expectation: @Sendable (_ referenceOutput: JSONValue) -> ReferenceExpectation?

    init<Input: OperationInput, Output: OperationOutput>(
        name: String, summary: String, input: Input.Type, output: Output.Type, expect: JSONShape,
        compare: @escaping @Sendable (_ expect: JSONValue, _ actual: Output, _ input: Input) -> [Mismatch],
        nullOutput: @escaping @Sendable (Input) -> JSONValue,
        expectation: @escaping @Sendable (Output) -> ReferenceExpectation
    ) {
        self.name = name
        self.summary = summary
        self.expect = expect
        self.prepare = { json throws(JSONFieldError) in
            let input = try Input.decode(json)
            return PreparedInput(
                compare: { expect, actual in
                    let output: Output
                    do throws(JSONFieldError) {
                        output = try Output.decode(actual)
                    } catch {
                        return [Mismatch(malformedOutput: error)]
                    }
                    return compare(expect, output, input)
                },
                nullOutput: nullOutput(input))
        }
        self.expectation = { output in
            (try? Output.decode(output)).map(expectation)
        }
    }

    /// ``PreparedInput/compare`` for an input given as JSON (read each time). An input of the
    /// wrong shape gives one mismatch on `input`: lint keeps such a case out of every loaded
    /// corpus, so only a caller that builds its own case gets it, and the case is at fault.
    public func compare(_ expect: JSONValue, _ actual: JSONValue, _ input: JSONValue) -> [Mismatch] {
        do throws(JSONFieldError) {
            return try prepare(input).compare(expect, actual)
        } catch {
            return [Mismatch("input", expected: "an input of \(name)'s shape", actual: error.description)]
        }
    }

    /// ``PreparedInput/nullOutput`` for an input given as JSON.
    public func nullOutput(_ input: JSONValue) throws(JSONFieldError) -> JSONValue {
        try prepare(input).nullOutput
    }
}

/// A value an operation reads from JSON.
protocol OperationValue: Sendable {
    init(_ fields: JSONFields) throws(JSONFieldError)
}

/// An operation's input, read strictly: every member must be one the operation knows
/// (``fieldNames``), with the type it wants (a typo in a corpus file is a lint error, not an
/// ignored field).
protocol OperationInput: OperationValue {
    /// Every member the input may have.
    static var fieldNames: [String] { get }
}

extension OperationInput {
    /// Reads `input` (paths in errors start at `input`).
    static func decode(_ input: JSONValue) throws(JSONFieldError) -> Self {
        try Self(JSONFields(input, at: [.key("input")], known: fieldNames, strict: true))
    }
}

/// An operation's output, read leniently: members the operation does not know are ignored (an
/// implementation may return more, as the reference returns `raw`), `null` reads as absent, and
/// a known member of the wrong type (or a required one missing) is an error naming the field.
protocol OperationOutput: OperationValue {}

extension OperationOutput {
    /// Reads `output` (paths in errors start at `output`).
    static func decode(_ output: JSONValue) throws(JSONFieldError) -> Self {
        try Self(JSONFields(output, at: [.key("output")], known: [], strict: false))
    }
}

/// One way an output differs from what a case expects, or why it cannot be read at all.
public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
    /// The expectation key concerned (`kind`, `violations`, `opened`), or for a malformed output
    /// the output's field (`output.violations[2]`).
    public let field: String
    public let expected: String
    public let actual: String
    /// The output does not have the operation's shape (a known field of the wrong type, a
    /// required one missing): the answer breaks the adapter protocol, and the case is graded
    /// `protocolError` rather than judged.
    public let malformedOutput: Bool

    public init(_ field: String, expected: String, actual: String) {
        self.field = field
        self.expected = expected
        self.actual = actual
        self.malformedOutput = false
    }

    /// A mismatch between two JSON values, printed compactly.
    public init(_ field: String, expected: JSONValue, actual: JSONValue?) {
        self.init(field, expected: expected.serialized(), actual: actual?.serialized() ?? "(absent)")
    }

    /// An output that cannot be read: the field and what is wrong with it.
    public init(malformedOutput error: JSONFieldError) {
        self.field = error.field
        self.expected = ""
        self.actual = error.problem
        self.malformedOutput = true
    }

    public var description: String {
        malformedOutput ? "malformed output: \(field): \(actual)" : "\(field): expected \(expected), got \(actual)"
    }
}
