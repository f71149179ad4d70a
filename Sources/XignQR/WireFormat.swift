/// Protocol-buffers wire format, read without a schema: what the decoded pid is made of
/// (requirements XQR-D11 and XQR-D12).
///
/// Each field is a key (field number and wire type, as a varint) and a value: a varint (type 0),
/// eight bytes (1), a length and that many bytes (2), or four bytes (5). A length-delimited value
/// that is not empty and parses completely as fields is also shown as a nested message: without
/// a schema, bytes and a message cannot be told apart otherwise.
///
/// ```swift
/// let fields = try WireFormat.read([0x0A, 0x03, 0x61, 0x62, 0x63, 0x10, 0x96, 0x01])
/// fields[0]    // field 1, length-delimited "abc"
/// fields[1]    // field 2, varint 150
/// ```
public enum WireFormat {
    public struct Field: Sendable, Hashable {
        public enum Value: Sendable, Hashable {
            case varint(UInt64)
            /// Eight bytes, little-endian, as they were (a view of the decoded pid, not a copy).
            case i64(ArraySlice<UInt8>)
            /// The bytes, and the fields they parse as, when they do.
            case len(ArraySlice<UInt8>, message: [Field]?)
            case i32(ArraySlice<UInt8>)
        }
        public let number: UInt32
        public let value: Value
    }

    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public enum Code: String, Sendable, Hashable, CaseIterable {
            case truncated
            case varintTooLong = "varint-too-long"
            case fieldNumberZero = "field-number-zero"
            case fieldNumberTooLarge = "field-number-too-large"
            case groupWireType = "group-wire-type"
            case unknownWireType = "unknown-wire-type"
            case tooManyFields = "too-many-fields"
        }
        public let code: Code
        public let message: String
        /// Byte offset in the decoded pid.
        public let offset: Int
        public var description: String { "\(code.rawValue) at byte \(offset): \(message)" }
    }

    /// Limits (XQR-D12).
    public static let maxFields = 4_096
    public static let maxDepth = 32
    /// The largest field number the format allows (2^29 - 1).
    public static let maxFieldNumber: UInt64 = (1 << 29) - 1

    /// Reads `bytes` as a message.
    public static func read(_ bytes: [UInt8]) throws(Failure) -> [Field] {
        var reader = Reader(bytes: bytes)
        return try bytes.withUnsafeBufferPointer { b throws(Failure) in
            try reader.message(b, 0..<b.count, depth: 0)
        }
    }

    /// Counts fields across the whole tree, nested interpretations included.
    struct Reader {
        let bytes: [UInt8]
        var fields = 0

        mutating func message(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, depth: Int) throws(Failure) -> [Field] {
            var out: [Field] = []
            var k = range.lowerBound
            let end = range.upperBound
            while k < end {
                let at = k
                let key = try varint(b, &k, end)
                let number = key >> 3
                guard number != 0 else { throw Failure(code: .fieldNumberZero, message: "field number 0 is not allowed", offset: at) }
                guard number <= WireFormat.maxFieldNumber else {
                    throw Failure(code: .fieldNumberTooLarge, message: "field number \(number) is over 2^29 - 1", offset: at)
                }
                fields += 1
                guard fields <= WireFormat.maxFields else {
                    throw Failure(code: .tooManyFields, message: "more than \(WireFormat.maxFields) fields", offset: at)
                }
                let value: Field.Value
                switch key & 7 {
                case 0: value = .varint(try varint(b, &k, end))
                case 1:
                    guard end - k >= 8 else { throw Failure(code: .truncated, message: "a 64-bit value needs 8 bytes, \(end - k) remain", offset: k) }
                    value = .i64(bytes[k..<k + 8])
                    k += 8
                case 2:
                    let lengthAt = k
                    let length = try varint(b, &k, end)
                    guard length <= UInt64(end - k) else {
                        throw Failure(code: .truncated, message: "a length of \(length) runs past the end (\(end - k) bytes remain)", offset: lengthAt)
                    }
                    let payload = k..<k + Int(length)
                    k = payload.upperBound
                    value = .len(bytes[payload], message: nested(b, payload, depth: depth + 1))
                case 3, 4: throw Failure(code: .groupWireType, message: "wire type \(key & 7) (a deprecated group)", offset: at)
                case 5:
                    guard end - k >= 4 else { throw Failure(code: .truncated, message: "a 32-bit value needs 4 bytes, \(end - k) remain", offset: k) }
                    value = .i32(bytes[k..<k + 4])
                    k += 4
                default: throw Failure(code: .unknownWireType, message: "wire type \(key & 7) does not exist", offset: at)
                }
                out.append(Field(number: UInt32(number), value: value))
            }
            return out
        }

        /// The payload read as a message when it is one; nil otherwise: when it does not parse,
        /// past the depth limit, or when its fields would run over the field limit (a nested
        /// reading is only a possible one, so it stops there rather than refuse the pid). Fields
        /// of a failed attempt are not counted.
        mutating func nested(_ b: UnsafeBufferPointer<UInt8>, _ payload: Range<Int>, depth: Int) -> [Field]? {
            guard !payload.isEmpty, depth <= WireFormat.maxDepth else { return nil }
            let before = fields
            do {
                return try message(b, payload, depth: depth)
            } catch {
                fields = before
                return nil
            }
        }

        /// A varint of at most ten bytes that fits 64 bits.
        func varint(_ b: UnsafeBufferPointer<UInt8>, _ k: inout Int, _ end: Int) throws(Failure) -> UInt64 {
            let start = k
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard k < end else { throw Failure(code: .truncated, message: "a varint runs past the end", offset: start) }
                let byte = b[k]
                k += 1
                if shift == 63 && byte > 1 {
                    throw Failure(code: .varintTooLong, message: "a varint over 64 bits", offset: start)
                }
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
                guard shift <= 63 else { throw Failure(code: .varintTooLong, message: "a varint of more than ten bytes", offset: start) }
            }
        }
    }
}
