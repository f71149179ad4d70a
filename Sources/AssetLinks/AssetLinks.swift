/// The operations of the `assetlinks` suite over a statement list's bytes (docs/assetlinks.md):
/// Digital Asset Links files (`/.well-known/assetlinks.json`) as Android reads them. Pure: no
/// I/O; includes are followed through ``AssetLinksIncludeWalk`` with bytes the caller fetched.
///
/// ```swift
/// let bytes = Array(#"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]"#.utf8)
/// AssetLinks.validate(bytes)   // []
/// AssetLinks.verify(bytes, packageName: "com.example.app",
///                   fingerprint: "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5").granted   // true
/// ```
public enum AssetLinks {
    /// The largest file read: 1 MiB (decided, AL-D1; the sources name no limit).
    public static let maxFileBytes = 1 << 20
    /// The most includes followed in one tree of lists.
    public static let maxIncludes = 10

    /// Every diagnostic of the contract's table for one file.
    public static func validate(_ bytes: [UInt8]) -> [AssetLinksDiagnostic] {
        parse(bytes).1
    }

    /// Whether the tree rooted at `bytes` grants `relation` to the app `packageName` signed with
    /// `fingerprint` (colons optional, any case). `includes` maps include URLs to the bytes
    /// fetched for them.
    public static func verify(_ bytes: [UInt8], includes: [String: [UInt8]] = [:], packageName: String, fingerprint: String,
                              relation: String = AssetLinksRelation.handleAllURLs) -> AssetLinksVerification {
        AssetLinksVerification(walk: AssetLinksIncludeWalk.resolve(root: bytes, includes: includes),
                               packageName: packageName, fingerprint: fingerprint, relation: relation)
    }

    /// What `url` gets for the app under the tree's dynamic app-link components, on `domain`.
    public static func match(_ bytes: [UInt8], includes: [String: [UInt8]] = [:], domain: String, packageName: String,
                             fingerprint: String, url: String) -> AssetLinksMatchResult {
        let walk = AssetLinksIncludeWalk.resolve(root: bytes, includes: includes)
        let canonical = AssetLinksFingerprint.canonical(fingerprint) ?? fingerprint
        return AssetLinksMatcher(statements: walk.statements.map(\.statement), packageName: packageName, fingerprint: canonical)
            .match(url: url, domain: domain)
    }
}

/// The answer of ``AssetLinks/verify(_:includes:packageName:fingerprint:relation:)``.
public struct AssetLinksVerification: Sendable {
    public let granted: Bool
    /// The first statement that grants it, and the list it came from (nil: the root).
    public let statement: AssetLinksStatement?
    public let source: String?
    /// What became of each include.
    public let includeEvents: [AssetLinksIncludeWalk.Event]
    /// Why not, for people (nil when granted).
    public let reason: String?
    /// Why not, in words that stay the same from one input to the next (nil when granted):
    /// `fingerprint-unreadable` (the one asked about), `file-unreadable`, `package-not-listed`,
    /// `fingerprint-not-listed` or `relation-not-granted` (docs/assetlinks.md, "Why an answer").
    public let cause: String?

    /// Checks a walked tree.
    public init(walk: AssetLinksIncludeWalk, packageName: String, fingerprint: String, relation: String) {
        includeEvents = walk.events
        guard let canonical = AssetLinksFingerprint.canonical(fingerprint) else {
            granted = false; statement = nil; source = nil
            reason = "the fingerprint asked about is not 32 octets of hexadecimal digits"
            cause = "fingerprint-unreadable"
            return
        }
        if let hit = walk.statements.first(where: { $0.statement.grants(relation, packageName: packageName, fingerprint: canonical) }) {
            granted = true; statement = hit.statement; source = hit.source; reason = nil; cause = nil
            return
        }
        granted = false; statement = nil; source = nil
        let forPackage = walk.statements.filter { if case .androidApp(packageName, _) = $0.statement.target { true } else { false } }
        let withFingerprint = forPackage.filter { if case .androidApp(_, let f) = $0.statement.target { f.contains(canonical) } else { false } }
        if !walk.rootReadable {
            reason = "the file cannot be read as a statement list"
            cause = "file-unreadable"
        } else if forPackage.isEmpty {
            reason = "no valid statement names the package \(packageName)"
            cause = "package-not-listed"
        } else if withFingerprint.isEmpty {
            reason = "no valid statement for \(packageName) lists the fingerprint \(canonical)"
            cause = "fingerprint-not-listed"
        } else {
            reason = "the statements for \(packageName) with this fingerprint do not grant \(relation)"
            cause = "relation-not-granted"
        }
    }
}
