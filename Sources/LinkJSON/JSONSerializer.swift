/// Writes ``JSONValue``s as JSON text: compact for protocol lines, indented for files.
///
/// Output is deterministic: members in their stored order (or sorted by code point, on request), integral
/// numbers without a fraction, non-finite numbers as `null`. Control characters, DEL, C1 and
/// bidirectional controls, line separators and U+FFFE/F are written as `\u` escapes: the value
/// read back is the same, and the text carries none of them raw.
///
/// ```swift
/// let value: JSONValue = ["seq": 7, "output": ["kind": "ulc"]]
/// value.serialized()                 // {"seq":7,"output":{"kind":"ulc"}}
/// ```
public enum JSONSerializer {
    /// Appends the JSON text of `value` to `out`; pretty text as it stands `level` levels deep
    /// (its lines after the first indented two spaces more a level).
    public static func write(_ value: JSONValue, to out: inout [UInt8], pretty: Bool = false, sortKeys: Bool = false, level: Int = 0) {
        var writer = Writer(out: [], pretty: pretty, sortKeys: sortKeys)
        swap(&writer.out, &out)
        writer.write(value, indent: level)
        swap(&writer.out, &out)
    }
}

extension JSONSerializer {
    /// JSON text from another writer (Foundation's `JSONSerialization`) with the hidden
    /// characters this writer escapes (DEL, C1 and bidirectional controls, line separators,
    /// U+FFFE/F) written as `\u` escapes. Valid JSON has them only inside strings, where the
    /// escape reads back as the same character.
    public static func escapingHidden(_ json: String) -> String {
        let bytes = Array(json.utf8)
        var writer = Writer(out: [], pretty: false, sortKeys: false)
        writer.out.reserveCapacity(bytes.count)
        bytes.withUnsafeBufferPointer { b in
            var i = 0
            while i < b.count {
                if b[i] == 0x7F {
                    writer.writeEscape(0x7F)
                    i += 1
                } else if let (scalar, length) = Writer.hiddenScalar(b, at: i) {
                    writer.writeEscape(scalar)
                    i += length
                } else {
                    writer.out.append(b[i])
                    i += 1
                }
            }
        }
        return String(decoding: writer.out, as: UTF8.self)
    }
}

extension JSONValue {
    /// The JSON text of this value.
    public func serialized(pretty: Bool = false, sortKeys: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        JSONSerializer.write(self, to: &out, pretty: pretty, sortKeys: sortKeys)
        return String(decoding: out, as: UTF8.self)
    }
}

private struct Writer {
    var out: [UInt8]
    let pretty: Bool
    let sortKeys: Bool

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .number(let d): writeNumber(d)
        case .string(let s): writeString(s)
        case .array(let elements):
            if elements.isEmpty { append("[]"); return }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty { append("{}"); return }
            out.append(UInt8(ascii: "{"))
            let members = sortKeys ? object.canonicalMembers : object.members
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(member.key)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                write(member.value, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    mutating func append(_ s: StaticString) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func newline(_ level: Int) {
        guard pretty else { return }
        out.append(0x0A)
        for _ in 0..<level { out.append(0x20); out.append(0x20) }
    }

    mutating func writeNumber(_ d: Double) {
        guard d.isFinite else { append("null"); return }
        if d.rounded() == d, abs(d) < 1e15 {
            writeInteger(Int64(d))
        } else {
            out.append(contentsOf: d.description.utf8)
        }
    }

    /// The decimal digits of `n`, written in place (no intermediate String: outputs carry many
    /// small integers).
    mutating func writeInteger(_ n: Int64) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = n.magnitude
        if magnitude < 10 {
            out.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes: more than the 20 digits of any Int64
        withUnsafeMutableBytes(of: &digits) { buffer in
            var i = buffer.count
            while magnitude > 0 {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            out.append(contentsOf: buffer[i...])
        }
    }

    mutating func writeString(_ s: String) {
        out.append(0x22)
        var copy = s
        copy.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            // Runs of bytes that need no escape are appended whole.
            var runStart = 0
            while true {
                let i = ByteScan.firstSpecial(base, from: runStart, to: bytes.count, forWriting: true)
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart)) }
                guard i < bytes.count else { break }
                runStart = i + 1
                switch bytes[i] {
                case 0x22: append("\\\"")
                case 0x5C: append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case let byte where byte < 0x80: writeEscape(UInt32(byte))
                case let byte:
                    // The first byte of a sequence that may spell a hidden character.
                    if let (scalar, length) = Self.hiddenScalar(bytes, at: i) {
                        writeEscape(scalar)
                        runStart = i + length
                    } else {
                        out.append(byte)
                    }
                }
            }
        }
        out.append(0x22)
    }

    /// `\uXXXX` for a scalar of the Basic Multilingual Plane.
    mutating func writeEscape(_ scalar: UInt32) {
        let hex: StaticString = "0123456789abcdef"
        append("\\u")
        for shift in stride(from: 12, through: 0, by: -4) { out.append(hex.utf8Start[Int((scalar >> UInt32(shift)) & 0xF)]) }
    }

    /// The hidden character (and its length in bytes) whose UTF-8 starts at `i`, if any: what
    /// JSON allows raw but no reader should meet raw in a file or a terminal, so that a
    /// results file shown with `cat`, or opened in an editor, cannot be reordered or drive the
    /// terminal (C1 controls, U+061C, U+200B, U+200E/F, U+202A-E, U+2060, U+2066-9, U+2028/9,
    /// U+FEFF, U+FFFE/F: ``HiddenCharacters``' set beyond ASCII). The
    /// value read back is the same.
    static func hiddenScalar(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
        let n = b.count - i
        switch b[i] {
        case 0xC2 where n >= 2 && (0x80...0x9F).contains(b[i + 1]):
            return (UInt32(b[i + 1]), 2)
        case 0xD8 where n >= 2 && b[i + 1] == 0x9C:
            return (0x061C, 2)
        case 0xE2 where n >= 3:
            let scalar = 0x2000 | (UInt32(b[i + 1] & 0x3F) << 6) | UInt32(b[i + 2] & 0x3F)
            guard b[i + 1] & 0xC0 == 0x80, b[i + 2] & 0xC0 == 0x80 else { return nil }
            switch scalar {
            case 0x200B, 0x200E, 0x200F, 0x2028...0x202E, 0x2060, 0x2066...0x2069: return (scalar, 3)
            default: return nil
            }
        case 0xEF where n >= 3 && b[i + 1] == 0xBF && (b[i + 2] == 0xBE || b[i + 2] == 0xBF):
            return (0xFF00 | UInt32(b[i + 2] & 0x3F) | 0xC0, 3)
        case 0xEF where n >= 3 && b[i + 1] == 0xBB && b[i + 2] == 0xBF:
            return (0xFEFF, 3)
        default:
            return nil
        }
    }
}
