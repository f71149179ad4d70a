import LinkJSON

/// One rule of an app, with the defaults hierarchy applied (contract, Matching rule 3): each of
/// `/`, `?`, `#`, `exclude`, `caseSensitive`, `percentEncoded` comes from the component, then
/// its entry's `defaults`, then `applinks.defaults`, then the built-ins (`*`, `*`, `*`, false,
/// true, true). A legacy `paths` entry is a rule on the path only, case-sensitive, as written,
/// excluding when it starts with `NOT `; defaults do not apply to it.
public struct AASARule: Sendable, Hashable {
    /// Where a rule is written in its entry.
    public enum Origin: Sendable, Hashable {
        /// Index in `components`.
        case component(Int)
        /// Index in legacy `paths`.
        case legacyPath(Int)

        public var index: Int {
            switch self {
            case .component(let i), .legacyPath(let i): i
            }
        }
    }

    public let detail: AASADetailKey
    public let origin: Origin
    /// JSON Pointer of the component or the `paths` string.
    public let pointer: String
    public let path: String
    public let query: AASAQueryPattern
    public let fragment: String
    public let exclude: Bool
    public let caseSensitive: Bool
    public let percentEncoded: Bool
    /// Where `/`, `?` and `#` come from (JSON Pointers), nil for the built-in `*`.
    public let pathPointer: String?
    public let queryPointer: String?
    public let fragmentPointer: String?

    public var options: AASACompareOptions { AASACompareOptions(caseSensitive: caseSensitive, percentEncoded: percentEncoded) }
    public var isLegacy: Bool { if case .legacyPath = origin { true } else { false } }

    /// The rule as text: a legacy path as written, a component as the JSON object of the keys
    /// that do not come from the built-ins (with `exclude` and the flags when they differ from them).
    public var text: String {
        if isLegacy { return exclude ? "NOT " + path : path }
        var object = JSONObject()
        if pathPointer != nil { object.append("/", .string(path)) }
        switch query {
        case .string(let s) where queryPointer != nil: object.append("?", .string(s))
        case .dictionary(let items): object.append("?", .object(JSONObject(items.map { .init(key: $0.name, value: .string($0.pattern)) })))
        case .ignored: object.append("?", "(ignored dictionary)")
        default: break
        }
        if fragmentPointer != nil { object.append("#", .string(fragment)) }
        if exclude { object.append("exclude", true) }
        if !caseSensitive { object.append("caseSensitive", false) }
        if !percentEncoded { object.append("percentEncoded", false) }
        return JSONValue.object(object).serialized()
    }

    /// Where the rule is written, for messages: `details[0] components[2] {"/":"/buy/*"}`.
    public var place: String {
        "details[\(detail)] \(isLegacy ? "paths" : "components")[\(origin.index)] \(text)"
    }

    /// What the rule answers when it decides.
    public var matchKind: AASAMatchKind { exclude ? .exclude : .match }

    /// The path pattern after the slash rules (`//buy/` reads as `/buy`).
    public var normalizedPath: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: AASAPatternCompiler.normalizedPathPattern(Array(path.unicodeScalars)).main)
        return String(view)
    }

    /// Everything but the path equal: query, fragment, exclusion and flags.
    func sameSettings(as other: AASARule) -> Bool {
        query == other.query && fragment == other.fragment && exclude == other.exclude
            && caseSensitive == other.caseSensitive && percentEncoded == other.percentEncoded
    }
}

extension AASAFile {
    /// The rules the system tries for `appID`, in order (contract, Matching rules 2, 11, 12):
    /// the entries that list the app ID, in file order; within each, its `components` in order,
    /// or its legacy `paths` when it has no `components` key.
    public func rules(for appID: String) -> [AASARule] {
        guard let applinks else { return [] }
        return entries(listing: appID).flatMap { rules(of: applinks.details[$0], in: applinks) }
    }

    /// The indices of the `details` entries that list `appID`, in file order.
    func entries(listing appID: String) -> [Int] {
        let details = applinks?.details ?? []
        return details.indices.filter { details[$0].appIDs.contains(appID) }
    }

    /// One entry's rules: its `components` in order, or its legacy `paths` when it has no
    /// `components` key.
    func rules(of detail: AASADetail, in applinks: AASAAppLinks) -> [AASARule] {
        var out: [AASARule] = []
        if detail.hasComponentsKey {
            for component in detail.components ?? [] {
                out.append(resolve(component, detail: detail, applinks: applinks))
            }
        } else {
            for path in detail.paths ?? [] {
                out.append(AASARule(detail: detail.key, origin: .legacyPath(path.index), pointer: path.pointer,
                                    path: path.pattern, query: .string("*"), fragment: "*",
                                    exclude: path.isExclusion, caseSensitive: true, percentEncoded: true,
                                    pathPointer: path.pointer, queryPointer: nil, fragmentPointer: nil))
            }
        }
        return out
    }

    func resolve(_ c: AASAComponentKeys, detail: AASADetail, applinks: AASAAppLinks) -> AASARule {
        let layers = [c, detail.defaults, applinks.defaults].compactMap { $0 }
        func pick<T>(_ key: KeyPath<AASAComponentKeys, T?>, _ token: String) -> (T, String)? {
            for layer in layers { if let v = layer[keyPath: key] { return (v, AASAReader.child(layer.pointer, token)) } }
            return nil
        }
        let path = pick(\.path, "/"), query = pick(\.query, "?"), fragment = pick(\.fragment, "#")
        return AASARule(detail: detail.key, origin: .component(c.index ?? 0), pointer: c.pointer,
                        path: path?.0 ?? "*", query: query?.0 ?? .string("*"), fragment: fragment?.0 ?? "*",
                        exclude: pick(\.exclude, "exclude")?.0 ?? false,
                        caseSensitive: pick(\.caseSensitive, "caseSensitive")?.0 ?? true,
                        percentEncoded: pick(\.percentEncoded, "percentEncoded")?.0 ?? true,
                        pathPointer: path?.1, queryPointer: query?.1, fragmentPointer: fragment?.1)
    }
}
