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

    public init(path: String, bytes: [UInt8], parameters: [String: String] = [:], urls: [String] = []) {
        self.path = path
        self.bytes = bytes
        self.parameters = parameters
        self.urls = urls
    }
}
