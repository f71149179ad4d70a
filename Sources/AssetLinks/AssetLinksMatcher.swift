import AASA
import LinkURL

/// What a URL gets from the dynamic app-link components an app's statements carry
/// (`assetlinks.match`, docs/assetlinks.md "Matching").
public enum AssetLinksMatchKind: String, Sendable, Hashable, CaseIterable {
    /// A component matches and does not exclude: the app opens the URL.
    case match
    /// The first matching component excludes the URL: the browser opens it.
    case exclude
    /// The app has dynamic components and none matches (or the URL is not one of the domain's):
    /// the browser opens it.
    case noMatch = "no_match"
    /// The app is verified but no statement for it carries dynamic components: the intent
    /// filters of its manifest alone decide.
    case noDynamicRules = "no_dynamic_rules"
    /// No statement grants `delegate_permission/common.handle_all_urls` to the app: App Links
    /// are not verified for this domain.
    case notVerified = "not_verified"
}

/// The answer of ``AssetLinksMatcher/match(url:domain:)``: what happens, the deciding component
/// (statement index, component index, its JSON) when one decided, and why: for people
/// (`reason`) and in a few stable words (`cause`).
public struct AssetLinksMatchResult: Sendable, Hashable {
    public let kind: AssetLinksMatchKind
    public let statement: Int?
    public let component: Int?
    public let pattern: String?
    public let reason: String
    /// Why, in words that stay the same from one input to the next (docs/assetlinks.md, "Why
    /// an answer"): `not-verified`, `no-dynamic-components`, a URL problem (`url-not-app-link`,
    /// `url-userinfo`, `url-port`, `url-host-mismatch`), `no-component-matched`, or for `match`
    /// and `exclude` the deciding component's shape (``AssetLinksMatcher/shape(of:)``).
    public let cause: String
}

/// The dynamic components of one app (package and signing fingerprint) from a tree of
/// statements, compiled once with the AASA pattern engine.
///
/// Semantics (decided where the sources are silent; docs/assetlinks.md): components of every
/// statement that grants the app `handle_all_urls` are tried in file order and the first whose
/// `/`, `?` and `#` all match decides; `*` is any run, `?` one character, nothing else is
/// special (no substitution variables); the path (empty read as `/`), each query parameter's
/// name and value, and the fragment are compared percent-decoded once, case-sensitively, with
/// no slash rule; a `?` dictionary needs every named parameter present, and reads its first
/// occurrence (an item without `=` has the value ""); a missing `/`, `?` or `#` matches
/// anything.
///
/// ```swift
/// let matcher = AssetLinksMatcher(statements: list.statements, packageName: "com.example.app", fingerprint: fp)
/// matcher.match(url: "https://example.com/products/42", domain: "example.com").kind   // .match
/// ```
public struct AssetLinksMatcher: Sendable {
    struct Compiled: Sendable {
        let statement: Int
        let component: AssetLinksComponent
        let path: AASAAutomaton?
        let query: [(name: String, value: AASAAutomaton)]
        let fragment: AASAAutomaton?
    }

    /// Whether some statement grants the app `handle_all_urls`.
    public let verified: Bool
    /// Whether one of those statements carries dynamic components.
    public let hasDynamicRules: Bool
    let rules: [Compiled]

    static let options = AASACompareOptions(caseSensitive: true, percentEncoded: false)

    public init(statements: [AssetLinksStatement], packageName: String, fingerprint: String) {
        let granting = statements.filter { $0.grants(AssetLinksRelation.handleAllURLs, packageName: packageName, fingerprint: fingerprint) }
        verified = !granting.isEmpty
        hasDynamicRules = granting.contains { $0.dynamicComponents != nil }
        rules = granting.flatMap { statement in
            (statement.dynamicComponents ?? []).map { c in
                Compiled(statement: statement.index, component: c,
                         path: c.path.map { AASAPatternCompiler.compileGlob($0, options: Self.options) },
                         query: (c.query ?? []).map { ($0.name, AASAPatternCompiler.compileGlob($0.pattern, options: Self.options)) },
                         fragment: c.fragment.map { AASAPatternCompiler.compileGlob($0, options: Self.options) })
            }
        }
    }

    /// What `url` gets on `domain` (the host the list is served for).
    public func match(url: String, domain: String) -> AssetLinksMatchResult {
        guard verified else {
            return AssetLinksMatchResult(kind: .notVerified, statement: nil, component: nil, pattern: nil,
                                         reason: "no valid statement grants delegate_permission/common.handle_all_urls to this package and fingerprint",
                                         cause: "not-verified")
        }
        guard hasDynamicRules else {
            return AssetLinksMatchResult(kind: .noDynamicRules, statement: nil, component: nil, pattern: nil,
                                         reason: "the app is verified and no statement for it has dynamic components: its manifest's intent filters decide",
                                         cause: "no-dynamic-components")
        }
        if let problem = Self.urlProblem(url, domain: domain) {
            return AssetLinksMatchResult(kind: .noMatch, statement: nil, component: nil, pattern: nil, reason: problem.message, cause: problem.cause)
        }
        let parsed = LinkURL(parsing: url)
        let pathBytes = parsed.bytes[parsed.path]
        let path = pathBytes.isEmpty ? [0x2F] : AASAPatternCompiler.comparedCharacters(Array(pathBytes), options: Self.options)
        let fragment = AASAPatternCompiler.comparedCharacters(parsed.fragment.map { Array(parsed.bytes[$0]) } ?? [], options: Self.options)
        let items = parsed.queryItems
        var parameters: [(name: [UInt32], value: [UInt32])] = []
        for item in items {
            let name = AASAPatternCompiler.comparedCharacters(Array(items.bytes[item.name]), options: Self.options)
            let value = item.value.map { AASAPatternCompiler.comparedCharacters(Array(items.bytes[$0]), options: Self.options) } ?? []
            parameters.append((name, value))
        }
        for rule in rules {
            if let p = rule.path, !p.accepts(path) { continue }
            if let f = rule.fragment, !f.accepts(fragment) { continue }
            let queryMatches = rule.query.allSatisfy { wanted in
                let name = Array(wanted.name.unicodeScalars.map(\.value))
                guard let first = parameters.first(where: { $0.name == name }) else { return false }
                return wanted.value.accepts(first.value)
            }
            if !queryMatches { continue }
            let kind: AssetLinksMatchKind = rule.component.exclude ? .exclude : .match
            return AssetLinksMatchResult(kind: kind, statement: rule.statement, component: rule.component.index, pattern: rule.component.text,
                                         reason: "statement \(rule.statement), component \(rule.component.index) \(rule.component.text) decides",
                                         cause: Self.shape(of: rule.component))
        }
        return AssetLinksMatchResult(kind: .noMatch, statement: nil, component: nil, pattern: nil,
                                     reason: "none of the app's \(rules.count) dynamic component\(rules.count == 1 ? "" : "s") matches",
                                     cause: "no-component-matched")
    }

    /// Why `url` is not an App Link URL of `domain`: not absolute http(s) with valid syntax,
    /// userinfo, a port other than the scheme's default, or another host (ASCII
    /// case-insensitively, a trailing dot ignored).
    public static func urlProblem(_ url: String, domain: String) -> (cause: String, message: String)? {
        guard let web = AssetLinksWebURL(url) else { return ("url-not-app-link", "not an App Link URL: \(AssetLinksWebURL.problem(url))") }
        if web.url.userinfo != nil { return ("url-userinfo", "the URL has user information") }
        if let port = web.url.port, port != web.defaultPort { return ("url-port", "the URL has the port \(port)") }
        var d = domain.lowercased()
        if d.hasSuffix(".") { d.removeLast() }
        if web.host != d { return ("url-host-mismatch", "the host \(web.host) is not \(d)") }
        return nil
    }

    /// A component's shape, for a cause: the parts it constrains, in the order `/`, `?`, `#`,
    /// each followed by `-wildcards` when its patterns hold `*` or `?` (`path-wildcards,
    /// query`); `any-url` for a component that constrains nothing.
    ///
    /// ```swift
    /// // {"/": "/shop/*", "?": {"id": "42"}}
    /// AssetLinksMatcher.shape(of: component)   // "path-wildcards, query"
    /// ```
    public static func shape(of component: AssetLinksComponent) -> String {
        func part(_ name: String, _ patterns: [String]) -> String {
            patterns.contains { $0.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") } } ? name + "-wildcards" : name
        }
        var parts: [String] = []
        if let path = component.path { parts.append(part("path", [path])) }
        if let query = component.query { parts.append(part("query", query.map(\.pattern))) }
        if let fragment = component.fragment { parts.append(part("fragment", [fragment])) }
        return parts.isEmpty ? "any-url" : parts.joined(separator: ", ")
    }
}
