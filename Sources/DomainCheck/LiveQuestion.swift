/// What a live check is asked about a domain: the host, and optionally the iOS app, the Android
/// app and URLs to match for them.
///
/// ```swift
/// let question = LiveQuestion(domain: "example.com", appID: "ABCDE12345.com.example.app",
///                             urls: ["https://example.com/buy/42"])
/// ```
public struct LiveQuestion: Sendable, Hashable {
    public let domain: String
    /// The iOS app (`<prefix>.<bundle id>`) the AASA file's rules are matched for.
    public let appID: String?
    /// The Android package and signing-certificate fingerprint the statement list is verified for.
    public let package: String?
    public let fingerprint: String?
    public let urls: [String]

    public init(domain: String, appID: String? = nil, package: String? = nil, fingerprint: String? = nil, urls: [String] = []) {
        self.domain = domain
        self.appID = appID
        self.package = package
        self.fingerprint = fingerprint
        self.urls = urls
    }
}
