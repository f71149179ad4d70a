import FuzzSupport
import LinkJSON

/// `LinkJSON` on arbitrary bytes: the reader every tool points at corpora, results and whatever
/// an adapter writes back, so it must take any bytes without crashing and say where they fail.
///
/// What a text that is read must keep: written out again (compact, pretty, sorted) and read back
/// it is the same value; written out twice it is the same bytes; the writer's text holds no raw
/// control character. What every text must keep: an error's offset is inside the text and its
/// line and column are that offset's; reading with positions (`JSONDocument`) reads the same value
/// or fails the same way; the depth limit is exact (a value `d` levels deep is read with
/// `maxDepth: d` and refused with `maxDepth: d - 1`, as `too-deep` at an opening bracket);
/// allowing duplicate keys changes nothing before the first duplicate, and what it reads has no
/// duplicate left.
enum JSONInvariants {
    static func check(_ input: UnsafeBufferPointer<UInt8>, _ p: inout Problems) {
        let bytes = Array(input)
        let strict = read(bytes)
        switch strict {
        case .failure(let error):
            checkError(error, in: bytes, &p)
        case .success(let value):
            checkRoundTrip(value, &p)
            checkDepthLimit(value, bytes, &p)
        }
        checkPositions(bytes, strict, &p)
        checkDuplicateKeys(bytes, strict, &p)
    }

    static func read(_ bytes: [UInt8], _ options: JSONParser.Options = .init()) -> Result<JSONValue, JSONError> {
        Result { () throws(JSONError) in try JSONParser.parse(bytes, options: options) }
    }

    /// The error is inside the text, at the line and column of its offset.
    static func checkError(_ error: JSONError, in bytes: [UInt8], _ p: inout Problems) {
        p.check(error.offset >= 0 && error.offset <= bytes.count, "error offset inside the text", "\(error.code.rawValue) at \(error.offset) of \(bytes.count)")
        guard error.offset >= 0 && error.offset <= bytes.count else { return }
        var line = 1, lineStart = 0
        for i in 0..<error.offset where bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
        p.check(error.line == line && error.column == error.offset - lineStart + 1, "error line and column are the offset's",
                "\(error) at offset \(error.offset), expected \(line):\(error.offset - lineStart + 1)")
        p.check(!error.message.isEmpty, "an error says what is wrong", "\(error.code.rawValue)")
        if error.code == .tooDeep {
            let opening = error.offset < bytes.count && (bytes[error.offset] == UInt8(ascii: "[") || bytes[error.offset] == UInt8(ascii: "{"))
            p.check(opening, "too-deep points at an opening bracket", "\(error)")
        }
    }

    /// Compact text read back is the same value, and writes the same bytes; pretty and sorted
    /// text read back are the same value too.
    static func checkRoundTrip(_ value: JSONValue, _ p: inout Problems) {
        let compact = value.serialized()
        p.check(!compact.utf8.contains { $0 < 0x20 }, "written text holds no raw control character", compact)
        guard case .success(let again) = read(Array(compact.utf8)) else {
            p.check(false, "written text reads back", compact)
            return
        }
        p.check(again == value, "written text reads back as the same value", compact)
        p.check(again.serialized() == compact, "writing the value read back gives the same bytes", compact)
        let pretty = value.serialized(pretty: true)
        if case .success(let fromPretty) = read(Array(pretty.utf8)) {
            // Same compact bytes: the same members in the same order, not only an equal value.
            p.check(fromPretty.serialized() == compact, "pretty text reads back as the same value", pretty)
        } else {
            p.check(false, "pretty text reads back", pretty)
        }
        let sorted = value.serialized(sortKeys: true)
        if case .success(let fromSorted) = read(Array(sorted.utf8)) {
            p.check(fromSorted == value, "sorted text reads back as an equal value", sorted)
        } else {
            p.check(false, "sorted text reads back", sorted)
        }
    }

    /// Arrays and objects nested in each other, counting the outermost.
    static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): 1 + elements.reduce(0) { max($0, depth($1)) }
        case .object(let object): 1 + object.reduce(0) { max($0, depth($1.value)) }
        default: 0
        }
    }

    /// The depth limit is exact: the value's own depth is accepted, one less refused.
    static func checkDepthLimit(_ value: JSONValue, _ bytes: [UInt8], _ p: inout Problems) {
        let levels = depth(value)
        let limit = JSONParser.Options().maxDepth
        p.check(levels <= limit, "a value read is no deeper than maxDepth", "\(levels) levels")
        guard levels > 0 else { return }
        guard case .success(let atLimit) = read(bytes, .init(maxDepth: levels)) else {
            p.check(false, "a value d levels deep is read with maxDepth d", "\(levels) levels")
            return
        }
        p.check(atLimit == value, "the depth limit does not change the value", "\(levels) levels")
        if case .failure(let error) = read(bytes, .init(maxDepth: levels - 1)) {
            p.check(error.code == .tooDeep, "a value d levels deep is refused as too-deep with maxDepth d - 1", "\(error)")
        } else {
            p.check(false, "a value d levels deep is refused with maxDepth d - 1", "\(levels) levels")
        }
    }

    /// Reading with positions reads the same value, or fails with the same error; every value
    /// has a position of its own, at its first byte (`{`, `[`, `"`, `t`, `f`, `n`, `-` or a
    /// digit, as its kind says).
    static func checkPositions(_ bytes: [UInt8], _ strict: Result<JSONValue, JSONError>, _ p: inout Problems) {
        let document = Result { () throws(JSONError) in try JSONDocument(parsing: bytes) }
        switch (strict, document) {
        case (.success(let value), .success(let located)):
            p.check(located.value == value, "reading with positions reads the same value")
            p.check(located.locations.location(of: "") != nil, "the root value has a position")
            var lineStarts = [0]
            for (i, b) in bytes.enumerated() where b == 0x0A { lineStarts.append(i + 1) }
            var seen: Set<Int> = []
            func walk(_ value: JSONValue, _ pointer: String) {
                guard let (line, column) = located.locations.location(of: pointer), line <= lineStarts.count else {
                    return p.check(false, "every value has a position", pointer)
                }
                let offset = lineStarts[line - 1] + column - 1
                p.check(seen.insert(offset).inserted, "no two values share a position", pointer)
                guard offset < bytes.count else { return p.check(false, "a position is inside the text", pointer) }
                let first = bytes[offset]
                switch value {
                case .object(let object):
                    p.check(first == UInt8(ascii: "{"), "an object's position is its '{'", pointer)
                    for member in object { walk(member.value, pointer + "/" + jsonPointerToken(member.key)) }
                case .array(let elements):
                    p.check(first == UInt8(ascii: "["), "an array's position is its '['", pointer)
                    for (i, element) in elements.enumerated() { walk(element, pointer + "/\(i)") }
                case .string: p.check(first == UInt8(ascii: "\""), "a string's position is its '\"'", pointer)
                case .bool(let b): p.check(first == UInt8(ascii: b ? "t" : "f"), "a boolean's position is its first letter", pointer)
                case .null: p.check(first == UInt8(ascii: "n"), "null's position is its 'n'", pointer)
                case .number: p.check(first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39), "a number's position is its sign or first digit", pointer)
                }
            }
            walk(value, "")
        case (.failure(let error), .failure(let located)):
            p.check(error == located, "reading with positions fails the same way", "\(error) / \(located)")
        default:
            p.check(false, "reading with positions succeeds exactly when reading does")
        }
    }

    /// With duplicates allowed the reader is the same up to the first duplicate key, and the
    /// value it reads has none left (the last one won in place).
    static func checkDuplicateKeys(_ bytes: [UInt8], _ strict: Result<JSONValue, JSONError>, _ p: inout Problems) {
        let lenient = read(bytes, .init(allowDuplicateKeys: true))
        switch (strict, lenient) {
        case (.success(let value), .success(let merged)):
            p.check(merged.serialized() == value.serialized(), "without duplicates, allowing them changes nothing")
        case (.success, .failure(let error)):
            p.check(false, "allowing duplicates refuses nothing the strict reader reads", "\(error)")
        case (.failure(let error), .failure(let other)) where error.code != .duplicateKey:
            p.check(error == other, "allowing duplicates fails the same way before the first duplicate", "\(error) / \(other)")
        case (.failure(let error), .failure(let other)):
            p.check(other.offset > error.offset && other.code != .duplicateKey, "allowing duplicates reads past the first duplicate", "\(error) / \(other)")
        case (.failure(let error), .success(let merged)):
            p.check(error.code == .duplicateKey, "allowing duplicates reads only what duplicates stopped", "\(error)")
            if case .failure(let again) = read(Array(merged.serialized().utf8)) {
                p.check(false, "a value read with duplicates allowed has none left", "\(again)")
            }
        }
    }
}

extension FuzzTarget {
    /// `LinkJSON` (`JSONParser`, `JSONDocument`, `JSONSerializer`) on arbitrary bytes.
    public static let json = FuzzTarget(name: "json", check: JSONInvariants.check)
}
