import LinkURL

/// The base64 text of a pid, repaired where one repair is certain, then decoded strictly
/// (RFC 4648 section 4). Requirements XQR-3, XQR-D9 and XQR-D10.
///
/// ```swift
/// let decoded = try PIDBase64.decode("CgMBAgM%3D")
/// decoded.bytes      // [0x0A, 0x03, 0x01, 0x02, 0x03]
/// decoded.repairs    // [.percentEncoded]
/// ```
public enum PIDBase64 {
    /// Damage a pid survives, named when repaired, in the order the repairs are made.
    public enum Repair: String, Sendable, Hashable, CaseIterable {
        /// Carriage returns, line feeds and tabs removed.
        case whitespace
        /// `%XX` escapes decoded once (the padding often travels as `%3D`).
        case percentEncoded = "percent-encoded"
        /// A space read as the `+` a form decoder turned into it.
        case spaceForPlus = "space-for-plus"
        /// `-` and `_` read as `+` and `/`.
        case urlSafeAlphabet = "url-safe-alphabet"
        /// `=` added up to a multiple of four characters.
        case missingPadding = "missing-padding"
    }

    /// Why a pid's text is refused.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public enum Code: String, Sendable, Hashable, CaseIterable {
            case empty
            case invalidCharacter = "invalid-character"
            case mixedAlphabets = "mixed-alphabets"
            case paddingInside = "padding-inside"
            case invalidLength = "invalid-length"
            case noncanonicalBits = "noncanonical-bits"
            case tooLong = "too-long"
        }
        public let code: Code
        public let message: String
        /// Position in the text after the repairs, when there is one place.
        public let offset: Int?
        public var description: String { "\(code.rawValue): \(message)" }
    }

    public struct Decoded: Sendable, Hashable {
        public let bytes: [UInt8]
        public let repairs: [Repair]
    }

    /// Most base64 characters read.
    public static let maxLength = 65_536

    public static func decode(_ text: String) throws(Failure) -> Decoded {
        var chars = Array(text.utf8)
        guard chars.count <= maxLength * 3 else {   // a first cut before any copying
            throw Failure(code: .tooLong, message: "the pid is \(chars.count) bytes, over the \(maxLength)-character limit", offset: nil)
        }
        var repairs: [Repair] = []
        // 1. Line breaks and tabs: copy-and-paste and 76-character MIME lines.
        if chars.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            chars.removeAll { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            repairs.append(.whitespace)
        }
        // 2. Percent-encoding left in (a pid copied from a link without decoding it).
        if PercentCodec.containsEscape(chars) {
            chars = PercentCodec.decode(chars)
            repairs.append(.percentEncoded)
        }
        // 3. Spaces: a form decoder's reading of '+'.
        if chars.contains(0x20) {
            for i in chars.indices where chars[i] == 0x20 { chars[i] = UInt8(ascii: "+") }
            repairs.append(.spaceForPlus)
        }
        guard !chars.isEmpty else { throw Failure(code: .empty, message: "the pid is empty", offset: nil) }
        guard chars.count <= maxLength else {
            throw Failure(code: .tooLong, message: "the pid is \(chars.count) characters, over the \(maxLength)-character limit", offset: nil)
        }
        // 4. Alphabets.
        let standard = chars.contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }
        let urlSafe = chars.contains { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        if standard && urlSafe {
            throw Failure(code: .mixedAlphabets, message: "the pid mixes the standard alphabet ('+', '/') with the URL-safe one ('-', '_')", offset: nil)
        }
        if urlSafe {
            for i in chars.indices {
                if chars[i] == UInt8(ascii: "-") { chars[i] = UInt8(ascii: "+") } else if chars[i] == UInt8(ascii: "_") { chars[i] = UInt8(ascii: "/") }
            }
            repairs.append(.urlSafeAlphabet)
        }
        if let bad = chars.firstIndex(where: { value($0) == nil && $0 != UInt8(ascii: "=") }) {
            let shown = chars[bad] < 0x80 ? "'\(Character(Unicode.Scalar(chars[bad])))'" : "byte 0x" + String(chars[bad], radix: 16, uppercase: true)
            throw Failure(code: .invalidCharacter, message: "\(shown) at position \(bad) is not a base64 character", offset: bad)
        }
        // 5. Padding: only at the end, at most two, and matching the length.
        var body = chars.count
        while body > 0 && chars[body - 1] == UInt8(ascii: "=") { body -= 1 }
        let padding = chars.count - body
        if padding > 2 || chars[0..<body].contains(UInt8(ascii: "=")) {
            let at = chars.firstIndex(of: UInt8(ascii: "=")) ?? body
            throw Failure(code: .paddingInside, message: "'=' at position \(at) is not padding at the end of the pid", offset: at)
        }
        guard body > 0 else { throw Failure(code: .empty, message: "the pid is only padding", offset: nil) }
        if body % 4 == 1 {
            throw Failure(code: .invalidLength, message: "\(body) characters before the padding: one past a multiple of four, which no encoding produces", offset: nil)
        }
        let needed = (4 - body % 4) % 4
        if padding > needed {
            throw Failure(code: .invalidLength, message: "\(padding) padding characters where \(needed) belong", offset: body)
        }
        if padding < needed { repairs.append(.missingPadding) }
        // 6. Strict decoding of the body.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body / 4 * 3 + 2)
        var i = 0
        while i + 4 <= body {
            let n = UInt32(value(chars[i])!) << 18 | UInt32(value(chars[i + 1])!) << 12 | UInt32(value(chars[i + 2])!) << 6 | UInt32(value(chars[i + 3])!)
            bytes.append(UInt8(n >> 16)); bytes.append(UInt8(n >> 8 & 0xFF)); bytes.append(UInt8(n & 0xFF))
            i += 4
        }
        let rest = body - i
        if rest >= 2 {
            let a = UInt32(value(chars[i])!), b = UInt32(value(chars[i + 1])!)
            let c = rest == 3 ? UInt32(value(chars[i + 2])!) : 0
            let n = a << 18 | b << 12 | c << 6
            bytes.append(UInt8(n >> 16))
            if rest == 3 { bytes.append(UInt8(n >> 8 & 0xFF)) }
            // The bits below the last full byte must be zero (RFC 4648 section 3.5).
            let spare = rest == 2 ? (b & 0x0F) : (c & 0x03)
            if spare != 0 {
                throw Failure(code: .noncanonicalBits, message: "the last character before the padding ('\(Character(Unicode.Scalar(chars[body - 1]))))') sets bits no encoder sets", offset: body - 1)
            }
        }
        return Decoded(bytes: bytes, repairs: repairs)
    }

    /// The 6-bit value of a standard base64 character.
    @inline(__always)
    static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
