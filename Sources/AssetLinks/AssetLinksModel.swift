import LinkJSON

/// A statement list as read (docs/assetlinks.md): the statements that are valid, and the
/// include statements to follow. A statement with a MUST-level problem is not here (the
/// platform skips it and keeps the others, as the official compatibility tests show).
public struct AssetLinksList: Sendable, Hashable {
    /// The valid statements, in file order.
    public let statements: [AssetLinksStatement]
    /// The valid include statements, in file order (insecure ones and those past the limit too:
    /// ``AssetLinksIncludeWalk`` decides which are followed).
    public let includes: [AssetLinksInclude]
    /// Size of the text read.
    public let byteCount: Int
}

/// One valid statement: the relations it grants (only well-formed ones), its target, and for
/// `delegate_permission/common.handle_all_urls` the Android 15 dynamic app-link components, if
/// any.
public struct AssetLinksStatement: Sendable, Hashable {
    /// Index in the list's top-level array.
    public let index: Int
    /// JSON Pointer of the statement.
    public let pointer: String
    public let relations: [String]
    public let target: AssetLinksTarget
    /// `relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components`,
    /// the readable components in order; nil when the statement has none.
    public let dynamicComponents: [AssetLinksComponent]?

    /// Whether the statement grants `relation` to the app `packageName` signed with `fingerprint`
    /// (already in the canonical form of ``AssetLinksFingerprint/canonical(_:)``).
    public func grants(_ relation: String, packageName: String, fingerprint: String) -> Bool {
        guard relations.contains(relation), case .androidApp(let name, let fingerprints) = target else { return false }
        return name == packageName && fingerprints.contains(fingerprint)
    }
}

/// A statement's target.
public enum AssetLinksTarget: Sendable, Hashable {
    /// `{"namespace": "web", "site": ...}`: the site as written and its origin in canonical
    /// form (scheme and host lower-cased, a trailing dot and a default port dropped).
    case web(site: String, origin: String)
    /// `{"namespace": "android_app", ...}`.
    case androidApp(packageName: String, fingerprints: [String])
}

/// An include statement: `{"include": "https://..."}`.
public struct AssetLinksInclude: Sendable, Hashable {
    public let index: Int
    public let pointer: String
    public let url: String
    /// http, not https: never followed from a list served over https.
    public let isInsecure: Bool
}

/// One dynamic app-link component (Android 15): patterns for the path (`/`), the query items
/// (`?`, a dictionary) and the fragment (`#`), and whether a match excludes the URL. An absent
/// pattern matches anything.
public struct AssetLinksComponent: Sendable, Hashable {
    public struct QueryItem: Sendable, Hashable {
        public let name: String
        public let pattern: String
    }

    /// Index in `dynamic_app_link_components`.
    public let index: Int
    public let pointer: String
    public let path: String?
    public let query: [QueryItem]?
    public let fragment: String?
    public let exclude: Bool

    /// The component as compact JSON text, for people (keys in the order `/`, `?`, `#`, `exclude`).
    public var text: String {
        var o = JSONObject(capacity: 4)
        if let path { o.append("/", .string(path)) }
        if let query { o.append("?", .object(JSONObject(query.map { .init(key: $0.name, value: .string($0.pattern)) }))) }
        if let fragment { o.append("#", .string(fragment)) }
        if exclude { o.append("exclude", .bool(true)) }
        return JSONValue.object(o).serialized()
    }
}

/// The relations the sources name.
public enum AssetLinksRelation {
    /// `delegate_permission/common.handle_all_urls`: App Links.
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    /// `delegate_permission/common.get_login_creds`: shared sign-in credentials.
    public static let getLoginCreds = "delegate_permission/common.get_login_creds"
    static let predefined = [handleAllURLs, getLoginCreds]
}
