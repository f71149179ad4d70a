import Conformance

/// One thing a live check found about how a file is served, judged for one platform: a stable
/// code, the level at which the platform cares (MUST: it refuses the file; INFO: a note), what
/// was seen, and the source the rule comes from (the digests in `../shared/specs/`).
///
/// ```swift
/// let finding = ServingFinding(.redirect, level: .must, "301 to https://www.example.com/...")
/// finding.source   // "TN3155 (no redirects); Digital Asset Links (no redirects followed)"
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

        /// Where the rule comes from, by the names the digests use.
        public var source: String {
            switch self {
            case .unreachable: "nothing fetched, nothing associated"
            case .untrustedCertificate, .wrongHostCertificate, .tlsFailed:
                "TN3155 (HTTPS with a valid certificate); Digital Asset Links (trusted certificate chain)"
            case .redirect: "TN3155 (301/302 are not followed); Digital Asset Links (no redirects followed)"
            case .denied: "TN3155 (403/404: the site denied access); Digital Asset Links (HTTP 200 only)"
            case .status: "TN3155; Digital Asset Links (HTTP 200 only)"
            case .headersTooLarge, .protocolError, .bodyCut: "decided: a response that is not whole HTTP is not a file"
            case .readTimeout, .deadline: "decided: the platforms give up on a server that does not answer; LinkConform's timeouts stand for theirs"
            case .tooLarge: "App Search Programming Guide (128 KB uncompressed, iOS 9.3.1 and later); Android: decided (1 MiB reading cap, no documented limit)"
            case .contentType: "App Search guide and observed (iOS: note only); Digital Asset Links (Content-Type: application/json, else the list is empty)"
            case .contentEncoding: "decided: both platforms' HTTP stacks decode gzip and deflate; the size limit applies to the decoded file"
            case .legacyPathOnly: "Supporting associated domains; App Search guide (the root path: older systems)"
            }
        }
    }

    public let code: Code
    public let level: RequirementLevel
    /// What was seen (may hold server-provided text: escape it on a terminal).
    public let message: String

    public init(_ code: Code, level: RequirementLevel, _ message: String) {
        self.code = code
        self.level = level
        self.message = message
    }

    public var source: String { code.source }
}
