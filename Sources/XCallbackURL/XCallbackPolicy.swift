/// Which callback URLs a target app agrees to open (requirement XCB-D6, a LinkConform decision:
/// the draft only asks apps to consider security).
///
/// Script schemes (`javascript`, `vbscript`), local content (`file`, `data`) and schemes that
/// have been used to launch programs on Windows (`ms-msdt`, CVE-2022-30190; `search-ms`;
/// `shell`) are never opened. An app may also allow only a list of schemes.
///
/// ```swift
/// XCallbackPolicy.default.permits(scheme: "JavaScript")              // false
/// XCallbackPolicy(allowedSchemes: ["myapp"]).permits(scheme: "https")  // false
/// ```
public struct XCallbackPolicy: Sendable, Hashable {
    /// Schemes never opened, in lower case.
    public static let refusedSchemes: [StaticString] = ["javascript", "vbscript", "data", "file", "ms-msdt", "search-ms", "shell"]

    /// When set, the only schemes opened (lower case).
    public let allowedSchemes: Set<String>?

    /// Only the refused schemes are refused.
    public static let `default` = XCallbackPolicy()

    public init(allowedSchemes: [String]? = nil) {
        self.allowedSchemes = allowedSchemes.map { Set($0.map { $0.lowercased() }) }
    }

    /// Whether a callback with this scheme may be opened.
    public func permits(scheme: String) -> Bool {
        guard !Self.isRefused(scheme: scheme) else { return false }
        return allowedSchemes.map { $0.contains(scheme.lowercased()) } ?? true
    }

    /// Whether the scheme is one of ``refusedSchemes``, in any letter case.
    public static func isRefused(scheme: String) -> Bool {
        var copy = scheme
        return copy.withUTF8 { isRefused(scheme: $0) }
    }

    /// The same, for the scheme's bytes.
    public static func isRefused(scheme: UnsafeBufferPointer<UInt8>) -> Bool {
        // Every refused scheme starts with one of these letters: most schemes stop here.
        guard let first = scheme.first, case let lower = first | 0x20,
              lower == UInt8(ascii: "j") || lower == UInt8(ascii: "v") || lower == UInt8(ascii: "d")
                || lower == UInt8(ascii: "f") || lower == UInt8(ascii: "m") || lower == UInt8(ascii: "s") else { return false }
        for name in refusedSchemes where name.utf8CodeUnitCount == scheme.count {
            let want = name.utf8Start
            var same = true
            for k in 0..<scheme.count {
                let b = scheme[k]
                if (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b) != want[k] { same = false; break }
            }
            if same { return true }
        }
        return false
    }
}
