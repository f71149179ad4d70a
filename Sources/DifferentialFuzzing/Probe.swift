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
    /// `withdrawn`: as ``Conformance/Request/withdrawn``; a request withdrawn gives no trial.
    public func trial(_ input: JSONValue, caseID: String, prepared known: OperationDefinition.PreparedInput? = nil,
                      withdrawn: (@Sendable () -> Bool)? = nil) async -> Trial? {
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
        let answer = await implementation.run(Request(caseID: caseID, operation: operation.name, input: input, encodedInput: encoded,
                                                      withdrawn: withdrawn))
        if case .notRun = answer, withdrawn?() == true { return nil }
        var judgement = Judge.judge(answer, operation: operation.name, prepared: prepared, reference: expectation, levels: levels)
        if case .differs(let d) = judgement, d.kind == .protocolError, let note = Self.overLongReference(referenceOutput) {
            judgement = .differs(Disagreement(operation: d.operation, kind: d.kind, fields: d.fields, codes: d.codes,
                                              leadingCode: d.leadingCode, message: d.message + "; " + note, errorName: d.errorName, cause: d.cause))
        }
        return Trial(input: input, referenceOutput: referenceOutput, expectation: expectation, answer: answer, judgement: judgement)
    }

    /// The longest answer line of the adapter protocol by default (`--max-line-bytes`).
    static let protocolLineBytes = 1 << 20

    /// When the reference's own answer would not fit one line of the adapter protocol, says so:
    /// an adapter that answers as the reference does then breaks the protocol, and the fault is
    /// the reference's (its answers are bounded; this is how a regression would show). Measured
    /// only for protocol errors, which are rare.
    static func overLongReference(_ output: JSONValue) -> String? {
        var line: [UInt8] = []
        JSONSerializer.write(["seq": 1, "output": output], to: &line)
        guard line.count > protocolLineBytes else { return nil }
        return "the reference's own answer is \(line.count) bytes of JSON, over the protocol's \(protocolLineBytes)-byte line: no adapter could give it, so the reference is at fault here"
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
