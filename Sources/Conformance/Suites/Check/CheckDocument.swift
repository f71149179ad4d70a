/// A document handed to `linkconform check --document`, with the questions asked of it: named
/// parameters (`--with key=value`, validated against what the suites declare) and URLs to try
/// against it.
///
/// ```swift
/// let document = CheckDocument(path: "apple-app-site-association", bytes: Array(json.utf8),
///                              parameters: ["app": "ABCDE12345.com.example.app"],
///                              urls: ["https://example.com/logout"])
/// Check.explain(.document(document)).explanations.map(\.suite)   // the suites that read it
/// ```
public struct CheckDocument: Sendable, Hashable {
    /// Where the document was read from, for display.
    public let path: String
    /// Its bytes as read.
    public let bytes: [UInt8]
    /// The parameters asked of it, by name (each declared by some suite's
    /// ``SuiteDefinition/documentParameters``).
    public let parameters: [String: String]
    /// URLs to check against it, in the order given.
    public let urls: [String]
    /// The reader named the suite this document is for (`check --aasa`, `check --assetlinks`, a
    /// live check's AASA file): that suite reads it whatever it looks like, and says what is wrong,
    /// rather than leaving it unrecognised.
    public let claimed: Bool

    public init(path: String, bytes: [UInt8], parameters: [String: String] = [:], urls: [String] = [], claimed: Bool = false) {
        self.path = path
        self.bytes = bytes
        self.parameters = parameters
        self.urls = urls
        self.claimed = claimed
    }
}
