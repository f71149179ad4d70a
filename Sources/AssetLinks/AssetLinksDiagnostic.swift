import LinkRules

/// The codes of ``AssetLinksDiagnostic``: one per problem of the contract's table
/// (docs/assetlinks.md, "Diagnostic codes"), each tied to a requirement of
/// `Corpus/assetlinks/requirements.json` and its level.
///
/// ```swift
/// AssetLinksDiagnosticCode.fingerprintMalformed.rawValue      // "fingerprint-malformed"
/// AssetLinksDiagnosticCode.fingerprintMalformed.requirement   // "AL-11"
/// AssetLinksDiagnosticCode.relationUnknown.level              // .info
/// ```
public enum AssetLinksDiagnosticCode: String, RuleCode {
    case notJSON = "not-json"
    case notArray = "not-array"
    case fileTooLarge = "file-too-large"
    case listEmpty = "list-empty"
    case statementNotObject = "statement-not-object"
    case statementUnknownKey = "statement-unknown-key"
    case relationMissing = "relation-missing"
    case relationNotArray = "relation-not-array"
    case relationNotString = "relation-not-string"
    case relationInvalid = "relation-invalid"
    case relationEmpty = "relation-empty"
    case relationUnknown = "relation-unknown"
    case targetMissing = "target-missing"
    case targetNotObject = "target-not-object"
    case namespaceUnknown = "namespace-unknown"
    case siteMissing = "site-missing"
    case siteInvalid = "site-invalid"
    case siteUserinfo = "site-userinfo"
    case siteHasPath = "site-has-path"
    case siteHasQuery = "site-has-query"
    case siteHasFragment = "site-has-fragment"
    case siteDefaultPort = "site-default-port"
    case packageMissing = "package-missing"
    case packageInvalid = "package-invalid"
    case packageNameUnusual = "package-name-unusual"
    case fingerprintsMissing = "fingerprints-missing"
    case fingerprintsNotArray = "fingerprints-not-array"
    case fingerprintsEmpty = "fingerprints-empty"
    case fingerprintNotString = "fingerprint-not-string"
    case fingerprintMalformed = "fingerprint-malformed"
    case includeInvalid = "include-invalid"
    case includeWithFields = "include-with-fields"
    case includeInsecure = "include-insecure"
    case includeLimit = "include-limit"
    case extensionsWrongType = "extensions-wrong-type"
    case extensionRelationUndeclared = "extension-relation-undeclared"
    case dynamicComponentsWrongType = "dynamic-components-wrong-type"
    case componentWrongType = "component-wrong-type"
    case componentUnknownKey = "component-unknown-key"
    case dynamicTargetNotApp = "dynamic-target-not-app"

    public var requirement: String {
        switch self {
        case .notJSON, .notArray: "AL-1"
        case .fileTooLarge: "AL-D1"
        case .listEmpty: "AL-2"
        case .statementNotObject, .relationMissing, .relationNotArray, .relationNotString: "AL-3"
        case .relationInvalid: "AL-4"
        case .relationUnknown: "AL-5"
        case .relationEmpty: "AL-D2"
        case .targetMissing, .targetNotObject, .namespaceUnknown: "AL-6"
        case .siteMissing, .siteInvalid, .siteUserinfo, .siteHasPath, .siteHasQuery, .siteHasFragment: "AL-7"
        case .siteDefaultPort: "AL-8"
        case .packageMissing, .packageInvalid: "AL-9"
        case .packageNameUnusual: "AL-D3"
        case .fingerprintsMissing, .fingerprintsNotArray, .fingerprintsEmpty, .fingerprintNotString: "AL-10"
        case .fingerprintMalformed: "AL-11"
        case .includeInvalid, .includeWithFields: "AL-12"
        case .includeInsecure: "AL-13"
        case .includeLimit: "AL-14"
        case .statementUnknownKey: "AL-15"
        case .extensionsWrongType, .dynamicComponentsWrongType, .componentWrongType: "AL-16"
        case .componentUnknownKey: "AL-17"
        case .extensionRelationUndeclared: "AL-D4"
        case .dynamicTargetNotApp: "AL-D5"
        }
    }

    public var level: RuleLevel {
        switch self {
        case .relationUnknown, .statementUnknownKey: .info
        case .relationEmpty, .siteDefaultPort, .packageNameUnusual, .componentUnknownKey, .extensionRelationUndeclared,
             .dynamicTargetNotApp: .should
        default: .must
        }
    }
}

/// One problem found in a statement list, with its JSON Pointer, line and column
/// (``DocumentDiagnostic``).
///
/// ```swift
/// let d = AssetLinks.validate(Array(#"{"relation": []}"#.utf8))[0]
/// d.code       // .notArray
/// d.pointer    // ""
/// ```
public typealias AssetLinksDiagnostic = DocumentDiagnostic<AssetLinksDiagnosticCode>
