import AASA
import Foundation

/// The rules of one app translated into Foundation regular expressions, the way an app or a
/// server would do it by hand: `*` -> `.*`, `?` -> `.`, a variable -> an alternation of its
/// values, everything else escaped, anchored at both ends, each compiled once. The URL is split
/// with `URLComponents`. The semantics follow the contract as far as such a translation easily
/// can (defaults applied, slash rules, parent of `/x/*`, query dictionaries, case, decoding);
/// the benchmark counts the URLs on which it disagrees with the module.
struct RegexTranslation {
    enum Query {
        case any
        case whole(NSRegularExpression)
        case items([(name: String, value: NSRegularExpression)])
    }

    struct Rule {
        let path: NSRegularExpression
        let query: Query
        let fragment: NSRegularExpression
        let exclude: Bool
        let caseSensitive: Bool
        let percentEncoded: Bool
    }

    let rules: [Rule]

    init(file: AASAFile, appID: String) {
        let variables = file.applinks?.variables ?? [:]
        rules = file.rules(for: appID).map { rule in
            let vars = rule.isLegacy ? [:] : variables
            let options: NSRegularExpression.Options = rule.caseSensitive ? [.dotMatchesLineSeparators] : [.dotMatchesLineSeparators, .caseInsensitive]
            func compile(_ body: String) -> NSRegularExpression {
                // Anything the translation cannot compile matches nothing.
                (try? NSRegularExpression(pattern: "^(?:" + body + ")$", options: options)) ?? (try! NSRegularExpression(pattern: "(?!)"))
            }
            // The path after the slash rules; `/x/*` also matches `/x`.
            let normalized = rule.normalizedPath
            var path = Self.translate(normalized, vars)
            if normalized.count > 2 && normalized.hasSuffix("/*") {
                path += "|" + Self.translate(String(normalized.dropLast(2)), vars)
            }
            let query: Query
            switch rule.query {
            case .ignored: query = .any
            case .string(let s): query = s == "*" ? .any : .whole(compile(Self.translate(s, vars)))
            case .dictionary(let items): query = .items(items.map { ($0.name, compile(Self.translate($0.pattern, vars))) })
            }
            return Rule(path: compile(path), query: query, fragment: compile(Self.translate(rule.fragment, vars)),
                        exclude: rule.exclude, caseSensitive: rule.caseSensitive, percentEncoded: rule.percentEncoded)
        }
    }

    /// A pattern as a regular expression body: `*`, `?`, `$(name)` (custom, then predefined;
    /// undefined ones literal), the rest escaped.
    static func translate(_ pattern: String, _ variables: [String: [String]]) -> String {
        rewritePattern(pattern, variable: { name in
            variables[name].map { "(?:" + $0.map(translatePlain).joined(separator: "|") + ")" } ?? predefined(name)
        }, character: { c in
            c == "*" ? ".*" : c == "?" ? "." : NSRegularExpression.escapedPattern(for: String(c))
        })
    }

    /// A variable's value: `*` and `?` only.
    static func translatePlain(_ value: String) -> String {
        value.map { $0 == "*" ? ".*" : $0 == "?" ? "." : NSRegularExpression.escapedPattern(for: String($0)) }.joined()
    }

    /// The predefined variables as regular expression bodies.
    static func predefined(_ name: String) -> String? {
        switch name {
        case "alpha": "[A-Za-z]"
        case "upper": "[A-Z]"
        case "lower": "[a-z]"
        case "alnum": "[A-Za-z0-9]"
        case "digit": "[0-9]"
        case "xdigit": "[0-9A-Fa-f]"
        case "region": "(?:" + AASAPredefined.regionCodes.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|") + ")"
        case "lang": "(?:" + AASAPredefined.languageCodes.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|") + ")"
        default: nil
        }
    }

    /// `match`, `exclude` or `no_match`, as the module's kinds.
    func match(url: String, domain: String) -> AASAMatchKind {
        guard let c = URLComponents(string: url), c.scheme?.lowercased() == "https", c.user == nil, c.password == nil,
              c.port == nil || c.port == 443, c.host?.lowercased() == domain.lowercased() else { return .noMatch }
        let rawPath = c.percentEncodedPath, rawQuery = c.percentEncodedQuery, rawFragment = c.percentEncodedFragment ?? ""
        var decoded: (path: String, query: String, fragment: String)?
        for rule in rules {
            let path: String, query: String, fragment: String
            if rule.percentEncoded {
                (path, query, fragment) = (Self.normalizedPath(rawPath), rawQuery ?? "", rawFragment)
            } else {
                if decoded == nil {
                    decoded = (Self.normalizedPath(rawPath.removingPercentEncoding ?? rawPath),
                               (rawQuery ?? "").removingPercentEncoding ?? (rawQuery ?? ""), rawFragment.removingPercentEncoding ?? rawFragment)
                }
                (path, query, fragment) = decoded!
            }
            guard Self.matches(rule.path, path), Self.matches(rule.fragment, fragment) else { continue }
            switch rule.query {
            case .any: break
            case .whole(let rx): guard Self.matches(rx, query) else { continue }
            case .items(let items):
                let pairs = (rawQuery ?? "").split(separator: "&", omittingEmptySubsequences: false).map { item -> (String, String) in
                    let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name = String(parts[0]), value = parts.count > 1 ? String(parts[1]) : ""
                    return rule.percentEncoded ? (name, value) : (name.removingPercentEncoding ?? name, value.removingPercentEncoding ?? value)
                }
                let ok = items.allSatisfy { item in
                    let values = pairs.filter { rule.caseSensitive ? $0.0 == item.name : $0.0.lowercased() == item.name.lowercased() }.map(\.1)
                    return values.isEmpty ? Self.matches(item.value, "") : values.allSatisfy { Self.matches(item.value, $0) }
                }
                guard ok else { continue }
            }
            return rule.exclude ? .exclude : .match
        }
        return .noMatch
    }

    static func matches(_ rx: NSRegularExpression, _ s: String) -> Bool {
        rx.firstMatch(in: s, options: [], range: NSRange(location: 0, length: s.utf16.count)) != nil
    }

    /// The input's slash rules: an empty path reads as `/`, a leading run of slashes as one, a
    /// trailing run is dropped.
    static func normalizedPath(_ p: String) -> String {
        var s = Substring(p)
        while s.hasPrefix("/") { s = s.dropFirst() }
        while s.hasSuffix("/") { s = s.dropLast() }
        return "/" + s
    }
}

/// A pattern rewritten piece by piece: each `$(name)` by `variable(name)` (nil: read as literal
/// text), each other character by `character`.
func rewritePattern(_ pattern: String, variable: (String) -> String?, character: (Character) -> String) -> String {
    var out = ""
    var rest = Substring(pattern)
    while let c = rest.first {
        if rest.hasPrefix("$("), let close = rest.firstIndex(of: ")"),
           let replaced = variable(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])) {
            out += replaced
            rest = rest[rest.index(after: close)...]
            continue
        }
        out += character(c)
        rest = rest.dropFirst()
    }
    return out
}
