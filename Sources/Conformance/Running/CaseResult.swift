import LinkJSON

/// The result of one case for one implementation: what the store keeps and reports show.
public struct CaseResult: Sendable, Hashable {
    public let suite: String
    public let caseID: String
    public let operation: String
    public let requirement: String
    public let level: RequirementLevel
    public let outcome: Outcome
    /// Whether a null implementation's answer would also have matched the expectation
    /// (only computed for judged requirements; false otherwise).
    public let nullWouldPass: Bool
    /// The output, when the implementation gave one.
    public let actual: JSONValue?
    public let expected: JSONValue
    /// ``expected`` as compact JSON text: the case's text, written once when the corpus was
    /// loaded and shared by every result of that case (the store writes it as it is).
    public let encodedExpected: String
    /// Mismatches, skip reason or error message.
    public let message: String?
    public let durationNanos: Int64

    public init(suite: String, caseID: String, operation: String, requirement: String, level: RequirementLevel,
                outcome: Outcome, nullWouldPass: Bool, actual: JSONValue?, expected: JSONValue,
                message: String?, durationNanos: Int64) {
        self.init(suite: suite, caseID: caseID, operation: operation, requirement: requirement, level: level,
                  outcome: outcome, nullWouldPass: nullWouldPass, actual: actual, expected: expected,
                  encodedExpected: expected.serialized(), message: message, durationNanos: durationNanos)
    }

    /// A result whose expectation is already serialized (`encodedExpected` must be the compact
    /// JSON text of `expected`).
    public init(suite: String, caseID: String, operation: String, requirement: String, level: RequirementLevel,
                outcome: Outcome, nullWouldPass: Bool, actual: JSONValue?, expected: JSONValue, encodedExpected: String,
                message: String?, durationNanos: Int64) {
        self.suite = suite
        self.caseID = caseID
        self.operation = operation
        self.requirement = requirement
        self.level = level
        self.outcome = outcome
        self.nullWouldPass = nullWouldPass
        self.actual = actual
        self.expected = expected
        self.encodedExpected = encodedExpected
        self.message = message
        self.durationNanos = durationNanos
    }
}
