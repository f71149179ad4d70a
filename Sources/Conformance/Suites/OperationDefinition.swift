import LinkJSON

/// One operation of a suite (`ulc.parse`): how its input and an implementation's output are
/// read, the shape of its expectations, how an output is judged against an expectation, and
/// what a null implementation would answer.
///
/// Inputs and outputs are read into typed values (``OperationInput``, ``OperationOutput``) by
/// ``JSONFields``: a case input with a wrong shape is a lint error naming the field, and an
/// output with a wrong shape is judged `protocolError` with a message naming the field.
public struct OperationDefinition: Sendable {
    /// Full name, `<suite>.<verb>`.
    public let name: String
    public let summary: String
    /// Reads an input as the operation's handlers do: nil when it has the operation's shape,
    /// otherwise the first problem, naming the field (`input.link: expected a string, found the
    /// number 3`). Lint runs it on every case; a case whose input fails is not run.
    public let checkInput: @Sendable (_ input: JSONValue) -> JSONFieldError?
    /// Shape of `expect` in cases.
    public let expect: JSONShape
    /// Compares an actual output with an expectation; no mismatches means the output passes. An
    /// output that cannot be read gives one mismatch with ``Mismatch/malformedOutput`` set.
    public let compare: @Sendable (_ expect: JSONValue, _ actual: JSONValue, _ input: JSONValue) -> [Mismatch]
    /// Reads an input into the operation's typed value, for ``compareDecoded``: a case reads its
    /// input once (``ConformanceCase/typedInput``) instead of once per answer judged.
    public let decodeInput: @Sendable (_ input: JSONValue) throws(JSONFieldError) -> any Sendable
    /// ``compare`` with the input already read by ``decodeInput``.
    public let compareDecoded: @Sendable (_ expect: JSONValue, _ actual: JSONValue, _ input: any Sendable) -> [Mismatch]
    /// What an implementation that does nothing would answer for this input (always "not a
    /// callback", "refused", "nothing opened"): scores report how many passes it would also earn.
    public let nullOutput: @Sendable (_ input: JSONValue) throws(JSONFieldError) -> JSONValue

    init<Input: OperationInput, Output: OperationOutput>(
        name: String, summary: String, input: Input.Type, output: Output.Type, expect: JSONShape,
        compare: @escaping @Sendable (_ expect: JSONValue, _ actual: Output, _ input: Input) -> [Mismatch],
        nullOutput: @escaping @Sendable (Input) -> JSONValue
    ) {
        self.name = name
        self.summary = summary
        self.expect = expect
        self.checkInput = { input in
            do throws(JSONFieldError) {
                _ = try Input.decode(input)
                return nil
            } catch {
                return error
            }
        }
        let judge: @Sendable (JSONValue, JSONValue, Input) -> [Mismatch] = { expect, actual, input in
            let output: Output
            do throws(JSONFieldError) {
                output = try Output.decode(actual)
            } catch {
                return [Mismatch(malformedOutput: error)]
            }
            return compare(expect, output, input)
        }
        // Lint keeps an input of the wrong shape out of every loaded corpus: only a caller that
        // builds its own case gets the mismatch below, and the case, not the output, is at fault.
        @Sendable func inputMismatch(_ why: String) -> [Mismatch] {
            [Mismatch("input", expected: "an input of \(Input.self)'s shape", actual: why)]
        }
        self.compare = { expect, actual, input in
            do throws(JSONFieldError) {
                return judge(expect, actual, try Input.decode(input))
            } catch {
                return inputMismatch(error.description)
            }
        }
        self.decodeInput = { input throws(JSONFieldError) in try Input.decode(input) }
        self.compareDecoded = { expect, actual, input in
            guard let input = input as? Input else { return inputMismatch("a value of another operation's input type") }
            return judge(expect, actual, input)
        }
        self.nullOutput = { input throws(JSONFieldError) in nullOutput(try Input.decode(input)) }
    }
}

/// A value an operation reads from JSON: its members and how they are read.
protocol OperationValue: Sendable {
    /// Every member the value may have (an input) or that is read (an output).
    static var fieldNames: [String] { get }
    init(_ fields: JSONFields) throws(JSONFieldError)
}

extension OperationValue {
    static func read(_ value: JSONValue, as root: String, strict: Bool) throws(JSONFieldError) -> Self {
        try Self(JSONFields(value, at: [.key(root)], known: fieldNames, strict: strict))
    }
}

/// An operation's input, read strictly: every member must be one the operation knows, with the
/// type it wants (a typo in a corpus file is a lint error, not an ignored field).
protocol OperationInput: OperationValue {}

extension OperationInput {
    /// Reads `input` (paths in errors start at `input`).
    static func decode(_ input: JSONValue) throws(JSONFieldError) -> Self { try read(input, as: "input", strict: true) }
}

/// An operation's output, read leniently: members the operation does not know are ignored (an
/// implementation may return more, as the reference returns `raw`), `null` reads as absent, and
/// a known member of the wrong type (or a required one missing) is an error naming the field.
protocol OperationOutput: OperationValue {}

extension OperationOutput {
    /// Reads `output` (paths in errors start at `output`).
    static func decode(_ output: JSONValue) throws(JSONFieldError) -> Self { try read(output, as: "output", strict: false) }
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
