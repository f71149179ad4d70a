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
        withUTF8(text) { b in AASAURLScan(b).map { AASAURLParts($0, b) } }
    }
}

extension AASAURLParts {
    init(_ scan: AASAURLScan, _ b: UnsafeBufferPointer<UInt8>) {
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        func bytes(_ r: Range<Int>) -> [UInt8] { Array(b[r]) }
        self.init(scheme: text(scan.scheme), userinfo: scan.userinfo.map(text), host: text(scan.host), port: scan.port.map(text),
                  path: bytes(scan.path), query: scan.query.map(bytes), fragment: scan.fragment.map(bytes))
    }
}

/// Where the parts of a URL are in its UTF-8 bytes (what ``AASAURLParts`` copies out): the
/// scheme before the first `:`, which must be followed by `//`; the authority up to the first
/// `/`, `?` or `#`, with userinfo before its last `@` and a port after its last `:` (after the
/// `]` of a bracketed host); the path up to `?` or `#`; the query up to `#`; the fragment.
struct AASAURLScan {
    let scheme: Range<Int>
    let userinfo: Range<Int>?
    let host: Range<Int>
    let port: Range<Int>?
    let path: Range<Int>
    let query: Range<Int>?
    let fragment: Range<Int>?

    init?(_ b: UnsafeBufferPointer<UInt8>) {
        let n = b.count
        var colon = 0
        while colon < n && b[colon] != 0x3A { colon += 1 }
        guard colon < n, colon > 0, Self.isAlpha(b[0]) else { return nil }
        for i in 1..<colon {
            let c = b[i]
            guard Self.isAlpha(c) || (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2D || c == 0x2E else { return nil }
        }
        guard n >= colon + 3, b[colon + 1] == 0x2F, b[colon + 2] == 0x2F else { return nil }
        scheme = 0..<colon
        let authorityStart = colon + 3
        var i = authorityStart
        var lastAt = -1
        while i < n, b[i] != 0x2F, b[i] != 0x3F, b[i] != 0x23 {
            if b[i] == 0x40 { lastAt = i }
            i += 1
        }
        var hostStart = authorityStart
        if lastAt >= 0 {
            userinfo = authorityStart..<lastAt
            hostStart = lastAt + 1
        } else {
            userinfo = nil
        }
        let authorityEnd = i
        var close = -1
        if hostStart < authorityEnd, b[hostStart] == 0x5B {
            var j = hostStart
            while j < authorityEnd && b[j] != 0x5D { j += 1 }
            if j < authorityEnd { close = j }
        }
        if close >= 0 {
            host = hostStart..<(close + 1)
            let rest = (close + 1)..<authorityEnd
            if !rest.isEmpty {
                port = b[rest.lowerBound] == 0x3A ? (rest.lowerBound + 1)..<rest.upperBound : rest
            } else {
                port = nil
            }
        } else {
            var c = authorityEnd - 1
            while c >= hostStart && b[c] != 0x3A { c -= 1 }
            if c >= hostStart {
                host = hostStart..<c
                port = (c + 1)..<authorityEnd
            } else {
                host = hostStart..<authorityEnd
                port = nil
            }
        }
        let pathStart = i
        while i < n, b[i] != 0x3F, b[i] != 0x23 { i += 1 }
        path = pathStart..<i
        if i < n, b[i] == 0x3F {
            let q = i + 1
            i = q
            while i < n, b[i] != 0x23 { i += 1 }
            query = q..<i
        } else {
            query = nil
        }
        fragment = i < n ? (i + 1)..<n : nil
    }

    /// ``AASAURLParts/problem(domain:)`` is nil: https, no userinfo, no port but 443 (or an
    /// empty one), the host is the domain (ASCII case-insensitively).
    func isUniversalLink(_ b: UnsafeBufferPointer<UInt8>, domain: String) -> Bool {
        guard userinfo == nil, Self.equalFolded(b[scheme], "https".utf8) else { return false }
        if let port, !port.isEmpty, !b[port].elementsEqual("443".utf8) { return false }
        return Self.equalFolded(b[host], domain.utf8)
    }

    static func equalFolded<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool where A.Element == UInt8, B.Element == UInt8 {
        a.elementsEqual(b) { lowerASCII($0) == lowerASCII($1) }
    }

    @inline(__always)
    static func lowerASCII(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 0x20 : c }

    static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
}

/// `body` over the UTF-8 bytes of `text`, in place when they are contiguous.
func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let r = text.utf8.withContiguousStorageIfAvailable(body) { return r }
    return Array(text.utf8).withUnsafeBufferPointer(body)
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
        if !asciiLowercasedEqual(scheme, "https") { return .notHTTPS }
        if userinfo != nil { return .userinfo }
        if let port, port != "443", !port.isEmpty { return .port }
        if !asciiLowercasedEqual(host, domain) { return .hostMismatch }
        return nil
    }
}

func asciiLowercased(_ s: String) -> String {
    guard s.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return s }
    return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
}

/// `asciiLowercased(a) == asciiLowercased(b)`, without building either string when both are
/// ASCII (then string equality is byte equality). With a non-ASCII byte in either, the strings
/// are lower-cased and compared as strings, canonical equivalence included.
func asciiLowercasedEqual(_ a: String, _ b: String) -> Bool {
    var x = a, y = b
    let ascii: Bool? = x.withUTF8 { p in
        y.withUTF8 { q -> Bool? in
            if p.count == q.count {
                for i in 0..<p.count {
                    let c = p[i], d = q[i]
                    if c | d >= 0x80 { return nil }
                    if c == d { continue }
                    let lc = c &- 0x41 < 26 ? c | 0x20 : c, ld = d &- 0x41 < 26 ? d | 0x20 : d
                    if lc != ld { return false }
                }
                return true
            }
            return p.allSatisfy { $0 < 0x80 } && q.allSatisfy { $0 < 0x80 } ? false : nil
        }
    }
    return ascii ?? (asciiLowercased(a) == asciiLowercased(b))
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
            let hex = AASAPercentEscape.upperHex
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
