import Conformance

/// One thing a live check found about how a file is served, judged for one platform: a stable
/// code, the level at which the platform cares (MUST: it refuses the file; INFO: a note), what
/// was seen, and the source the rule comes from (the digests in `../shared/specs/`).
///
/// ```swift
/// let finding = ServingFinding(.redirect, for: .ios, level: .must, "301 to https://www.example.com/...")
/// finding.source   // "TN3155: no redirects, 301/302 are not followed"
/// ```
public struct ServingFinding: Sendable, Hashable {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case unreachable
        case untrustedCertificate = "untrusted-certificate"
        case wrongHostCertificate = "wrong-host-certificate"
        case tlsFailed = "tls-failed"
        case redirect
        case denied
        case status
        case headersTooLarge = "headers-too-large"
        case protocolError = "protocol-error"
        case readTimeout = "read-timeout"
        case deadline
        case bodyCut = "body-cut"
        case tooLarge = "too-large"
        case contentType = "content-type"
        case contentEncoding = "content-encoding"
        case legacyPathOnly = "legacy-path-only"

        /// Where the rule comes from for `platform`, by the names the digests use
        /// (`../shared/specs/aasa.md` section 1, `../shared/specs/assetlinks-mitid.md`).
        public func source(_ platform: Platform) -> String {
            let ios = platform == .ios
            switch self {
            case .unreachable: return "nothing fetched, nothing associated"
            case .untrustedCertificate, .wrongHostCertificate, .tlsFailed:
                return ios ? "TN3155: HTTPS with a valid certificate" : "Digital Asset Links: a trusted certificate chain"
            case .redirect: return ios ? "TN3155: no redirects, 301/302 are not followed" : "Digital Asset Links: no redirects followed"
            case .denied: return ios ? "TN3155: 403/404 mean the site denied access" : "Digital Asset Links: HTTP 200 only"
            case .status: return ios ? "TN3155: the file is fetched with status 200" : "Digital Asset Links: HTTP 200 only"
            case .headersTooLarge, .protocolError, .bodyCut: return "decided: a response that is not whole HTTP is not a file"
            case .readTimeout, .deadline:
                return "decided: the platform gives up on a server that does not answer; LinkConform's timeouts stand for its own"
            case .tooLarge:
                return ios ? "App Search Programming Guide: at most 128 KB uncompressed (iOS 9.3.1 and later)"
                           : "decided: LinkConform reads at most 1 MiB of a statement list (the sources name no limit)"
            case .contentType:
                return ios ? "App Search guide: application/json; observed: github.com and www.apple.com send application/octet-stream, so a note only"
                           : "Digital Asset Links: Content-Type application/json, otherwise the list is empty"
            case .contentEncoding:
                return "decided: the platforms' HTTP stacks decode gzip and deflate; the size limit applies to the decoded file; a coding not asked for or not decoded leaves bytes that are not the file"
            case .legacyPathOnly: return "Supporting associated domains, App Search guide: the root path was accepted by older systems"
            }
        }
    }

    public let code: Code
    /// The platform it is judged for.
    public let platform: Platform
    public let level: RequirementLevel
    /// What was seen (may hold server-provided text: escape it on a terminal).
    public let message: String

    public init(_ code: Code, for platform: Platform, level: RequirementLevel, _ message: String) {
        self.code = code
        self.platform = platform
        self.level = level
        self.message = message
    }

    public var source: String { code.source(platform) }
}
