/// A URL split the way rule 1 and 4 of the contract read it, over its UTF-8 bytes, as written
/// (nothing decoded or normalised).
///
/// ```swift
/// let u = AASAURLParts.read("https://Example.com:443/a?b#c")!
/// u.host   // "Example.com"
/// u.port   // "443"
/// ```
public struct AASAURLParts: Sendable, Hashable {
    public let scheme: String
    public let userinfo: String?
    public let host: String
    public let port: String?
    public let path: [UInt8]
    /// After the first `?`, up to `#`; nil when there is no `?`.
    public let query: [UInt8]?
    /// After the first `#`; nil when there is no `#`.
    public let fragment: [UInt8]?

    /// Splits `text`, or nil when it has no scheme or no `//` authority.
    public static func read(_ text: String) -> AASAURLParts? {
        let b = Array(text.utf8)
        guard let colon = b.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let schemeBytes = b[..<colon]
        guard isAlpha(schemeBytes.first!), schemeBytes.allSatisfy({ isAlpha($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }) else {
            return nil
        }
        guard b.count >= colon + 3, b[colon + 1] == UInt8(ascii: "/"), b[colon + 2] == UInt8(ascii: "/") else { return nil }
        let authorityStart = colon + 3
        var i = authorityStart
        while i < b.count, b[i] != UInt8(ascii: "/"), b[i] != UInt8(ascii: "?"), b[i] != UInt8(ascii: "#") { i += 1 }
        var authority = b[authorityStart..<i]
        var userinfo: String?
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            userinfo = String(decoding: authority[..<at], as: UTF8.self)
            authority = authority[(at + 1)...]
        }
        var hostBytes = authority, port: String?
        if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
            hostBytes = authority[...close]
            let rest = authority[(close + 1)...]
            if rest.first == UInt8(ascii: ":") { port = String(decoding: rest.dropFirst(), as: UTF8.self) }
            else if !rest.isEmpty { port = String(decoding: rest, as: UTF8.self) }
        } else if let c = authority.lastIndex(of: UInt8(ascii: ":")) {
            hostBytes = authority[..<c]
            port = String(decoding: authority[(c + 1)...], as: UTF8.self)
        }
        let pathStart = i
        while i < b.count, b[i] != UInt8(ascii: "?"), b[i] != UInt8(ascii: "#") { i += 1 }
        let path = Array(b[pathStart..<i])
        var query: [UInt8]?, fragment: [UInt8]?
        if i < b.count, b[i] == UInt8(ascii: "?") {
            let q = i + 1
            i = q
            while i < b.count, b[i] != UInt8(ascii: "#") { i += 1 }
            query = Array(b[q..<i])
        }
        if i < b.count, b[i] == UInt8(ascii: "#") {
            fragment = Array(b[(i + 1)...])
        }
        return AASAURLParts(scheme: String(decoding: schemeBytes, as: UTF8.self), userinfo: userinfo,
                            host: String(decoding: hostBytes, as: UTF8.self), port: port,
                            path: path, query: query, fragment: fragment)
    }

    private static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
}

/// Why a URL is not a universal link for a domain (contract, Matching rule 1).
public enum AASAURLProblem: String, Sendable, Hashable {
    case unreadable = "the text is not an absolute URL with an authority"
    case notHTTPS = "the scheme is not https"
    case userinfo = "the URL has userinfo"
    case port = "the URL has a port other than 443"
    case hostMismatch = "the host is not the domain"
}

extension AASAURLParts {
    /// The problem that keeps this URL from being a universal link for `domain`, if any.
    /// Hosts compare ASCII case-insensitively; a trailing dot is not removed; an explicit port
    /// must be `443` (an empty port, which RFC 3986 reads as the default, is accepted).
    public func problem(domain: String) -> AASAURLProblem? {
        if asciiLowercased(scheme) != "https" { return .notHTTPS }
        if userinfo != nil { return .userinfo }
        if let port, port != "443", !port.isEmpty { return .port }
        if asciiLowercased(host) != asciiLowercased(domain) { return .hostMismatch }
        return nil
    }
}

func asciiLowercased(_ s: String) -> String {
    guard s.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return s }
    return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
}

/// The characters of a URL component as a rule compares them (contract rules 4, 5, 8, 9).
enum AASAInputText {
    /// `percentEncoded` true: the bytes as written, each one a character; a non-ASCII byte (the
    /// system sees URLs percent-encoded) reads as its `%XX` escape, so a non-ASCII pattern never
    /// matches. False: decoded (`+` stays, an invalid escape stays as written), then read as
    /// UTF-8 (an invalid sequence becomes U+FFFD), each Unicode scalar a character. Then folded
    /// when case-insensitive.
    static func characters<C: Collection>(_ bytes: C, _ options: AASACompareOptions) -> [UInt32] where C.Element == UInt8 {
        var out: [UInt32] = []
        out.reserveCapacity(bytes.count)
        if options.percentEncoded {
            let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
            for byte in bytes {
                if byte < 0x80 {
                    options.fold(UInt32(byte), into: &out)
                } else {
                    out.append(0x25)
                    options.fold(UInt32(hex[Int(byte >> 4)]), into: &out)
                    options.fold(UInt32(hex[Int(byte & 0xF)]), into: &out)
                }
            }
            return out
        }
        let decoded = percentDecoded(bytes)
        for scalar in String(decoding: decoded, as: UTF8.self).unicodeScalars {
            options.fold(scalar.value, into: &out)
        }
        return out
    }

    static func percentDecoded<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        let b = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == 0x25, i + 2 < b.count, let h = hexValue(b[i + 1]), let l = hexValue(b[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return out
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// The path's slash rules (observed): an empty path reads as `/`, a leading run of slashes
    /// counts as one, a trailing run is dropped (a lone `/` stays).
    static func normalizedPath(_ c: [UInt32]) -> [UInt32] {
        var lo = 0, hi = c.count
        while lo < hi && c[lo] == 0x2F { lo += 1 }
        while hi > lo && c[hi - 1] == 0x2F { hi -= 1 }
        if lo == 1 && hi == c.count { return c }
        return [0x2F] + c[lo..<hi]
    }
}
