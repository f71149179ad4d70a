import Conformance
import LinkJSON

/// One operation as fuzzing asks it: an input goes to the reference (in this process) and to
/// the implementation, and the implementation's answer is judged against what the reference's
/// answer says a case on that input should expect.
public struct Probe: Sendable {
    public let suite: String
    public let operation: OperationDefinition
    let reference: SuiteDefinition.Handler
    let implementation: any Implementation
    /// The level of each of the suite's violation codes.
    let levels: [String: RequirementLevel]

    public init?(operation name: String, implementation: any Implementation) {
        guard let (suite, operation) = SuiteRegistry.operation(named: name), let reference = suite.reference[name] else { return nil }
        self.suite = suite.name
        self.operation = operation
        self.reference = reference
        self.implementation = implementation
        levels = Dictionary(suite.codeRequirements.map { ($0.code, $0.level) }, uniquingKeysWith: { a, _ in a })
    }

    /// Both answers to one input and the verdict.
    public struct Trial: Sendable {
        public let input: JSONValue
        public let referenceOutput: JSONValue
        public let expectation: ReferenceExpectation
        public let answer: Answer
        public let judgement: Judgement
    }

    /// Asks both sides. Nil when the input is not one the operation reads, or the reference
    /// cannot answer it or would fail its own expectation (nothing to judge against).
    /// `prepared`: the input as ``operation`` reads it, when the caller has it already.
    public func trial(_ input: JSONValue, caseID: String, prepared known: OperationDefinition.PreparedInput? = nil) async -> Trial? {
        let prepared: OperationDefinition.PreparedInput
        if let known {
            prepared = known
        } else {
            do throws(JSONFieldError) { prepared = try operation.prepare(input) } catch { return nil }
        }
        guard let referenceOutput = try? await reference(input), let expectation = operation.expectation(referenceOutput),
              // An input on which the reference does not meet its own expectation (a built link
              // over the size limit fails the round trip) cannot judge anyone.
              prepared.compare(expectation.expect, referenceOutput).isEmpty else { return nil }
        var encoded: [UInt8] = []
        JSONSerializer.write(input, to: &encoded)
        let answer = await implementation.run(Request(caseID: caseID, operation: operation.name, input: input, encodedInput: encoded))
        return Trial(input: input, referenceOutput: referenceOutput, expectation: expectation, answer: answer,
                     judgement: Judge.judge(answer, operation: operation.name, prepared: prepared, reference: expectation, levels: levels))
    }

    /// An answer as JSON, for the store and the report: `{"output": ...}`, `{"errored": "..."}`, ...
    public static func json(_ answer: Answer) -> JSONValue {
        switch answer {
        case .output(let output): ["output": output]
        case .skipped(let reason): ["skipped": .string(reason)]
        case .errored(let message, let detail): ["errored": .string(message), "detail": detail ?? .null]
        case .crashed(let message): ["crashed": .string(message)]
        case .timedOut(let message): ["timedOut": .string(message)]
        case .protocolError(let message): ["protocolError": .string(message)]
        case .notRun(let reason): ["notRun": .string(reason)]
        }
    }
}
