/// What `check` concludes about one subject and one suite, or about the subject overall:
/// whether the suite recognises it, whether it is valid, and the sentence people read.
///
/// It is computed once, from the same violations the JSON output lists: valid means recognised
/// with no MUST-level violation. The human text, `--json` and the exit code all read this one
/// value, so they cannot disagree.
///
/// ```swift
/// let wording = CheckVerdict.Wording(valid: "a valid ULC", withWarnings: "a usable ULC, with warnings",
///                                    invalid: "an invalid ULC", unrecognized: "not a ULC")
/// let verdict = CheckVerdict(recognized: true, levels: [.should], wording: wording)
/// verdict.valid      // true
/// verdict.sentence   // "a usable ULC, with warnings"
/// ```
public struct CheckVerdict: Sendable, Hashable {
    /// The sentences a suite uses for each outcome.
    public struct Wording: Sendable, Hashable {
        public let valid: String
        public let withWarnings: String
        public let invalid: String
        public let unrecognized: String

        public init(valid: String, withWarnings: String, invalid: String, unrecognized: String) {
            self.valid = valid
            self.withWarnings = withWarnings
            self.invalid = invalid
            self.unrecognized = unrecognized
        }
    }

    public let recognized: Bool
    public let valid: Bool
    public let sentence: String

    /// The verdict for violations at `levels`: invalid when one is MUST, valid with warnings when
    /// there are others, valid when there are none; unrecognised subjects are never valid.
    public init(recognized: Bool, levels: [RequirementLevel], wording: Wording) {
        self.recognized = recognized
        let broken = levels.contains(.must)
        valid = recognized && !broken
        if !recognized {
            sentence = wording.unrecognized
        } else if broken {
            sentence = wording.invalid
        } else {
            sentence = levels.isEmpty ? wording.valid : wording.withWarnings
        }
    }

    /// The verdict over every suite's: recognised when one suite recognises the subject, valid
    /// when one finds it valid.
    public init(overall verdicts: [CheckVerdict], suites: [SuiteDefinition]) {
        recognized = verdicts.contains { $0.recognized }
        valid = verdicts.contains { $0.valid }
        if valid {
            sentence = "valid"
        } else if recognized {
            sentence = "invalid: every protocol that recognises it finds a MUST rule broken"
        } else {
            sentence = "not recognised: " + suites.map { "\($0.name) reads \($0.recognizes)" }.joined(separator: "; ")
        }
    }
}
