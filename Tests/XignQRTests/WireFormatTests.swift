import SeededRandom
import Testing
@testable import XignQR

/// Protocol-buffers wire format read without a schema (requirements XQR-D11, XQR-D12).
struct WireFormatTests {
    /// A writer for the tests: the encoding the reader must undo.
    struct Writer {
        var bytes: [UInt8] = []
        mutating func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            bytes.append(UInt8(v))
        }
        mutating func key(_ field: UInt64, _ type: UInt64) { varint(field << 3 | type) }
        mutating func len(_ field: UInt64, _ payload: [UInt8]) { key(field, 2); varint(UInt64(payload.count)); bytes += payload }
    }

    @Test func theDocumentationExampleHolds() throws {
        let fields = try WireFormat.read([0x0A, 0x03, 0x61, 0x62, 0x63, 0x10, 0x96, 0x01])
        #expect(fields == [WireFormat.Field(number: 1, value: .len([0x61, 0x62, 0x63][...], message: nil)),
                           WireFormat.Field(number: 2, value: .varint(150))])
    }

    @Test func everyWireTypeIsRead() throws {
        var w = Writer()
        w.key(1, 0); w.varint(UInt64.max)
        w.key(2, 1); w.bytes += [1, 2, 3, 4, 5, 6, 7, 8]
        w.key(3, 5); w.bytes += [9, 10, 11, 12]
        var inner = Writer()
        inner.key(7, 0); inner.varint(1)
        w.len(536_870_911, inner.bytes)
        let fields = try WireFormat.read(w.bytes)
        #expect(fields.map(\.number) == [1, 2, 3, 536_870_911])
        #expect(fields[0].value == .varint(UInt64.max))
        #expect(fields[1].value == .i64([1, 2, 3, 4, 5, 6, 7, 8][...]))
        #expect(fields[2].value == .i32([9, 10, 11, 12][...]))
        #expect(fields[3].value == .len(inner.bytes[...], message: [WireFormat.Field(number: 7, value: .varint(1))]))
    }

    @Test(arguments: [
        ([0x0A, 0x05, 0x61], "truncated"), ([0x09, 1, 2, 3], "truncated"), ([0x0D, 1, 2], "truncated"), ([0x08], "truncated"),
        ([0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], "varint-too-long"),
        ([0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], "varint-too-long"),
        ([0x00, 0x01], "field-number-zero"), ([0xF8, 0xFF, 0xFF, 0xFF, 0x1F, 0x00], "field-number-too-large"),
        ([0x0B], "group-wire-type"), ([0x0C], "group-wire-type"), ([0x0E], "unknown-wire-type"), ([0x0F], "unknown-wire-type"),
    ] as [([UInt8], String)])
    func brokenStructureIsRefusedByName(bytes: [UInt8], code: String) {
        do {
            let fields = try WireFormat.read(bytes)
            Issue.record("read \(fields)")
        } catch {
            #expect(error.code.rawValue == code)
        }
    }

    @Test func nestingStopsAtTheDepthLimitAndStaysBytes() throws {
        var payload = Writer()
        payload.key(1, 0); payload.varint(1)
        var current = payload.bytes
        for _ in 0..<40 {
            var w = Writer()
            w.len(1, current)
            current = w.bytes
        }
        var depth = 0
        var fields = try WireFormat.read(current)
        while case .len(_, let message?) = fields[0].value {
            depth += 1
            fields = message
        }
        #expect(depth == WireFormat.maxDepth)
    }

    @Test func tooManyFieldsIsRefused() {
        var w = Writer()
        for _ in 0..<4_097 { w.key(1, 0); w.varint(0) }
        #expect(throws: WireFormat.Failure.self) { try WireFormat.read(w.bytes) }
        var ok = Writer()
        for _ in 0..<4_096 { ok.key(1, 0); ok.varint(0) }
        #expect((try? WireFormat.read(ok.bytes))?.count == 4_096)
    }

    /// A nested reading is only a possible one: over the limit it stops, and the value stays bytes.
    @Test func aNestedReadingStopsAtTheFieldLimit() throws {
        var inner = Writer()
        for _ in 0..<4_096 { inner.key(1, 0); inner.varint(150) }
        var w = Writer()
        w.len(1, inner.bytes)
        let fields = try WireFormat.read(w.bytes)
        #expect(fields.count == 1)
        guard case .len(let bytes, let message) = fields[0].value else { Issue.record("not a length-delimited field"); return }
        #expect(bytes.count == inner.bytes.count && message == nil)
    }

    /// Random messages written by the test writer read back as written.
    @Test func writtenMessagesReadBack() throws {
        var rng = SeededGenerator(seed: 99)
        for _ in 0..<500 {
            var w = Writer()
            var expected: [WireFormat.Field] = []
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let number = UInt64.random(in: 1...1000, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    let v = UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0...63, using: &rng)
                    w.key(number, 0); w.varint(v)
                    expected.append(.init(number: UInt32(number), value: .varint(v)))
                case 1:
                    let b = (0..<8).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    w.key(number, 1); w.bytes += b
                    expected.append(.init(number: UInt32(number), value: .i64(b[...])))
                default:
                    let text = Array("text \(number)".utf8)
                    w.len(number, text)
                    expected.append(.init(number: UInt32(number), value: .len(text[...], message: try? WireFormat.read(text))))
                }
            }
            #expect(try WireFormat.read(w.bytes) == expected)
        }
    }
}
