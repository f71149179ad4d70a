import LinkRules

/// One way a link breaks a rule of the XignSys link forms, tied to the requirement it breaks
/// (`Corpus/xignqr/requirements.json`).
///
/// ```swift
/// let redirect = XignQR.redirect("xignqr://login?pid=CgMBAgM%3D")
/// redirect.violations.map(\.key)       // ["process-unknown"]
/// redirect.violations[0].requirement   // "XQR-5"
/// ```
public typealias XignViolation = RuleViolation<XignViolationCode, String>

/// The codes of ``XignViolation``.
public enum XignViolationCode: String, RuleCode {
    case processUnknown = "process-unknown"
    case pidMissing = "pid-missing"
    case pidEmpty = "pid-empty"
    case actionMissing = "action-missing"
    case parameterDuplicated = "parameter-duplicated"
    case appLinkNotHTTPS = "app-link-not-https"
    case authorityExtras = "authority-extras"
    case pathNotInit = "path-not-init"
    case sourceURLInvalid = "source-url-invalid"
    case processNotLowercase = "process-not-lowercase"
    case pidPlus = "pid-plus"
    case linkInvalidSyntax = "link-invalid-syntax"
    case linkTooLong = "link-too-long"

    public var requirement: String {
        switch self {
        case .processUnknown, .pidMissing, .pidEmpty: "XQR-5"
        case .actionMissing: "XQR-2"
        case .parameterDuplicated: "XQR-D3"
        case .appLinkNotHTTPS, .authorityExtras: "XQR-D4"
        case .pathNotInit: "XQR-D5"
        case .sourceURLInvalid: "XQR-D6"
        case .processNotLowercase: "XQR-D2"
        case .pidPlus: "XQR-D7"
        case .linkInvalidSyntax: "XQR-D8"
        case .linkTooLong: "XQR-D13"
        }
    }

    public var level: RuleLevel {
        switch self {
        case .processNotLowercase, .pidPlus, .linkInvalidSyntax: .should
        case .linkTooLong: .info
        default: .must
        }
    }
}
