/// How binding a rule is: the RFC 2119 words, plus INFO where the source is silent. The one
/// level type of LinkConform: protocol modules give their violation codes a level, requirement
/// registries give their requirements one, and the runner judges cases by it.
///
/// ```swift
/// RuleLevel.must < RuleLevel.should   // true: MUST is the stricter level and sorts first
/// RuleLevel.may.isJudged              // false: a mismatch is only recorded
/// RuleLevel(rawValue: "SHOULD")       // .should
/// ```
public enum RuleLevel: String, Sendable, Hashable, CaseIterable, Comparable {
    case must = "MUST", should = "SHOULD", may = "MAY", info = "INFO"

    /// Whether a mismatch is judged (MUST, SHOULD) rather than only recorded (MAY, INFO).
    public var isJudged: Bool { self == .must || self == .should }

    /// Stricter levels sort first: MUST, SHOULD, MAY, INFO.
    public static func < (a: RuleLevel, b: RuleLevel) -> Bool {
        a.rank < b.rank
    }

    var rank: Int {
        switch self {
        case .must: 0
        case .should: 1
        case .may: 2
        case .info: 3
        }
    }
}
