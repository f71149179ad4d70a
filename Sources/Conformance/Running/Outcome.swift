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

    /// Outcomes that make a run exit 1 (nonStrict only with `--strict`).
    public func isFailure(strict: Bool) -> Bool {
        switch self {
        case .fail, .errored, .crashed, .timedOut, .protocolError: true
        case .nonStrict: strict
        case .pass, .informational, .skipped: false
        }
    }

    /// Judges a case: the answer, the level of the case's requirement, and the mismatches found
    /// when the answer was an output.
    public static func grade(_ answer: Answer, level: RequirementLevel, mismatches: [Mismatch]) -> Outcome {
        switch answer {
        case .skipped: return .skipped
        case .errored: return .errored
        case .output:
            if !level.isJudged { return .informational }
            if mismatches.isEmpty { return .pass }
            return level == .must ? .fail : .nonStrict
        }
    }
}
