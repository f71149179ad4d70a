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
        /// `%XX` escapes decoded once (the padding often travels as `%3D`).
        case percentEncoded = "percent-encoded"
        /// Carriage returns, line feeds and tabs removed.
        case whitespace
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
        var copy = text
        let result = copy.withUTF8 { input in
            Result { () throws(Failure) -> Decoded in
                // One pass says which repairs the text needs; clean text (the usual case) is
                // decoded straight from the string's bytes.
                if input.count <= maxLength, let clean = fast(input) { return clean }
                var seen: UInt8 = 0
                for c in input where table[Int(c)] == 0xFF { seen |= kind(c) }
                if seen & (Kind.lineBreak | Kind.percent | Kind.space | Kind.urlSafe) == 0 {
                    guard input.count <= maxLength else {
                        throw Failure(code: .tooLong, message: "the pid is \(input.count) characters, over the \(maxLength)-character limit", offset: nil)
                    }
                    return try strict(input, repairs: [])
                }
                return try repaired(Array(input))
            }
        }
        return try result.get()
    }

    /// Clean, padded base64 (the usual case) in one pass; nil for anything else, which the
    /// careful path then repairs or refuses by name.
    static func fast(_ chars: UnsafeBufferPointer<UInt8>) -> Decoded? {
        let n = chars.count
        guard n >= 4, n % 4 == 0 else { return nil }
        let padding = chars[n - 1] == UInt8(ascii: "=") ? (chars[n - 2] == UInt8(ascii: "=") ? 2 : 1) : 0
        let body = n - padding
        let count = n / 4 * 3 - padding
        var invalid: UInt8 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { out, written in
            var i = 0, w = 0
            let full = body / 4 * 4
            while i < full {
                let a = table[Int(chars[i])], b = table[Int(chars[i + 1])], c = table[Int(chars[i + 2])], d = table[Int(chars[i + 3])]
                invalid |= a | b | c | d
                let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                out[w] = UInt8(truncatingIfNeeded: v >> 16); out[w + 1] = UInt8(truncatingIfNeeded: v >> 8); out[w + 2] = UInt8(truncatingIfNeeded: v)
                i += 4; w += 3
            }
            if padding > 0 {
                let a = table[Int(chars[i])], b = table[Int(chars[i + 1])], c = padding == 1 ? table[Int(chars[i + 2])] : 0
                invalid |= a | b | c
                // The bits below the last full byte must be zero (RFC 4648 section 3.5).
                if (padding == 2 ? b & 0x0F : c & 0x03) != 0 { invalid |= 0x80 }
                let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c & 0x3F) << 6
                out[w] = UInt8(truncatingIfNeeded: v >> 16)
                if padding == 1 { out[w + 1] = UInt8(truncatingIfNeeded: v >> 8) }
            }
            written = count
        }
        // A 0xFF from the table, or a non-canonical bit moved up, sets bit 6 or 7.
        return invalid & 0xC0 == 0 ? Decoded(bytes: bytes, repairs: []) : nil
    }

    /// What a byte needs: nothing (a base64 character or '='), a repair, or a refusal.
    enum Kind {
        static let lineBreak: UInt8 = 1, percent: UInt8 = 2, space: UInt8 = 4, urlSafe: UInt8 = 8, other: UInt8 = 16
    }

    static func kind(_ c: UInt8) -> UInt8 {
        switch c {
        case 0x0A, 0x0D, 0x09: Kind.lineBreak
        case UInt8(ascii: "%"): Kind.percent
        case 0x20: Kind.space
        case UInt8(ascii: "-"), UInt8(ascii: "_"): Kind.urlSafe
        default: Kind.other
        }
    }

    /// The repairs, in order, on a copy of the text.
    static func repaired(_ text: [UInt8]) throws(Failure) -> Decoded {
        var chars = text
        guard chars.count <= maxLength * 3 else {   // a first cut before any repair
            throw Failure(code: .tooLong, message: "the pid is \(chars.count) bytes, over the \(maxLength)-character limit", offset: nil)
        }
        var repairs: [Repair] = []
        // 1. Percent-encoding left in (a pid copied from a link without decoding it); first, so
        //    that line breaks sent as %0D%0A are removed with the others.
        if PercentCodec.containsEscape(chars) {
            chars = PercentCodec.decode(chars)
            repairs.append(.percentEncoded)
        }
        // 2. Line breaks and tabs: copy-and-paste and 76-character MIME lines.
        if chars.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            chars.removeAll { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            repairs.append(.whitespace)
        }
        // 3. Spaces: a form decoder's reading of '+'.
        if chars.contains(0x20) {
            for i in chars.indices where chars[i] == 0x20 { chars[i] = UInt8(ascii: "+") }
            repairs.append(.spaceForPlus)
        }
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
        return try chars.withUnsafeBufferPointer { b throws(Failure) in try strict(b, repairs: repairs) }
    }

    /// Strict base64 of `chars` (padding may be missing: then it is a repair).
    static func strict(_ chars: UnsafeBufferPointer<UInt8>, repairs: [Repair]) throws(Failure) -> Decoded {
        var repairs = repairs
        guard !chars.isEmpty else { throw Failure(code: .empty, message: "the pid is empty", offset: nil) }
        if let bad = chars.firstIndex(where: { table[Int($0)] == 0xFF && $0 != UInt8(ascii: "=") }) {
            let shown = chars[bad] < 0x80 ? "'\(Character(Unicode.Scalar(chars[bad])))'" : "byte 0x" + String(chars[bad], radix: 16, uppercase: true)
            throw Failure(code: .invalidCharacter, message: "\(shown) at position \(bad) is not a base64 character", offset: bad)
        }
        // Padding: only at the end, at most two, and matching the length.
        var body = chars.count
        while body > 0 && chars[body - 1] == UInt8(ascii: "=") { body -= 1 }
        let padding = chars.count - body
        if padding > 2 || UnsafeBufferPointer(rebasing: chars[0..<body]).contains(UInt8(ascii: "=")) {
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
        let full = body / 4 * 4
        let rest = body - full
        let count = full / 4 * 3 + (rest == 0 ? 0 : rest - 1)
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { out, written in
            var i = 0, w = 0
            while i < full {
                let n = UInt32(table[Int(chars[i])]) << 18 | UInt32(table[Int(chars[i + 1])]) << 12
                    | UInt32(table[Int(chars[i + 2])]) << 6 | UInt32(table[Int(chars[i + 3])])
                out[w] = UInt8(truncatingIfNeeded: n >> 16); out[w + 1] = UInt8(truncatingIfNeeded: n >> 8); out[w + 2] = UInt8(truncatingIfNeeded: n)
                i += 4; w += 3
            }
            if rest >= 2 {
                let n = UInt32(table[Int(chars[i])]) << 18 | UInt32(table[Int(chars[i + 1])]) << 12
                    | (rest == 3 ? UInt32(table[Int(chars[i + 2])]) << 6 : 0)
                out[w] = UInt8(truncatingIfNeeded: n >> 16)
                if rest == 3 { out[w + 1] = UInt8(truncatingIfNeeded: n >> 8) }
            }
            written = count
        }
        if rest >= 2 {
            // The bits below the last full byte must be zero (RFC 4648 section 3.5).
            let last = table[Int(chars[body - 1])]
            if (rest == 2 ? last & 0x0F : last & 0x03) != 0 {
                throw Failure(code: .noncanonicalBits, message: "the last character before the padding ('\(Character(Unicode.Scalar(chars[body - 1])))') sets bits no encoder sets", offset: body - 1)
            }
        }
        return Decoded(bytes: bytes, repairs: repairs)
    }

    /// The 6-bit value of each standard base64 character; 0xFF for every other byte.
    static let table: [UInt8] = {
        var t = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() { t[Int(c)] = UInt8(i) }
        return t
    }()
}
