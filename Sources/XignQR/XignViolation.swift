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
    case linkHasFragment = "link-has-fragment"
    /// Only from ``XignQR/checkPID(_:)``: the pid's base64 is refused (no safe repair).
    case pidRefused = "pid-refused"
    /// Only from ``XignQR/checkPID(_:)``: the pid needed a named repair.
    case pidRepaired = "pid-repaired"
    /// Only from ``XignQR/checkPID(_:)``: the decoded pid is not protocol-buffers wire format.
    case pidNotProtobuf = "pid-not-protobuf"
    /// Only from ``XignQR/checkPID(_:)``: the pid is over the decoder's limits.
    case pidOverLimit = "pid-over-limit"

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
        case .linkHasFragment: "XQR-D14"
        case .pidRepaired: "XQR-D9"
        case .pidRefused: "XQR-D10"
        case .pidNotProtobuf: "XQR-D11"
        case .pidOverLimit: "XQR-D12"
        }
    }

    public var level: RuleLevel {
        switch self {
        case .processNotLowercase, .pidPlus, .linkInvalidSyntax, .linkHasFragment, .pidRepaired, .pidNotProtobuf: .should
        case .linkTooLong, .pidOverLimit: .info
        default: .must
        }
    }
}
