import LinkRules

/// One way a link breaks a ULC rule, tied to the requirement it breaks.
///
/// Codes are stable: they appear in JSON output, corpus cases and reports. Each code belongs to
/// exactly one requirement of `Corpus/ulc/requirements.json`; `corpus lint` checks that the
/// registry knows every id and agrees on every level.
///
/// ```swift
/// let link = ULC.parse("https://app.example/logout?ulc-success=http%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example")
/// link.violations.map(\.key)      // ["ulc-success:callback-not-https"]
/// link.violations[0].requirement  // "ULC-6"
/// ```
public typealias ULCViolation = RuleViolation<ULCViolationCode, ULCParameter>

/// The codes of ``ULCViolation``.
public enum ULCViolationCode: String, RuleCode {
    case actionNotHTTPS = "action-not-https"
    case actionNoHost = "action-no-host"
    case actionNoPath = "action-no-path"
    case callbackEmpty = "callback-empty"
    case callbackDuplicated = "callback-duplicated"
    case callbackDoubleEncoded = "callback-double-encoded"
    case callbackRawDelimiter = "callback-raw-delimiter"
    case callbackPlus = "callback-plus"
    case callbackNotAbsolute = "callback-not-absolute"
    case callbackNotHTTPS = "callback-not-https"
    case callbackNoHost = "callback-no-host"
    case callbackUserinfo = "callback-userinfo"
    case callbackInvalidURL = "callback-invalid-url"
    case callbackHostEscaped = "callback-host-escaped"
    case errorMissing = "error-missing"
    case linkHasFragment = "link-has-fragment"
    case linkInvalidSyntax = "link-invalid-syntax"
    case linkTooLong = "link-too-long"

    /// The requirement this code breaks.
    public var requirement: String {
        switch self {
        case .actionNotHTTPS: "ULC-2"
        case .actionNoHost: "ULC-3"
        case .actionNoPath: "ULC-20"
        case .callbackEmpty, .callbackNotAbsolute, .callbackNotHTTPS, .callbackNoHost, .callbackInvalidURL, .callbackHostEscaped: "ULC-6"
        case .callbackRawDelimiter, .linkHasFragment: "ULC-7"
        case .callbackDuplicated: "ULC-D1"
        case .callbackPlus: "ULC-D2"
        case .errorMissing: "ULC-D3"
        case .callbackUserinfo: "ULC-D4"
        case .callbackDoubleEncoded: "ULC-D5"
        case .linkInvalidSyntax: "ULC-D6"
        case .linkTooLong: "ULC-D11"
        }
    }

    /// The level of that requirement.
    public var level: RuleLevel {
        switch self {
        case .actionNoPath, .callbackPlus, .errorMissing, .linkInvalidSyntax: .should
        case .linkTooLong: .info
        default: .must
        }
    }

    /// Whether the violation makes the link unusable (``ULCLink/Kind/invalid``): every MUST
    /// violation, and an input too long to read at all.
    public var isFatal: Bool { level == .must || self == .linkTooLong }
}

/// Requirement levels: the same enumeration for every protocol module.
public typealias ULCLevel = RuleLevel

/// The two callback parameters.
public enum ULCParameter: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case success = "ulc-success"
    case error = "ulc-error"

    public var description: String { rawValue }

    /// Every callback parameter's name, made once (the parse and `check` ask for the list).
    public static let names = allCases.map(\.rawValue)
}
