import LinkURL

/// Something wrong with a URL carried in a query value (a callback), as every callback protocol
/// sees it. ULC is x-callback-url on top of universal links, so both suites read callbacks with
/// this one inspection and differ only in what they require on top (ULC: https and a host;
/// x-callback-url: a scheme policy).
public enum CallbackFinding: Sendable, Hashable {
    /// Decoded once, the value still reads as an encoded URL (`scheme%3A...`): it was encoded
    /// twice. No other finding is reported for the value.
    case doubleEncoded
    /// A raw `?` or `=` in the value (offset into the link): the nested URL was not encoded.
    case rawDelimiter(offset: Int, byte: UInt8)
    /// A raw `+` in the value (offset into the link): form-style readers turn it into a space.
    case plus(offset: Int)
    /// Decoded once, the octets are not UTF-8. No URL finding follows.
    case notUTF8
    /// Decoded once, the value has no scheme. No other URL finding follows.
    case notAbsolute
    /// Decoded once, the URL has no host, or an empty one.
    case noHost
    /// Decoded once, the URL has user information (the range is in the decoded text).
    case userinfo(Range<Int>)
    /// Decoded once, the URL breaks RFC 3986 syntax (the first problem).
    case invalidSyntax(URLDiagnostic)
}

extension CallbackFinding {
    /// Whether the finding is about how the value was written (rather than the URL it holds).
    public var concernsEncoding: Bool {
        switch self {
        case .doubleEncoded, .rawDelimiter, .plus: true
        default: false
        }
    }
}

/// Reads callback values: decode exactly once, note how the value was written, then check the
/// URL it decodes to.
public enum CallbackInspection {
    /// Decodes the value at `value` in `link` once and reports each finding, in this order:
    /// `doubleEncoded` (alone), the first `rawDelimiter`, the first `plus`, then `notUTF8`
    /// (ending the report) or the URL findings of ``urlFindings(_:report:)``.
    ///
    /// Returns the decoded value, so that callers do not decode twice.
    ///
    /// ```swift
    /// let link = Array("s://x-callback-url/a?x-success=b://c?d=1".utf8)
    /// var found: [CallbackFinding] = []
    /// CallbackInspection.inspect(link, value: 31..<40) { found.append($0) }
    /// found      // [.rawDelimiter(offset: 36, byte: 63)]: the '?' (the '=' after it is not reported again)
    /// ```
    @discardableResult
    public static func inspect(_ link: [UInt8], value: Range<Int>, limits: URLLimits = .default,
                               report: (CallbackFinding) -> Void) -> NestedURL {
        let nested = NestedURL(in: link, value: value, limits: limits)
        if nested.isDoubleEncoded {
            report(.doubleEncoded)
            return nested
        }
        var sawDelimiter = false, sawPlus = false
        for finding in nested.findings {
            switch finding {
            case .rawDelimiter(let offset, let byte) where !sawDelimiter:
                sawDelimiter = true
                report(.rawDelimiter(offset: offset, byte: byte))
            case .plusSign(let offset) where !sawPlus:
                sawPlus = true
                report(.plus(offset: offset))
            default: break
            }
        }
        guard nested.decoded != nil else {
            report(.notUTF8)
            return nested
        }
        urlFindings(nested.scan, report: report)
        return nested
    }

    /// The findings of a URL already decoded and split as `scan`: `notAbsolute` (alone), or
    /// `noHost`, `userinfo` and `invalidSyntax`, each when it applies.
    public static func urlFindings(_ scan: URLScan, report: (CallbackFinding) -> Void) {
        guard scan.isAbsolute else {
            report(.notAbsolute)
            return
        }
        if scan.hasNoHost { report(.noHost) }
        if let userinfo = scan.userinfo { report(.userinfo(userinfo)) }
        if let problem = scan.firstSyntaxDiagnostic { report(.invalidSyntax(problem)) }
    }

    /// A finding in words, for a parameter named `name`. `text` gives the text of a range of
    /// the decoded URL (nil: all of it); `suffix` adds what the protocol requires instead.
    public static func message(_ finding: CallbackFinding, parameter name: String, suffix: String = "",
                               text: (Range<Int>?) -> String) -> String {
        switch finding {
        case .doubleEncoded:
            return "\(name) is encoded twice: decoded once it still reads '\(shortened(text(nil)))'; it must be decoded exactly once, so it is not a URL"
        case .rawDelimiter(let offset, let byte):
            return "\(name) holds a raw '\(Character(Unicode.Scalar(byte)))' at byte \(offset): the nested URL was not percent-encoded, so a '&' or '#' of its own would already have cut it"
        case .plus(let offset):
            return "\(name) holds a raw '+' at byte \(offset): RFC 3986 readers keep it, form-style readers (URLSearchParams, parse_qsl) read a space; encode it as %2B"
        case .notUTF8:
            return "\(name) decodes to bytes that are not UTF-8 text"
        case .notAbsolute:
            return "\(name) reads '\(shortened(text(nil)))', which is not an absolute URL" + suffix
        case .noHost:
            return "\(name) reads '\(shortened(text(nil)))', which has no host" + suffix
        case .userinfo(let range):
            return "\(name) carries user information ('\(shortened(text(range)))@'); a host after '@' is a classic way to disguise where a link leads"
        case .invalidSyntax(let problem):
            return "\(name) is not a valid URL: \(problem.message) of the decoded value"
        }
    }

    /// Text cut to 80 characters for messages.
    public static func shortened(_ s: String) -> String {
        s.count <= 80 ? s : String(s.prefix(77)) + "..."
    }
}
