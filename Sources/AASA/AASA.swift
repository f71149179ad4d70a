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
        validate(bytes, memo: nil)
    }

    /// ``validate(_:)`` keeping compiled rules and what the analysis found about them in `memo`
    /// (``AASAMemoStore``; nil: none): the same diagnostics, in the same order.
    public static func validate(_ bytes: [UInt8], memo: (any AASAMemoStore)?) -> [AASADiagnostic] {
        let (file, diagnostics, locations) = AASAFile.read(bytes)
        guard let file else { return diagnostics }
        return diagnostics + AASARuleAnalysis.diagnostics(file, locations: locations, memo: memo)
    }

    /// `aasa.match` in one call: parses, compiles the app's rules and matches one URL. A file
    /// that cannot be read, or whose `applinks` cannot, gives `no_match`, and so does a file over
    /// 128 KB (``aasaPlatformSizeLimit``), which the system refuses whatever it holds (AASA-2).
    /// For one URL the rules are tried one by one: the tables a matcher shares between rules cost
    /// more to build than they save on a single URL (``AASAFile/matcher(appID:)`` is for many).
    public static func match(_ bytes: [UInt8], domain: String, appID: String, url: String) -> AASAMatchResult {
        guard !isRefusedForSize(bytes), let file = AASAFile.parse(bytes).0 else { return .noMatch }
        return AASAMatcher.matchRuleByRule(file.compiledRules(appID: appID), url: url, domain: domain)
    }

    /// Whether the system refuses the file for its size alone: over 128 KB, uncompressed. It
    /// matches no URL then; `validate` still reads it, to list what else a fix must mend.
    public static func isRefusedForSize(_ bytes: [UInt8]) -> Bool { bytes.count > aasaPlatformSizeLimit }

    /// ``match(_:domain:appID:url:)`` keeping in `memo` the file read and its rules compiled
    /// (by its bytes) and each rule compiled (by what it compiles from): the same answer.
    public static func match(_ bytes: [UInt8], domain: String, appID: String, url: String, memo: (any AASAMemoStore)?) -> AASAMatchResult {
        guard let memo, !isRefusedForSize(bytes) else { return match(bytes, domain: domain, appID: appID, url: url) }
        let key = AASAMemo.Key(kind: .file(AASAMemo.FileKey(bytes)))
        let file: AASAFile?, byEntry: [[AASACompiledRule]]
        if let value = memo.value(for: key), case .file(let f, let b) = value.kind {
            (file, byEntry) = (f, b)
        } else {
            file = AASAFile.parse(bytes).0
            var spent = 0
            byEntry = file?.compiledRulesByEntry(memo: memo, spent: &spent) ?? []
            // The file's weight counts its compiled automata: a file entry holds them even once
            // the rules' own entries are gone (without them, 60 files at the compile budget
            // held 870 MB against a weight of 44,000).
            memo.keep(AASAMemo.Value(kind: .file(file, byEntry), weight: bytes.count + 64 * (byEntry.joined().count + 1) + spent), for: key)
        }
        guard let file else { return .noMatch }
        return AASAMatcher.matchRuleByRule(file.entries(listing: appID).flatMap { byEntry[$0] }, url: url, domain: domain)
    }
}
