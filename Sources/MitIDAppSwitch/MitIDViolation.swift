import LinkRules

/// The codes of ``MitIDViolation``: one per problem of the contract's table (docs/mitid.md),
/// each tied to a requirement of `Corpus/mitid/requirements.json` and its level.
///
/// ```swift
/// MitIDViolationCode.urlCustomScheme.rawValue      // "url-custom-scheme"
/// MitIDViolationCode.urlCustomScheme.requirement   // "MITID-7"
/// ```
public enum MitIDViolationCode: String, RuleCode {
    case linkTooLong = "link-too-long"
    case linkInvalidSyntax = "link-invalid-syntax"
    case idpParamsDuplicated = "idp-params-duplicated"
    case idpParamsEmpty = "idp-params-empty"
    case idpParamsNotEncoded = "idp-params-not-encoded"
    case idpParamsBadEscape = "idp-params-bad-escape"
    case idpParamsPlus = "idp-params-plus"
    case idpParamsDoubleEncoded = "idp-params-double-encoded"
    case idpParamsNotUTF8 = "idp-params-not-utf8"
    case idpParamsNotJSON = "idp-params-not-json"
    case idpParamsNotObject = "idp-params-not-object"
    case mitidMissing = "mitid-missing"
    case mitidNotObject = "mitid-not-object"
    case parameterUnknown = "parameter-unknown"
    case enableNotBoolean = "enable-not-boolean"
    case appSwitchDisabled = "app-switch-disabled"
    case osMissing = "os-missing"
    case osInvalid = "os-invalid"
    case urlMissing = "url-missing"
    case urlNotString = "url-not-string"
    case urlInvalid = "url-invalid"
    case urlNoHost = "url-no-host"
    case urlCustomScheme = "url-custom-scheme"
    case urlNotHTTPS = "url-not-https"
    case urlUserinfo = "url-userinfo"
    case urlHostEscaped = "url-host-escaped"
    case urlNotRoot = "url-not-root"

    public var requirement: String {
        switch self {
        case .linkTooLong: "MITID-D1"
        case .linkInvalidSyntax: "MITID-D2"
        case .idpParamsDuplicated: "MITID-D3"
        case .idpParamsEmpty, .idpParamsNotEncoded, .idpParamsBadEscape, .idpParamsNotUTF8, .idpParamsNotJSON, .idpParamsNotObject: "MITID-1"
        case .idpParamsPlus: "MITID-D4"
        case .idpParamsDoubleEncoded: "MITID-D5"
        case .mitidMissing: "MITID-2"
        case .mitidNotObject: "MITID-3"
        case .parameterUnknown: "MITID-4"
        case .enableNotBoolean: "MITID-5"
        case .appSwitchDisabled: "MITID-D6"
        case .osMissing, .osInvalid: "MITID-6"
        case .urlMissing: "MITID-7"
        case .urlNotString, .urlInvalid, .urlNoHost: "MITID-8"
        case .urlCustomScheme, .urlNotHTTPS, .urlHostEscaped: "MITID-9"
        case .urlUserinfo: "MITID-D7"
        case .urlNotRoot: "MITID-10"
        }
    }

    public var level: RuleLevel {
        switch self {
        case .linkTooLong, .mitidMissing, .parameterUnknown, .urlNotRoot: .info
        case .linkInvalidSyntax, .idpParamsPlus, .appSwitchDisabled, .urlMissing: .should
        default: .must
        }
    }
}

/// One way an authorize URL's `idp_params` breaks a rule; `parameter` names the mitid member
/// concerned (`app_switch_url`) when there is one.
///
/// ```swift
/// let v = MitIDViolation(.urlNotHTTPS, parameter: "app_switch_url", message: "http")
/// v.key   // "app_switch_url:url-not-https"
/// ```
public typealias MitIDViolation = RuleViolation<MitIDViolationCode, String>
