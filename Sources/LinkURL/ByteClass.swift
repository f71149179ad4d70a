/// RFC 3986 character classes as a 256-entry table of bit sets, one lookup per byte.
///
/// ```swift
/// ByteClass.table[Int(UInt8(ascii: "a"))] & ByteClass.unreserved != 0   // true
/// ```
public enum ByteClass {
    /// ALPHA / DIGIT / "-" / "." / "_" / "~" (RFC 3986 section 2.3).
    public static let unreserved: UInt8 = 1 << 0
    /// "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=" (section 2.2).
    public static let subDelim: UInt8 = 1 << 1
    /// ":" / "/" / "?" / "#" / "[" / "]" / "@" (section 2.2).
    public static let genDelim: UInt8 = 1 << 2
    /// Characters allowed in a scheme after its first letter (section 3.1).
    public static let scheme: UInt8 = 1 << 3
    /// ASCII letters.
    public static let alpha: UInt8 = 1 << 4
    /// ASCII hexadecimal digits.
    public static let hexDigit: UInt8 = 1 << 5

    /// The class bits of every byte value.
    public static let table: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256)
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { t[Int(b)] |= unreserved | scheme | alpha }
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") { t[Int(b)] |= unreserved | scheme | alpha }
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { t[Int(b)] |= unreserved | scheme | hexDigit }
        for b in UInt8(ascii: "a")...UInt8(ascii: "f") { t[Int(b)] |= hexDigit }
        for b in UInt8(ascii: "A")...UInt8(ascii: "F") { t[Int(b)] |= hexDigit }
        for c in "-._~".utf8 { t[Int(c)] |= unreserved }
        for c in "+-.".utf8 { t[Int(c)] |= scheme }
        for c in "!$&'()*+,;=".utf8 { t[Int(c)] |= subDelim }
        for c in ":/?#[]@".utf8 { t[Int(c)] |= genDelim }
        return t
    }()

    /// Whether `byte` may appear unencoded in the given component (RFC 3986 section 3).
    /// `%` is not included: escapes are checked separately.
    @inlinable
    public static func isAllowed(_ byte: UInt8, in component: URLComponent) -> Bool {
        let bits = table[Int(byte)]
        if bits & (unreserved | subDelim) != 0 { return true }
        switch component {
        case .scheme: return bits & scheme != 0
        case .userinfo: return byte == UInt8(ascii: ":")
        case .host, .port: return false
        case .path: return byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "/")
        case .query, .fragment:
            return byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "?")
        }
    }

    /// The value of an ASCII hexadecimal digit, or nil.
    @inlinable
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}

/// The parts of a URI reference (RFC 3986 section 3).
public enum URLComponent: String, Sendable, Hashable, CaseIterable {
    case scheme, userinfo, host, port, path, query, fragment
}
