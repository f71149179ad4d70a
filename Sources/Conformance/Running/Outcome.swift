/// How one case ended for one implementation.
public enum Outcome: String, Sendable, Hashable, CaseIterable, Codable {
    /// The output shows what the requirement asks.
    case pass
    /// A MUST requirement is not met.
    case fail
    /// A SHOULD requirement is not met.
    case nonStrict
    /// The requirement is MAY or INFO: the output is recorded, not judged.
    case informational
    /// The implementation does not do this operation, or said it skipped the case.
    case skipped
    /// The implementation reported an error instead of an output.
    case errored
    /// The implementation crashed while running the case.
    case crashed
    /// The implementation did not answer in time.
    case timedOut
    /// The implementation answered with something the protocol does not allow.
    case protocolError
    /// The case never reached the implementation (it was given up after repeated crashes, or
    /// never started).
    case notRun
    /// A failure listed in the implementation's expected-failures file.
    case expectedFail
    /// A pass of a case the expected-failures file lists as failing: the list is out of date.
    case unexpectedPass

    /// Outcomes that make a run exit 1 (nonStrict only with `--strict`).
    public func isFailure(strict: Bool) -> Bool {
        switch self {
        case .fail, .errored, .crashed, .timedOut, .protocolError, .unexpectedPass: true
        case .nonStrict: strict
        case .pass, .informational, .skipped, .notRun, .expectedFail: false
        }
    }

    /// Outcomes that count as failures an expected-failures file may list.
    public var isListableFailure: Bool {
        switch self {
        case .fail, .nonStrict, .errored, .crashed, .timedOut, .protocolError: true
        default: false
        }
    }

    /// Judges a case: the answer, the level of the case's requirement, and the mismatches found
    /// when the answer was an output.
    public static func grade(_ answer: Answer, level: RequirementLevel, mismatches: [Mismatch]) -> Outcome {
        switch answer {
        case .skipped: return .skipped
        case .errored: return .errored
        case .crashed: return .crashed
        case .timedOut: return .timedOut
        case .protocolError: return .protocolError
        case .notRun: return .notRun
        case .output:
            // An output that cannot be read breaks the protocol, whatever the level.
            if mismatches.contains(where: \.malformedOutput) { return .protocolError }
            if !level.isJudged { return .informational }
            if mismatches.isEmpty { return .pass }
            return level == .must ? .fail : .nonStrict
        }
    }
}
