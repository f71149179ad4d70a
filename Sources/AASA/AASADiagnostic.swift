import LinkRules

/// The codes of ``AASADiagnostic``: one per problem of the contract's table (docs/aasa.md,
/// "Diagnostic codes"), with the requirement id and level given there.
///
/// ```swift
/// AASADiagnosticCode.fileTooLarge.rawValue      // "file-too-large"
/// AASADiagnosticCode.fileTooLarge.requirement   // "AASA-2"
/// AASADiagnosticCode.ruleUnreachable.level      // .should
/// ```
public enum AASADiagnosticCode: String, RuleCode {
    case notJSON = "not-json"
    case notObject = "not-object"
    case fileTooLarge = "file-too-large"
    case noApplinks = "no-applinks"
    case applinksNotObject = "applinks-not-object"
    case detailsMissing = "details-missing"
    case detailsWrongType = "details-wrong-type"
    case detailsDictionary = "details-dictionary"
    case detailNotObject = "detail-not-object"
    case appIDsMissing = "appids-missing"
    case appIDsWrongType = "appids-wrong-type"
    case appIDArray = "appid-array"
    case appIDWrongType = "appid-wrong-type"
    case appIDMalformed = "appid-malformed"
    case appIDPrefixUnusual = "appid-prefix-unusual"
    case componentsWrongType = "components-wrong-type"
    case componentNotObject = "component-not-object"
    case componentWrongType = "component-wrong-type"
    case queryDictionaryNonString = "query-dictionary-non-string"
    case componentUnknownKey = "component-unknown-key"
    case pathsWithComponents = "paths-with-components"
    case pathsWrongType = "paths-wrong-type"
    case appsNotEmpty = "apps-not-empty"
    case defaultsWrongType = "defaults-wrong-type"
    case variablesWrongType = "variables-wrong-type"
    case variableNameInvalid = "variable-name-invalid"
    case variableUndefined = "variable-undefined"
    case variableRecursive = "variable-recursive"
    case patternUnicodeEncoded = "pattern-unicode-encoded"
    case ruleUnreachable = "rule-unreachable"
    case ruleDuplicate = "rule-duplicate"
    case excludeAfterCatchAll = "exclude-after-catch-all"
    case serviceWrongType = "service-wrong-type"
    case unknownService = "unknown-service"

    public var requirement: String {
        switch self {
        case .notJSON, .notObject: "AASA-1"
        case .fileTooLarge: "AASA-2"
        case .noApplinks: "AASA-36"
        case .applinksNotObject, .detailsMissing, .detailsWrongType, .detailNotObject: "AASA-3"
        case .detailsDictionary: "AASA-4"
        case .appIDsMissing, .appIDsWrongType, .appIDArray, .appIDWrongType: "AASA-5"
        case .appIDMalformed: "AASA-6"
        case .appIDPrefixUnusual: "AASA-7"
        case .componentsWrongType, .componentNotObject: "AASA-8"
        case .componentWrongType: "AASA-9"
        case .queryDictionaryNonString: "AASA-10"
        case .componentUnknownKey: "AASA-11"
        case .pathsWithComponents: "AASA-12"
        case .pathsWrongType, .appsNotEmpty: "AASA-13"
        case .defaultsWrongType: "AASA-14"
        case .variablesWrongType, .variableNameInvalid, .variableUndefined, .variableRecursive: "AASA-15"
        case .patternUnicodeEncoded: "AASA-16"
        case .ruleUnreachable, .ruleDuplicate, .excludeAfterCatchAll: "AASA-17"
        case .serviceWrongType: "AASA-18"
        case .unknownService: "AASA-19"
        }
    }

    public var level: RuleLevel {
        switch self {
        case .noApplinks, .appIDPrefixUnusual, .unknownService: .info
        case .detailsDictionary, .queryDictionaryNonString, .componentUnknownKey, .pathsWithComponents,
             .patternUnicodeEncoded, .ruleUnreachable, .ruleDuplicate, .excludeAfterCatchAll: .should
        default: .must
        }
    }
}

/// One problem found in a file: its code (tied to a requirement and level), where it is (a JSON
/// Pointer, RFC 6901, and the 1-based line and column of that value in the text; `""` and 1:1
/// for the whole file) and a message for people.
///
/// ```swift
/// let d = AASA.validate(Array(#"{"applinks": []}"#.utf8))[0]
/// d.code       // .applinksNotObject
/// d.pointer    // "/applinks"
/// d.line       // 1
/// d.column     // 14
/// ```
public struct AASADiagnostic: Sendable, Hashable, CustomStringConvertible {
    public let code: AASADiagnosticCode
    public let pointer: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(_ code: AASADiagnosticCode, pointer: String, line: Int, column: Int, message: String) {
        self.code = code
        self.pointer = pointer
        self.line = line
        self.column = column
        self.message = message
    }

    public var requirement: String { code.requirement }
    public var level: RuleLevel { code.level }

    /// `line:column AASA-n LEVEL code at pointer: message`.
    public var description: String {
        "\(line):\(column) \(requirement) \(level.rawValue) \(code.rawValue) at \(pointer.isEmpty ? "(file)" : pointer): \(message)"
    }
}
