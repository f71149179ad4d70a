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
    /// Decoded once, the URL's host (a registered name, the range in the decoded text) holds a
    /// percent-escape: no domain name does, and readers disagree on what the host is.
    case escapedHost(Range<Int>)
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
        if !nested.findings.isEmpty {
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
            if nested.decoded == nil {
                report(.notUTF8)
                return nested
            }
        }
        nested.withDecodedBytes { urlFindings(nested.scan, $0, report: report) }
        return nested
    }

    /// The findings of a URL already decoded into `bytes` and split as `scan`: `notAbsolute`
    /// (alone), or `noHost`, `userinfo`, `escapedHost` and `invalidSyntax`, each when it applies.
    public static func urlFindings(_ scan: borrowing URLScan, _ bytes: UnsafeBufferPointer<UInt8>, report: (CallbackFinding) -> Void) {
        guard scan.isAbsolute else {
            report(.notAbsolute)
            return
        }
        if scan.hasNoHost { report(.noHost) }
        if let userinfo = scan.userinfo { report(.userinfo(userinfo)) }
        if let host = escapedHost(scan, bytes) { report(.escapedHost(host)) }
        if let problem = scan.firstSyntaxDiagnostic { report(.invalidSyntax(problem)) }
    }

    /// The host, when it is a registered name holding a well-formed percent-escape (`%00`,
    /// `%2E`, `%C3%A9`). RFC 3986 (section 3.2.2) allows escapes in a registered name but asks
    /// for the IDNA form of a name meant for DNS; readers then disagree on the host: WHATWG URL
    /// decodes it for web schemes (`%2E` becomes a dot, `%00` fails), Foundation changed how it
    /// reads `%00` (swift-foundation PR #2141), others keep the escape. A host with a malformed
    /// escape is a syntax error instead, and an IP literal (`[...]`) is left alone.
    public static func escapedHost(_ scan: borrowing URLScan, _ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let host = scan.host, !host.isEmpty, host.upperBound <= bytes.count, bytes[host.lowerBound] != UInt8(ascii: "["),
              ByteSearch.first(UInt8(ascii: "%"), in: bytes, from: host.lowerBound, to: host.upperBound) < host.upperBound,
              !scan.syntaxDiagnostics.contains(where: { $0.component == .host }) else { return nil }
        return host
    }

    /// Where a value written raw ended: at a `&` (and what came after it, when that is not one
    /// of the protocol's own parameters) or at a `#`.
    public struct Cut: Sendable, Hashable {
        /// Offset of the delimiter in the link.
        public let at: Int
        /// `&` or `#`.
        public let delimiter: UInt8
        /// The item right after a `&`, as written, when it is not a parameter of the protocol:
        /// most likely the rest of the value's own query.
        public let stray: String?
        /// Where the stray item went, in words (`a parameter of the action`).
        public let landedIn: String
    }

    /// What ended the value at `value` in `url`: nil when the value runs to the end of the link.
    /// `known` are the protocol's own parameter names (an item after the `&` with one of these
    /// names is not stray).
    ///
    /// ```swift
    /// let url = LinkURL(parsing: "s://x-callback-url/a?x-success=b://c?d=1&e=2")
    /// CallbackInspection.cut(after: 31..<40, in: url, known: ["x-success"], landedIn: "an action parameter")?.stray   // "e=2"
    /// ```
    public static func cut(after value: Range<Int>, in url: borrowing LinkURL, known: [String], landedIn: String) -> Cut? {
        guard value.upperBound < url.bytes.count else { return nil }
        let delimiter = url.bytes[value.upperBound]
        if delimiter == UInt8(ascii: "#") { return Cut(at: value.upperBound, delimiter: delimiter, stray: nil, landedIn: landedIn) }
        guard delimiter == UInt8(ascii: "&") else { return nil }
        var stray: String?
        url.forEachQueryItem { item in
            guard item.range.lowerBound == value.upperBound + 1, !item.range.isEmpty else { return }
            let name = PercentCodec.decodedText(url.bytes, in: item.name)
            if !known.contains(name) { stray = url.text(in: item.range) }
        }
        return Cut(at: value.upperBound, delimiter: delimiter, stray: stray, landedIn: landedIn)
    }

    /// A finding in words, for a parameter named `name`. `text` gives the text of a range of
    /// the decoded URL (nil: all of it); `suffix` adds what the protocol requires instead;
    /// `cut` (for `rawDelimiter`) says what ended the raw value, from ``cut(after:in:known:landedIn:)``.
    public static func message(_ finding: CallbackFinding, parameter name: String, suffix: String = "",
                               cut: Cut? = nil, text: (Range<Int>?) -> String) -> String {
        switch finding {
        case .doubleEncoded:
            return "\(name) is encoded twice: decoded once it still reads '\(shortened(text(nil)))'; it must be decoded exactly once, so it is not a URL"
        case .rawDelimiter(let offset, let byte):
            let start = "\(name) holds a raw '\(Character(Unicode.Scalar(byte)))' at byte \(offset): the nested URL was not percent-encoded"
            guard let cut else {
                return start + "; it runs to the end of the link here, but any '&' or '#' of its own would cut it short"
            }
            if cut.delimiter == UInt8(ascii: "#") {
                return start + ", and the raw '#' at byte \(cut.at) cut it short there: what follows is the link's fragment, which no reader passes on"
            }
            if let stray = cut.stray {
                return start + ", and the raw '&' at byte \(cut.at) cut it short there: '\(shortened(stray))' after it was read as \(cut.landedIn), most likely the rest of \(name)'s own query"
            }
            return start + "; it ends at the '&' at byte \(cut.at), so any '&' of its own would have cut it short there"
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
        case .escapedHost(let range):
            return "\(name)'s host '\(shortened(text(range)))' holds a percent-escape: no domain name does, and readers disagree on such a host (WHATWG URL decodes it in web URLs, so '%2E' is a dot and '%00' fails; Foundation changed how it reads '%00'; others keep the escape), which lets a link pass an allow-list as one host and open another; write the host as it resolves (the IDNA form, 'xn--...', for an international name)"
        case .invalidSyntax(let problem):
            return "\(name) is not a valid URL: \(advice(problem)) (in the decoded value)"
        }
    }

    /// How many RFC 3986 syntax problems a split found, counted when a message says so:
    /// "1 problem", "70 problems" (those over the diagnostics limit included).
    public static func syntaxProblems(_ scan: URLScan) -> String {
        let count = scan.syntaxDiagnostics.count + scan.droppedDiagnostics
        return "\(count) problem\(count == 1 ? "" : "s")"
    }

    /// A syntax problem in words, with the right advice for where it is: a raw non-ASCII byte
    /// in a host calls for the IDNA form (punycode), since percent-encoded UTF-8 makes a host
    /// name no system resolves; anything else is worded as ``LinkURL/URLDiagnostic/message``.
    ///
    /// ```swift
    /// let url = LinkURL(parsing: "https://b\u{00FC}cher.example/")
    /// CallbackInspection.advice(url.diagnostics[0])   // "raw non-ASCII byte at 9 in the host; write ... 'xn--...' ..."
    /// ```
    public static func advice(_ problem: URLDiagnostic) -> String {
        guard problem.code == .nonASCII, problem.component == .host else { return problem.message }
        return "raw non-ASCII byte at \(problem.offset) in the host; write an internationalized host in its IDNA form (punycode, 'xn--...'): percent-encoded UTF-8 bytes make a host name no system resolves"
    }

    /// Text cut to 80 characters for messages.
    public static func shortened(_ s: String) -> String {
        s.count <= 80 ? s : String(s.prefix(77)) + "..."
    }
}
