/// Requirement levels (RFC 2119 words, plus INFO where the source is silent), shared by the
/// protocol modules' violations.
public enum RuleLevel: String, Sendable, Hashable {
    case must = "MUST", should = "SHOULD", may = "MAY", info = "INFO"
}
