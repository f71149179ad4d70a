import AASA

let app = "ABCDE12345.com.example.app"
let domain = "example.com"

/// A file with one entry for `app` whose components are `components` (JSON array text).
func fileText(components: String, entryDefaults: String? = nil, defaults: String? = nil, variables: String? = nil) -> String {
    var applinks: [String] = []
    if let defaults { applinks.append(#""defaults": \#(defaults)"#) }
    if let variables { applinks.append(#""substitutionVariables": \#(variables)"#) }
    var entry = [#""appIDs": ["\#(app)"]"#, #""components": \#(components)"#]
    if let entryDefaults { entry.append(#""defaults": \#(entryDefaults)"#) }
    applinks.append(#""details": [{\#(entry.joined(separator: ", "))}]"#)
    return #"{"applinks": {\#(applinks.joined(separator: ", "))}}"#
}

func parsed(_ text: String) -> AASAFile? { AASAFile.parse(Array(text.utf8)).0 }

func codes(_ text: String) -> Set<String> { Set(AASA.validate(Array(text.utf8)).map(\.code.rawValue)) }

func diagnostics(_ text: String) -> [AASADiagnostic] { AASA.validate(Array(text.utf8)) }

/// The match kind of `path` (everything after the host) for `app` on `domain`.
func kind(_ text: String, _ rest: String, appID: String = app) -> AASAMatchKind {
    AASA.match(Array(text.utf8), domain: domain, appID: appID, url: "https://example.com" + rest).kind
}

/// The match kind of `rest` against one component.
func kindOf(component: String, _ rest: String) -> AASAMatchKind {
    kind(fileText(components: "[\(component)]"), rest)
}
