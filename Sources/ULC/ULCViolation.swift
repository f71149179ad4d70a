import XCallbackURL

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
public struct ULCViolation: Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, CaseIterable {
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
            case .callbackEmpty, .callbackNotAbsolute, .callbackNotHTTPS, .callbackNoHost, .callbackInvalidURL: "ULC-6"
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
        public var level: ULCLevel {
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

    public let code: Code
    /// The callback parameter concerned, for callback codes.
    public let parameter: ULCParameter?
    /// Byte offset in the link where the problem shows, when there is one place.
    public let offset: Int?
    /// What was found, for people.
    public let message: String

    public init(_ code: Code, parameter: ULCParameter? = nil, offset: Int? = nil, message: String) {
        self.code = code
        self.parameter = parameter
        self.offset = offset
        self.message = message
    }

    public var requirement: String { code.requirement }
    public var level: ULCLevel { code.level }

    /// `parameter:code`, or `code` for link-level violations: the form corpus cases list.
    public var key: String {
        parameter.map { "\($0.rawValue):\(code.rawValue)" } ?? code.rawValue
    }

    public var description: String { "\(requirement) \(level.rawValue) \(key): \(message)" }
}

/// Requirement levels: the same enumeration for every protocol module.
public typealias ULCLevel = RuleLevel

/// The two callback parameters.
public enum ULCParameter: String, Sendable, Hashable, CaseIterable {
    case success = "ulc-success"
    case error = "ulc-error"
}
