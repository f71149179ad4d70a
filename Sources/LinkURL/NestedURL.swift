/// A query value that carries a whole URL (a callback), read the way these protocols intend:
/// percent-decoded exactly once, then parsed as a URL of its own.
///
/// It records how the value was encoded, which is where senders go wrong: delimiters of the
/// nested URL left raw, a `+` that form-style readers turn into a space, escapes that are not
/// escapes, or a value encoded twice. Protocol modules turn these findings into violations of
/// their own rules.
///
/// ```swift
/// let link = LinkURL(parsing: "https://a.example/l?cb=https%253A%252F%252Fb.example")
/// let item = link.queryItems.first(named: "cb")!
/// let nested = NestedURL(in: link.bytes, value: item.value!)
/// nested.findings      // [.doubleEncoded]
/// ```
public struct NestedURL: Sendable {
    /// What the raw value shows about its encoding.
    public enum Finding: Sendable, Hashable {
        /// A raw `?` or `=` (offset into the outer input): the nested URL was not encoded, so a
        /// raw `&` of its query would already have split it.
        case rawDelimiter(offset: Int, byte: UInt8)
        /// A raw `+`: RFC 3986 readers keep it, form-style readers turn it into a space.
        case plusSign(offset: Int)
        /// A `%` not followed by two hexadecimal digits.
        case invalidEscape(offset: Int)
        /// Decoded once, the value is still an encoded URL (`https%3A%2F%2F...`).
        case doubleEncoded
        /// Decoded once, the octets are not valid UTF-8.
        case notUTF8
    }

    /// The raw value's range in the outer input.
    public let raw: Range<Int>
    /// The value decoded exactly once (RFC 3986: `+` is kept), when the octets are UTF-8.
    public let decoded: String?
    /// The decoded value split as a URL.
    public let scan: URLScan
    public let findings: [Finding]
    /// The decoded bytes, kept only when they are not UTF-8 (otherwise ``decoded`` holds them).
    let undecodable: [UInt8]?
    let limits: URLLimits

    public init(in outer: [UInt8], value: Range<Int>, limits: URLLimits = .default) {
        raw = value
        self.limits = limits
        // One pass decodes once into scratch memory and notes how the raw value was written;
        // the split then runs on the scratch bytes, so no array is built. The split is read
        // into `split` in place: a scan returned by `URLScan(scanning:)` and assigned here was
        // copied, destroyed and assigned again, for every callback.
        var findings: [Finding] = []
        var text: String? = nil
        var bytes: [UInt8]? = nil
        var split = URLScan()
        outer.withUnsafeBufferPointer { b in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(value.count, 1)) { out in
                var nonASCII = false
                var w = 0
                var k = value.lowerBound
                let end = value.upperBound
                let tables = URLScanner.Tables.current
                let kinds = tables.nested
                let hex = tables.hex
                while k < end {
                    // Four plain bytes at a time: copied as they are.
                    while k &+ 4 <= end,
                          kinds[Int(b[k])] | kinds[Int(b[k &+ 1])] | kinds[Int(b[k &+ 2])] | kinds[Int(b[k &+ 3])] == 0 {
                        out[w] = b[k]; out[w &+ 1] = b[k &+ 1]; out[w &+ 2] = b[k &+ 2]; out[w &+ 3] = b[k &+ 3]
                        w &+= 4
                        k &+= 4
                    }
                    guard k < end else { break }
                    var c = b[k]
                    let kind = kinds[Int(c)]
                    if kind != 0 {
                        // Bit tests, not a switch: the compiler would make a jump table of a
                        // switch, and '%' is too frequent for its indirect branch to predict.
                        if kind & 1 != 0 {
                            if k &+ 2 < end, case let h = hex[Int(b[k &+ 1])], case let l = hex[Int(b[k &+ 2])], h < 16, l < 16 {
                                c = h << 4 | l
                                k &+= 2
                                nonASCII = nonASCII || c >= 0x80
                            } else {
                                findings.append(.invalidEscape(offset: k))
                            }
                        } else if kind & 2 != 0 {
                            findings.append(.rawDelimiter(offset: k, byte: c))
                        } else if kind & 4 != 0 {
                            findings.append(.plusSign(offset: k))
                        } else {
                            nonASCII = true
                        }
                    }
                    out[w] = c
                    w &+= 1
                    k &+= 1
                }
                let once = UnsafeBufferPointer(rebasing: out[0..<w])
                if !nonASCII || UTF8Validation.isValid(once) {
                    text = String(decoding: once, as: UTF8.self)
                } else {
                    findings.append(.notUTF8)
                    bytes = Array(once)
                }
                if NestedURL.looksEncoded(once, schemeKinds: tables.kinds + URLScanner.Row.scheme) { findings.append(.doubleEncoded) }
                split.read(once, limits: limits)
            }
        }
        decoded = text
        undecodable = bytes
        scan = split
        self.findings = findings
    }

    /// The value decoded once, as bytes.
    public var decodedBytes: [UInt8] {
        decoded.map { Array($0.utf8) } ?? undecodable ?? []
    }

    /// The decoded value as a ``LinkURL`` (built on request).
    public var url: LinkURL { LinkURL(parsing: decodedBytes, limits: limits) }

    /// Calls `body` with the decoded bytes, without copying them when they are valid UTF-8.
    /// (Inlinable: a generic call across modules instantiated type metadata on every call.)
    @inlinable
    public func withDecodedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let text = decoded, let result = try text.utf8.withContiguousStorageIfAvailable(body) {
            return result
        }
        return try decodedBytes.withUnsafeBufferPointer(body)
    }

    /// Per byte of a raw value: 0 copied as is, 1 `%`, 2 `?` or `=`, 4 `+`, 8 non-ASCII.
    static let kindTable: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256)
        t[Int(UInt8(ascii: "%"))] = 1
        t[Int(UInt8(ascii: "?"))] = 2
        t[Int(UInt8(ascii: "="))] = 2
        t[Int(UInt8(ascii: "+"))] = 4
        for b in 0x80..<0x100 { t[b] = 8 }
        return t
    }()

    /// Whether text starts like a percent-encoded absolute URL: a scheme followed by `%3A`
    /// (`https%3A%2F%2F...`).
    public static func looksEncoded(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { looksEncoded($0, schemeKinds: URLScanner.kindsPointer + URLScanner.Row.scheme) }
    }

    /// Whether bytes start like a percent-encoded absolute URL: a scheme followed by `%3A`.
    /// `schemeKinds` is the scanner's scheme row (0 for bytes a scheme may hold).
    static func looksEncoded(_ bytes: UnsafeBufferPointer<UInt8>, schemeKinds: UnsafePointer<UInt8>) -> Bool {
        guard let first = bytes.first, case let lower = first | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        var k = 1
        while k < bytes.count, schemeKinds[Int(bytes[k])] == 0 { k += 1 }
        return k + 2 < bytes.count && bytes[k] == UInt8(ascii: "%") && bytes[k + 1] == UInt8(ascii: "3")
            && (bytes[k + 2] | 0x20) == UInt8(ascii: "a")
    }

    /// Whether any finding is of the given kind.
    public var isDoubleEncoded: Bool { findings.contains(.doubleEncoded) }
}
