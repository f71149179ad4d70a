import LinkRules

/// One way an x-callback-url breaks a rule, tied to the requirement it breaks
/// (`Corpus/xcallback/requirements.json`).
///
/// Codes are stable: they appear in JSON output, corpus cases and reports.
///
/// ```swift
/// let link = XCallback.parse("myapp://x-callback-url/open?x-success=done")
/// link.violations.map(\.key)      // ["x-success:callback-not-absolute"]
/// link.violations[0].requirement  // "XCB-6"
/// ```
public typealias XCallbackViolation = RuleViolation<XCallbackViolationCode, String>

/// The codes of ``XCallbackViolation``.
public enum XCallbackViolationCode: String, RuleCode {
    case actionEmpty = "action-empty"
    case actionVersionSegment = "action-version-segment"
    case actionDotSegment = "action-dot-segment"
    case callbackRawDelimiter = "callback-raw-delimiter"
    case linkHasFragment = "link-has-fragment"
    case callbackEmpty = "callback-empty"
    case callbackNotAbsolute = "callback-not-absolute"
    case callbackInvalidURL = "callback-invalid-url"
    case parameterReservedPrefix = "parameter-reserved-prefix"
    case callbackDuplicated = "callback-duplicated"
    case callbackPlus = "callback-plus"
    case valuePlus = "value-plus"
    case hostNotLowercase = "host-not-lowercase"
    case callbackDoubleEncoded = "callback-double-encoded"
    case callbackUserinfo = "callback-userinfo"
    case callbackHostEscaped = "callback-host-escaped"
    case callbackSchemeRefused = "callback-scheme-refused"
    case linkInvalidSyntax = "link-invalid-syntax"
    case linkTooLong = "link-too-long"
    /// Only when building: the scheme is not RFC 3986 scheme syntax.
    case schemeInvalid = "scheme-invalid"

    /// The requirement this code breaks.
    public var requirement: String {
        switch self {
        case .schemeInvalid: "XCB-1"
        case .actionEmpty: "XCB-2"
        case .actionVersionSegment: "XCB-3"
        case .callbackRawDelimiter, .linkHasFragment: "XCB-4"
        case .callbackEmpty, .callbackNotAbsolute, .callbackInvalidURL: "XCB-6"
        case .parameterReservedPrefix: "XCB-10"
        case .callbackDuplicated: "XCB-D1"
        case .callbackPlus, .valuePlus: "XCB-D2"
        case .hostNotLowercase: "XCB-D3"
        case .callbackDoubleEncoded: "XCB-D4"
        case .callbackUserinfo: "XCB-D5"
        case .callbackSchemeRefused: "XCB-D6"
        case .linkInvalidSyntax: "XCB-D8"
        case .linkTooLong: "XCB-D13"
        case .callbackHostEscaped: "XCB-D14"
        case .actionDotSegment: "XCB-D15"
        }
    }

    /// The level of that requirement.
    public var level: RuleLevel {
        switch self {
        case .actionVersionSegment, .actionDotSegment, .callbackRawDelimiter, .linkHasFragment, .parameterReservedPrefix,
             .callbackPlus, .valuePlus, .hostNotLowercase, .callbackSchemeRefused, .linkInvalidSyntax: .should
        case .linkTooLong: .info
        default: .must
        }
    }

    /// Whether the violation makes the URL unusable (``XCallbackLink/Kind/invalid``).
    public var isFatal: Bool { level == .must || self == .linkTooLong }
}
