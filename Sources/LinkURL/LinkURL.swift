/// A URI reference split per RFC 3986, over UTF-8 bytes, keeping every component's raw range.
///
/// Splitting follows the generic syntax (section 3 and the regular expression of appendix B);
/// each component is then checked against the characters it may hold. Problems become
/// ``URLDiagnostic``s with byte offsets; the split itself always completes (unless the input is
/// over ``URLLimits/maxLength``), so callers can still ask questions of a malformed link.
///
/// ```swift
/// let url = LinkURL(parsing: "https://user@app.example:8443/logout?force=1#top")
/// url.text(of: .host)        // "app.example"
/// url.port                   // 8443
/// url.text(of: .query)       // "force=1"
/// url.diagnostics.isEmpty    // true
/// ```
public struct LinkURL: Sendable, Hashable {
    /// The input, unchanged.
    public let bytes: [UInt8]
    /// The split: component ranges and diagnostics.
    public let scan: URLScan

    /// The scheme, without its `:`.
    public var scheme: Range<Int>? { scan.scheme }
    /// Everything between `//` and the path, when a `//` is present.
    public var authority: Range<Int>? { scan.authority }
    /// The user information, without its `@`.
    public var userinfo: Range<Int>? { scan.userinfo }
    /// The host (with brackets for IP literals); empty when the authority has no host.
    public var host: Range<Int>? { scan.host }
    /// The port digits, without the `:`; may be empty (`https://a:/`).
    public var portRange: Range<Int>? { scan.portRange }
    /// The path; always present, possibly empty.
    public var path: Range<Int> { scan.path }
    /// The query, without its `?`.
    public var query: Range<Int>? { scan.query }
    /// The fragment, without its `#`.
    public var fragment: Range<Int>? { scan.fragment }
    /// Every problem found, in input order (at most ``URLLimits/maxDiagnostics``).
    public var diagnostics: [URLDiagnostic] { scan.diagnostics }
    /// How many diagnostics were found beyond the stored ones.
    public var droppedDiagnostics: Int { scan.droppedDiagnostics }

    /// Splits `bytes` as a URI reference.
    public init(parsing bytes: [UInt8], limits: URLLimits = .default) {
        self.bytes = bytes
        var split = URLScan()
        bytes.withUnsafeBufferPointer { split.read($0, limits: limits) }
        scan = split
    }

    /// Splits the UTF-8 bytes of `string` as a URI reference.
    public init(parsing string: String, limits: URLLimits = .default) {
        self.init(parsing: Array(string.utf8), limits: limits)
    }

    /// Whether the input was over the length limit and therefore not split.
    public var isOverLimit: Bool { scan.isOverLimit }

    /// Whether the reference has a scheme (an absolute URI rather than a relative reference).
    /// The scanner takes whatever comes before the first `:` as the scheme and reports it when
    /// it is not valid; see ``hasValidScheme``.
    public var isAbsolute: Bool { scan.isAbsolute }

    /// Whether the reference has a scheme that RFC 3986 allows (section 3.1: a letter, then
    /// letters, digits, `+`, `-` or `.`). `4://h`, `my_app://h` and `%://h` have none: no URI
    /// reader (Foundation, WHATWG, Python) finds a scheme and a host in them, and no app can
    /// register such a scheme.
    public var hasValidScheme: Bool { scan.hasValidScheme }

    /// The numeric port, when a port is present and valid.
    public var port: Int? {
        guard let portRange, !portRange.isEmpty else { return nil }
        var value = 0
        for b in bytes[portRange] {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            value = min(value * 10 + Int(b - 0x30), 100_000)   // leading zeros are allowed: "0080" is 80
        }
        return value <= 65_535 ? value : nil
    }

    /// The range of a component, if present.
    public func range(of component: URLComponent) -> Range<Int>? {
        switch component {
        case .scheme: scheme
        case .userinfo: userinfo
        case .host: host
        case .port: portRange
        case .path: path
        case .query: query
        case .fragment: fragment
        }
    }

    /// The raw (still percent-encoded) text of a component, if present.
    public func text(of component: URLComponent) -> String? {
        range(of: component).map { text(in: $0) }
    }

    /// The raw text of a byte range of the input.
    public func text(in range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Whether the scheme equals `name`, compared case-insensitively (RFC 3986 section 3.1).
    public func schemeIs(_ name: StaticString) -> Bool {
        bytes.withUnsafeBufferPointer { scan.schemeIs(name, in: $0) }
    }

    /// Whether the scheme is `https`, ignoring case (answered by the scan, no comparison).
    public var isHTTPS: Bool { scan.isHTTPS }

    /// The host case-normalised as RFC 3986 section 6.2.2.1 says (letters lower-case, escape
    /// digits upper-case), still encoded.
    public var normalizedHost: String? {
        host.map { ASCII.normalizedHost(bytes[$0]) }
    }

    /// Whether any diagnostic concerns the given component.
    public func hasDiagnostics(in component: URLComponent) -> Bool {
        diagnostics.contains { $0.component == component }
    }

    /// The query split into items (see ``QueryItems``); empty when there is no query.
    public var queryItems: QueryItems {
        QueryItems(bytes: bytes, query: query)
    }

    /// Calls `body` with each query item in order, without building an array.
    @inlinable
    public func forEachQueryItem(_ body: (QueryItem) throws -> Void) rethrows {
        guard let query else { return }
        try bytes.withUnsafeBufferPointer { b in
            let end = query.upperBound
            var start = query.lowerBound
            while true {
                // memchr finds the separators many bytes at a time.
                let itemEnd = ByteSearch.first(UInt8(ascii: "&"), in: b, from: start, to: end)
                let equals = ByteSearch.first(UInt8(ascii: "="), in: b, from: start, to: itemEnd)
                try body(QueryItem(start: start, equals: equals < itemEnd ? equals : -1, end: itemEnd))
                if itemEnd >= end { return }
                start = itemEnd + 1
            }
        }
    }

    /// The reference put back together from its components (RFC 3986 section 5.3).
    ///
    /// For any input under the limit this equals the input: splitting loses nothing.
    public func recomposed() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        if let scheme { out += bytes[scheme]; out.append(UInt8(ascii: ":")) }
        if let authority { out += [UInt8(ascii: "/"), UInt8(ascii: "/")]; out += bytes[authority] }
        out += bytes[path]
        if let query { out.append(UInt8(ascii: "?")); out += bytes[query] }
        if let fragment { out.append(UInt8(ascii: "#")); out += bytes[fragment] }
        return out
    }
}

