/// Writes ``JSONValue``s as JSON text: compact for protocol lines, indented for files.
///
/// Output is deterministic: members in their stored order (or sorted by code point, on request), integral
/// numbers without a fraction, non-finite numbers as `null`.
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
                let i = ByteScan.firstSpecial(base, from: runStart, to: bytes.count, orDelete: true)
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart)) }
                guard i < bytes.count else { break }
                runStart = i + 1
                switch bytes[i] {
                case 0x22: append("\\\"")
                case 0x5C: append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case let byte:
                    let hex: StaticString = "0123456789abcdef"
                    append("\\u00")
                    out.append(hex.utf8Start[Int(byte >> 4)])
                    out.append(hex.utf8Start[Int(byte & 0xF)])
                }
            }
        }
        out.append(0x22)
    }
}
