/// Something in a URL that breaks RFC 3986 or a limit, with the byte offset where it is.
///
/// Diagnostics never stop the split: the parser reports them and carries on, so callers see
/// every problem of a link at once and decide which ones matter.
///
/// ```swift
/// let url = LinkURL(parsing: "https://a.example/p q")
/// url.diagnostics.first?.code     // .space
/// url.diagnostics.first?.offset   // 19
/// ```
public struct URLDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Stable codes; the raw values appear in JSON output and reports.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The input is longer than ``URLLimits/maxLength``; nothing was split.
        case tooLong = "too-long"
        /// A `%` not followed by two hexadecimal digits.
        case invalidPercentEscape = "invalid-percent-escape"
        /// A C0 control character or DEL.
        case controlCharacter = "control-character"
        /// A raw space (0x20).
        case space
        /// A byte of 0x80 or above: raw non-ASCII text, which RFC 3986 does not allow.
        case nonASCII = "non-ascii"
        /// A printable ASCII character not allowed in this component (for example `[` in a query).
        case invalidCharacter = "invalid-character"
        /// The scheme does not start with a letter or holds characters a scheme may not.
        case invalidScheme = "invalid-scheme"
        /// The port is not a decimal number from 0 to 65535.
        case invalidPort = "invalid-port"
        /// An authority (`//`) is present but its host is empty. RFC 3986 allows an empty
        /// reg-name, so this is not a syntax error; it is reported because the schemes these
        /// protocols use (https above all) require a host. Not reported for `file:`.
        case emptyHost = "empty-host"
        /// A bracketed host that is not a valid IPv6 address or IPvFuture literal.
        case invalidIPLiteral = "invalid-ip-literal"
    }

    public let code: Code
    /// Byte offset of the first offending byte in the input.
    public let offset: Int
    /// The component the offending bytes belong to (nil for ``Code/tooLong``).
    public let component: URLComponent?

    public init(code: Code, offset: Int, component: URLComponent?) {
        self.code = code
        self.offset = offset
        self.component = component
    }

    /// A sentence for people: what is wrong and where.
    public var message: String {
        let place = component.map { " in the \($0.rawValue)" } ?? ""
        switch code {
        case .tooLong: return "the URL is longer than the limit and was not parsed"
        case .invalidPercentEscape: return "'%' at byte \(offset)\(place) is not followed by two hexadecimal digits"
        case .controlCharacter: return "control character at byte \(offset)\(place)"
        case .space: return "raw space at byte \(offset)\(place); encode it as %20"
        case .nonASCII: return "raw non-ASCII byte at \(offset)\(place); percent-encode its UTF-8 bytes"
        case .invalidCharacter: return "character at byte \(offset) is not allowed\(place); percent-encode it"
        case .invalidScheme: return "invalid scheme at byte \(offset): it must start with a letter and use only letters, digits, '+', '-', '.'"
        case .invalidPort: return "invalid port at byte \(offset): expected a number from 0 to 65535"
        case .emptyHost: return "empty host at byte \(offset)"
        case .invalidIPLiteral: return "invalid IP literal at byte \(offset)"
        }
    }

    public var description: String { "\(code.rawValue)@\(offset): \(message)" }
}

/// Hard limits that keep parsing bounded whatever the input.
///
/// Links in these protocols are short (a few hundred bytes); the defaults leave ample room
/// while guaranteeing that a hostile 10 MB input costs one length check.
public struct URLLimits: Sendable, Hashable {
    /// Longest input parsed, in bytes. Longer input yields one ``URLDiagnostic/Code/tooLong``.
    public var maxLength: Int
    /// Most diagnostics recorded for one URL; further ones are counted, not stored.
    public var maxDiagnostics: Int

    public init(maxLength: Int = 65_536, maxDiagnostics: Int = 64) {
        self.maxLength = maxLength
        self.maxDiagnostics = maxDiagnostics
    }

    /// 64 KiB and 64 diagnostics.
    public static let `default` = URLLimits()
}
