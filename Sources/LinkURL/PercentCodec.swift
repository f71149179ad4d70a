/// Percent-encoding and -decoding per octet (RFC 3986 section 2.1), plus the form-style
/// variant (`application/x-www-form-urlencoded`, where `+` means a space).
///
/// ```swift
/// PercentCodec.decodeString("https%3A%2F%2Fa.example%2Fs")    // "https://a.example/s"
/// PercentCodec.decodeString("a+b")                            // "a+b" (RFC 3986: '+' is data)
/// PercentCodec.decodeString("a+b", plusAsSpace: true)         // "a b" (form-style reading)
/// PercentCodec.encodeComponent("https://a.example/?x=1&y=2")  // "https%3A%2F%2Fa.example%2F%3Fx%3D1%26y%3D2"
/// ```
public enum PercentCodec {
    /// Decodes every valid `%XX` to its octet; an invalid escape is kept as it is.
    public static func decode<C: RandomAccessCollection>(_ encoded: C, plusAsSpace: Bool = false) -> [UInt8]
    where C.Element == UInt8, C.Index == Int {
        if let done = encoded.withContiguousStorageIfAvailable({ decode(buffer: $0, plusAsSpace: plusAsSpace) }) {
            return done
        }
        return Array(encoded).withUnsafeBufferPointer { decode(buffer: $0, plusAsSpace: plusAsSpace) }
    }

    static func decode(buffer: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: buffer.count) { out, written in
            written = decode(buffer, into: out, plusAsSpace: plusAsSpace)
        }
    }

    /// Decodes `buffer` into `out` (at least as long); returns the bytes written.
    static func decode(_ buffer: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, plusAsSpace: Bool) -> Int {
        let n = buffer.count
        var k = 0
        var w = 0
        while k < n {
            let c = buffer[k]
            if c == UInt8(ascii: "%"), k + 2 < n,
               let h = ByteClass.hexValue(buffer[k + 1]), let l = ByteClass.hexValue(buffer[k + 2]) {
                out[w] = h << 4 | l
                k += 3
            } else {
                out[w] = plusAsSpace && c == UInt8(ascii: "+") ? 0x20 : c
                k += 1
            }
            w += 1
        }
        return w
    }

    /// Decodes straight into a string, invalid UTF-8 replaced by U+FFFD: for names and values
    /// shown as text. Bytes without a `%` (or `+`, when it means a space) are not copied twice.
    ///
    /// ```swift
    /// Array("caf%C3%A9%FF".utf8).withUnsafeBufferPointer { PercentCodec.decodedText($0) }   // "café\u{FFFD}"
    /// ```
    public static func decodedText(_ buffer: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool = false) -> String {
        let n = buffer.count
        if ByteSearch.first(UInt8(ascii: "%"), in: buffer, from: 0, to: n) == n,
           !plusAsSpace || ByteSearch.first(UInt8(ascii: "+"), in: buffer, from: 0, to: n) == n {
            return String(decoding: buffer, as: UTF8.self)
        }
        // The initializer validates what is written and repairs invalid sequences.
        return String(unsafeUninitializedCapacity: n) { decode(buffer, into: $0, plusAsSpace: plusAsSpace) }
    }

    /// The bytes of `range` decoded straight into a string (invalid UTF-8 replaced by U+FFFD).
    public static func decodedText(_ bytes: [UInt8], in range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { decodedText(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Decodes and reads the result as UTF-8; nil when the octets are not valid UTF-8.
    public static func decodeString<C: RandomAccessCollection>(_ encoded: C, plusAsSpace: Bool = false) -> String?
    where C.Element == UInt8, C.Index == Int {
        utf8String(decode(encoded, plusAsSpace: plusAsSpace))
    }

    /// Decodes a string's UTF-8 bytes and reads the result as UTF-8.
    public static func decodeString(_ encoded: String, plusAsSpace: Bool = false) -> String? {
        decodeString(Array(encoded.utf8), plusAsSpace: plusAsSpace)
    }

    /// Whether the bytes hold at least one valid `%XX` escape.
    /// (Generic and not inlinable, so a caller in another module runs it unspecialised: a loop
    /// over `bytes[k]` here would make a witness-table call, with allocations, per byte. The
    /// bytes are searched as one buffer.)
    public static func containsEscape<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8, C.Index == Int {
        if let found = bytes.withContiguousStorageIfAvailable(containsEscape(buffer:)) { return found }
        return Array(bytes).withUnsafeBufferPointer(containsEscape(buffer:))
    }

    static func containsEscape(buffer b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        var k = ByteSearch.first(UInt8(ascii: "%"), in: b, from: 0, to: n)
        while k + 2 < n {
            if ByteClass.hexValue(b[k + 1]) != nil, ByteClass.hexValue(b[k + 2]) != nil { return true }
            k = ByteSearch.first(UInt8(ascii: "%"), in: b, from: k + 1, to: n)
        }
        return false
    }

    /// Offsets (relative to the collection's indices) of every `%` that does not start a valid escape.
    public static func invalidEscapeOffsets<C: Collection>(_ bytes: C) -> [Int] where C.Element == UInt8, C.Index == Int {
        var found: [Int] = []
        var k = bytes.startIndex
        while k < bytes.endIndex {
            if bytes[k] == UInt8(ascii: "%") {
                if k + 2 < bytes.endIndex, ByteClass.hexValue(bytes[k + 1]) != nil, ByteClass.hexValue(bytes[k + 2]) != nil {
                    k += 3
                    continue
                }
                found.append(k)
            }
            k += 1
        }
        return found
    }

    /// Encodes every byte except the unreserved ones (RFC 3986 section 2.3) as `%XX` with
    /// upper-case digits, so that RFC 3986, WHATWG and form-style readers all decode the result
    /// to the same bytes (`+`, `&`, `=`, `#`, `%`, `?`, `/` and `:` are all escaped).
    ///
    /// (Generic and not inlinable, so a caller in another module runs it unspecialised: a loop
    /// over the sequence here would make a witness call, and in the fuzz builds an allocation,
    /// per byte. The bytes are encoded from one buffer, straight into the string.)
    public static func encodeComponent<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        if let done = bytes.withContiguousStorageIfAvailable(encodeComponent(buffer:)) { return done }
        return Array(bytes).withUnsafeBufferPointer(encodeComponent(buffer:))
    }

    static func encodeComponent(buffer b: UnsafeBufferPointer<UInt8>) -> String {
        let hex: StaticString = "0123456789ABCDEF"
        let digits = hex.utf8Start
        let table = ByteClass.table
        return String(unsafeUninitializedCapacity: b.count * 3) { out in
            var w = 0
            for byte in b {
                if table[Int(byte)] & ByteClass.unreserved != 0 {
                    out[w] = byte
                    w &+= 1
                } else {
                    out[w] = UInt8(ascii: "%")
                    out[w &+ 1] = digits[Int(byte >> 4)]
                    out[w &+ 2] = digits[Int(byte & 0xF)]
                    w &+= 3
                }
            }
            return w
        }
    }

    /// Encodes a string's UTF-8 bytes with ``encodeComponent(_:)-swift.method``.
    public static func encodeComponent(_ string: String) -> String {
        encodeComponent(string.utf8)
    }

    /// The bytes as a `String` when they are valid UTF-8, else nil.
    public static func utf8String<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer -> String? in
            UTF8Validation.isValid(buffer) ? String(decoding: buffer, as: UTF8.self) : nil
        }) {
            return result
        }
        return utf8String(Array(bytes))
    }
}

/// UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
public enum UTF8Validation {
    public static func isValid(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        var k = 0
        while k < n {
            let c = b[k]
            if c < 0x80 { k += 1; continue }
            let need: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; high = 0x9F
            case 0xF0: need = 3; low = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; high = 0x8F
            default: return false
            }
            guard k + need < n else { return false }   // the continuation bytes must all be there
            let second = b[k + 1]
            guard second >= low && second <= high else { return false }
            var j = 2
            while j <= need {
                guard b[k + j] & 0xC0 == 0x80 else { return false }
                j += 1
            }
            k += need + 1
        }
        return true
    }
}
