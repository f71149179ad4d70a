import AssetLinks

/// The assetlinks operations as a Swift protocol, for Swift implementations run in process.
public protocol AssetLinksSubject: Sendable {
    /// Every problem of a statement list (`assetlinks.validate`).
    func validate(file: [UInt8]) -> [AssetLinksDiagnostic]
    /// Whether a tree of lists grants a relation to an app (`assetlinks.verify`).
    func verify(file: [UInt8], includes: [String: [UInt8]], packageName: String, fingerprint: String, relation: String) -> AssetLinksVerification
    /// What a URL gets under the app's dynamic components (`assetlinks.match`).
    func match(file: [UInt8], includes: [String: [UInt8]], domain: String, packageName: String, fingerprint: String, url: String) -> AssetLinksMatchResult
}

/// LinkConform's reference: the `AssetLinks` module.
public struct ReferenceAssetLinks: AssetLinksSubject {
    public init() {}

    public func validate(file: [UInt8]) -> [AssetLinksDiagnostic] {
        AssetLinks.validate(file)
    }

    public func verify(file: [UInt8], includes: [String: [UInt8]], packageName: String, fingerprint: String, relation: String) -> AssetLinksVerification {
        AssetLinks.verify(file, includes: includes, packageName: packageName, fingerprint: fingerprint, relation: relation)
    }

    public func match(file: [UInt8], includes: [String: [UInt8]], domain: String, packageName: String, fingerprint: String, url: String) -> AssetLinksMatchResult {
        AssetLinks.match(file, includes: includes, domain: domain, packageName: packageName, fingerprint: fingerprint, url: url)
    }
}
