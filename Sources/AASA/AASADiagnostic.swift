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
    case appsMissing = "apps-missing"
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
    case patternTooComplex = "pattern-too-complex"

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
        case .patternTooComplex: "AASA-37"
        case .appsMissing: "AASA-13"
        }
    }

    public var level: RuleLevel {
        switch self {
        case .noApplinks, .appIDPrefixUnusual, .unknownService: .info
        case .detailsDictionary, .queryDictionaryNonString, .componentUnknownKey, .pathsWithComponents,
             .patternUnicodeEncoded, .ruleUnreachable, .ruleDuplicate, .excludeAfterCatchAll, .patternTooComplex: .should
        default: .must
        }
    }
}

/// One problem found in a file, with its JSON Pointer, line and column (``DocumentDiagnostic``).
///
/// ```swift
/// let d = AASA.validate(Array(#"{"applinks": []}"#.utf8))[0]
/// d.code       // .applinksNotObject
/// d.pointer    // "/applinks"
/// ```
public typealias AASADiagnostic = DocumentDiagnostic<AASADiagnosticCode>
