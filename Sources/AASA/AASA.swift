/// The operations of the `aasa` suite over a file's bytes (docs/aasa.md).
///
/// ```swift
/// let bytes = Array(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}"#.utf8)
/// AASA.validate(bytes).map(\.code.rawValue)   // []
/// AASA.match(bytes, domain: "example.com", appID: "ABCDE12345.com.example.app",
///            url: "https://example.com/buy").kind   // .match
/// ```
public enum AASA {
    /// Every diagnostic of the contract's table for the file: the structural and pattern ones of
    /// ``AASAFile/parse(_:)`` and the rule analysis (``AASARuleAnalysis``), in that order.
    public static func validate(_ bytes: [UInt8]) -> [AASADiagnostic] {
        let (file, diagnostics, locations) = AASAFile.read(bytes)
        guard let file else { return diagnostics }
        return diagnostics + AASARuleAnalysis.diagnostics(file, locations: locations)
    }

    /// `aasa.match` in one call: parses, compiles the app's rules and matches one URL. A file
    /// that cannot be read, or whose `applinks` cannot, gives `no_match`. For one URL the rules
    /// are tried one by one: the tables a matcher shares between rules cost more to build than
    /// they save on a single URL (``AASAFile/matcher(appID:)`` is for many).
    public static func match(_ bytes: [UInt8], domain: String, appID: String, url: String) -> AASAMatchResult {
        guard let file = AASAFile.parse(bytes).0 else { return .noMatch }
        return AASAMatcher.matchRuleByRule(file.compiledRules(appID: appID), url: url, domain: domain)
    }
}
