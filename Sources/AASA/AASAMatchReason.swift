extension AASA {
    /// Why ``match(_:domain:appID:url:memo:)`` answered `result` for these arguments, in a few
    /// stable words (docs/aasa.md, "Why an answer"):
    /// - for `no_match`, the first thing that stopped the URL, in the order matching meets them:
    ///   `file-too-large` (over 128 KB: the system refuses it), `file-unreadable` (not a JSON
    ///   object), `url-unreadable`, `url-not-https`,
    ///   `url-userinfo`, `url-port`, `url-host-mismatch`, `no-applinks`, `app-not-listed`,
    ///   `app-has-no-rules` (entries list the app, with no rules), `no-rule-decided`;
    /// - for `match` and `exclude`, the shape of the deciding rule (``shape(of:)``).
    ///
    /// Reported beside the answer, never judged. Differential fuzzing names it in a finding's
    /// signature, so that a matcher wrong about hosts and one wrong about query dictionaries are
    /// two findings, not one `result` finding.
    ///
    /// ```swift
    /// let r = AASA.match(bytes, domain: "example.com", appID: id, url: "http://example.com/a", memo: nil)
    /// AASA.reason(for: r, bytes, domain: "example.com", appID: id, url: "http://example.com/a", memo: nil)   // "url-not-https"
    /// ```
    public static func reason(for result: AASAMatchResult, _ bytes: [UInt8], domain: String, appID: String, url: String,
                              memo: (any AASAMemoStore)?) -> String {
        if let rule = result.rule { return shape(of: rule) }
        if isRefusedForSize(bytes) { return "file-too-large" }
        let file: AASAFile?
        if let memo, let value = memo.value(for: AASAMemo.Key(kind: .file(AASAMemo.FileKey(bytes)))), case .file(let f, _) = value.kind {
            file = f
        } else {
            file = AASAFile.parse(bytes).0
        }
        guard let file else { return "file-unreadable" }
        guard let parts = AASAURLParts.read(url) else { return AASAURLProblem.unreadable.reason }
        if let problem = parts.problem(domain: domain) { return problem.reason }
        guard let applinks = file.applinks else { return "no-applinks" }
        let entries = file.entries(listing: appID)
        if entries.isEmpty { return "app-not-listed" }
        if entries.allSatisfy({ file.rules(of: applinks.details[$0], in: applinks).isEmpty }) { return "app-has-no-rules" }
        return "no-rule-decided"
    }

    /// What a deciding rule constrains, in words: `legacy-path` for a `paths` string; the path
    /// as `any-path` (`*`), `path-literal`, `path-wildcards` or `path-variables`; `query` (a
    /// string pattern other than `*`), `query-items` (a dictionary) or `query-ignored` (a
    /// dictionary iOS ignores); `fragment` (other than `*`); `case-insensitive`; `decoded`
    /// (`percentEncoded` false). Defaults are applied: this is the rule as matched.
    ///
    /// ```swift
    /// AASA.shape(of: rule)   // "path-wildcards, query-items, case-insensitive"
    /// ```
    public static func shape(of rule: AASARule) -> String {
        var parts: [String] = []
        if rule.isLegacy { parts.append("legacy-path") }
        let path = rule.path
        if path == "*" {
            parts.append("any-path")
        } else if path.contains("$(") {
            parts.append("path-variables")
        } else if path.contains(where: { $0 == "*" || $0 == "?" }) {
            parts.append("path-wildcards")
        } else {
            parts.append("path-literal")
        }
        switch rule.query {
        case .string(let s) where s != "*": parts.append("query")
        case .string: break
        case .dictionary: parts.append("query-items")
        case .ignored: parts.append("query-ignored")
        }
        if rule.fragment != "*" { parts.append("fragment") }
        if !rule.caseSensitive { parts.append("case-insensitive") }
        if !rule.percentEncoded { parts.append("decoded") }
        return parts.joined(separator: ", ")
    }
}

extension AASAURLProblem {
    /// The problem as ``AASA/reason(for:_:domain:appID:url:memo:)`` names it: `url-not-https`, ...
    public var reason: String {
        switch self {
        case .unreadable: "url-unreadable"
        case .notHTTPS: "url-not-https"
        case .userinfo: "url-userinfo"
        case .port: "url-port"
        case .hostMismatch: "url-host-mismatch"
        }
    }
}
