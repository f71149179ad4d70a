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
    /// Appends the JSON text of `value` to `out`.
    public static func write(_ value: JSONValue, to out: inout [UInt8], pretty: Bool = false, sortKeys: Bool = false) {
        var writer = Writer(out: [], pretty: pretty, sortKeys: sortKeys)
        swap(&writer.out, &out)
        writer.write(value, indent: 0)
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
            out.append(contentsOf: String(Int64(d)).utf8)
        } else {
            out.append(contentsOf: d.description.utf8)
        }
    }

    mutating func writeString(_ s: String) {
        out.append(0x22)
        for byte in s.utf8 {
            switch byte {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0x00..<0x20, 0x7F:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }
}
