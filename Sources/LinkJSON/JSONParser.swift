#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads JSON text (RFC 8259) into ``JSONValue``s, with limits and, on request, value positions.
///
/// Strict by design: no comments, no trailing commas, no `NaN`, UTF-8 only, and duplicate keys
/// are an error unless allowed (parsers disagree on which duplicate wins).
///
/// ```swift
/// let value = try JSONParser.parse(Array(#"{"seq": 1}"#.utf8))
/// value["seq"]?.intValue   // 1
/// ```
public enum JSONParser {
    /// Limits and switches for one parse.
    public struct Options: Sendable {
        /// Deepest nesting of arrays and objects accepted.
        public var maxDepth: Int = 256
        /// Whether an object may repeat a key (the last one wins).
        public var allowDuplicateKeys: Bool = false
        public init(maxDepth: Int = 256, allowDuplicateKeys: Bool = false) {
            self.maxDepth = maxDepth
            self.allowDuplicateKeys = allowDuplicateKeys
        }
    }

    /// Parses one JSON text.
    public static func parse(_ bytes: [UInt8], options: Options = Options()) throws(JSONError) -> JSONValue {
        try parse(bytes[...], options: options)
    }

    /// Parses one JSON text that is part of a larger buffer (a line of a stream), without
    /// copying it out first.
    public static func parse(_ bytes: ArraySlice<UInt8>, options: Options = Options()) throws(JSONError) -> JSONValue {
        var locations: JSONLocations? = nil
        return try run(bytes, options: options, locations: &locations)
    }

    /// Parses one JSON text given as a string.
    public static func parse(_ text: String, options: Options = Options()) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), options: options)
    }

    static func run(_ bytes: ArraySlice<UInt8>, options: Options, locations: inout JSONLocations?) throws(JSONError) -> JSONValue {
        let recording = locations != nil
        let result: Result<(JSONValue, JSONLocations), JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer, options: options, recording: recording)
            do throws(JSONError) {
                let value = try reader.parseDocument()
                return .success((value, reader.locations))
            } catch {
                return .failure(error)
            }
        }
        let (value, found) = try result.get()
        if recording { locations = found }
        return value
    }
}

/// A parsed JSON text together with the positions of its values.
public struct JSONDocument: Sendable {
    public let value: JSONValue
    public let locations: JSONLocations

    public init(parsing bytes: [UInt8], options: JSONParser.Options = .init()) throws(JSONError) {
        var locations: JSONLocations? = JSONLocations()
        value = try JSONParser.run(bytes[...], options: options, locations: &locations)
        self.locations = locations ?? JSONLocations()
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let options: JSONParser.Options
    let recording: Bool
    var index = 0
    var depth = 0
    /// The JSON Pointer of the value being read, as UTF-8 (its tokens escaped once, when
    /// entered), its hash, and where each enclosing value's pointer ends in it and its hash.
    var pointer: [UInt8] = []
    var pointerHasher = Hasher()
    /// The current pointer's hash (set in `init` only when recording: a plain parse never
    /// hashes anything).
    var pointerHash = 0
    var pointerEnds: [(end: Int, hasher: Hasher, hash: Int)] = []
    /// The entries of the containers being read, innermost last, and the entry last recorded.
    var parents: [Int] = []
    var lastEntry = -1
    var locations = JSONLocations()
    var lineStarts: [Int] = [0]

    init(bytes: UnsafeBufferPointer<UInt8>, options: JSONParser.Options, recording: Bool) {
        self.bytes = bytes
        self.options = options
        self.recording = recording
        if recording {
            locations.reserve(forTextOf: bytes.count)
            pointerHash = JSONLocations.hash(pointerHasher, UnsafeBufferPointer(start: nil, count: 0))
        }
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        // A UTF-8 byte order mark is tolerated at the very start.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error(.trailingContent, "unexpected content after the JSON value")
        }
        if recording {
            // Finish the line table for positions after the last newline seen.
            locations.lineStarts = lineStarts
            locations.finish()
        }
        return value
    }

    func error(_ code: JSONError.Code, _ message: String, at offset: Int? = nil) -> JSONError {
        let at = min(offset ?? index, bytes.count)
        // Compute line and column by scanning: errors are rare, so this stays off the fast path.
        var line = 1, lineStart = 0
        var i = 0
        while i < at {
            if bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
            i += 1
        }
        return JSONError(code: code, message: message, offset: at, line: line, column: at - lineStart + 1)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                if recording { lineStarts.append(index) }
            default: return
            }
        }
    }

    /// Notes where the value about to be read starts; its entry is the parent of the members
    /// or elements it holds (``parents``).
    mutating func record() {
        guard recording else { return }
        let tokenStart = pointerEnds.last?.end ?? 0
        lastEntry = pointer.withUnsafeBufferPointer {
            locations.record(parent: parents.last ?? -1, token: UnsafeBufferPointer(rebasing: $0[tokenStart...]), hash: pointerHash, offset: index)
        }
    }

    /// Steps into the member `key` (unescaped).
    mutating func enterPointer(_ key: String) {
        let start = pointer.count
        pointerEnds.append((start, pointerHasher, pointerHash))
        pointer.append(UInt8(ascii: "/"))
        appendPointerToken(key, to: &pointer)
        extendHash(from: start)
    }

    /// Steps into the element at `index`, written in decimal without making a string.
    mutating func enterPointer(element index: Int) {
        let start = pointer.count
        pointerEnds.append((start, pointerHasher, pointerHash))
        pointer.append(UInt8(ascii: "/"))
        let digits = pointer.count
        var n = index
        repeat {
            pointer.append(UInt8(ascii: "0") + UInt8(n % 10))
            n /= 10
        } while n > 0
        pointer[digits...].reverse()
        extendHash(from: start)
    }

    /// Feeds the token entered (from `start`) to the hasher, and finishes a copy for its hash.
    mutating func extendHash(from start: Int) {
        pointer.withUnsafeBufferPointer { all in
            pointerHasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[start...])))
        }
        let finished = pointerHasher
        pointerHash = finished.finalize()
    }

    mutating func leavePointer() {
        let (end, hasher, hash) = pointerEnds.removeLast()
        pointer.removeSubrange(end...)
        pointerHasher = hasher
        pointerHash = hash
    }

    mutating func parseValue() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw error(.unexpectedEnd, "unexpected end of input, expected a value") }
        record()
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            throw error(.unexpectedCharacter, "unexpected character \(describe(bytes[index])), expected a value")
        }
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    mutating func literal(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error(.unexpectedEnd, "unexpected end of input in a literal") }
        let start = word.utf8Start
        for k in 0..<count where bytes[index + k] != start[k] {
            throw error(.unexpectedCharacter, "invalid literal, expected '\(word)'")
        }
        index += count
    }

    /// Leaves an object or array read to its end.
    mutating func leave() {
        depth -= 1
        if recording { parents.removeLast() }
    }

    mutating func enter() throws(JSONError) {
        depth += 1
        if depth > options.maxDepth {
            throw error(.tooDeep, "nesting deeper than \(options.maxDepth) levels")
        }
    }

    /// Up to this many members, a new key is compared with each earlier one; past it, they
    /// are found in a dictionary.
    static let membersSearchedInOrder = 16

    mutating func parseObject() throws(JSONError) -> JSONValue {
        try enter()
        if recording { parents.append(lastEntry) }   // taken off in leave(); a thrown error ends the parse
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            leave()
            return .object(object)
        }
        // Where each key is, once the object is too large to search member by member: a file
        // of 40,000 keys in one object took minutes, each key compared with all before it.
        // Keyed by UTF-8 code units, as JSON compares names (a `String` key would merge
        // canonically equivalent names).
        var positions: [[UInt8]: Int] = [:]
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, "unexpected end of input in an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error(.unexpectedCharacter, "expected a member name in double quotes, found \(describe(bytes[index]))")
            }
            let keyOffset = index
            let key = try parseString()
            var earlier: Int?
            if object.count < Self.membersSearchedInOrder {
                earlier = object.firstIndex { sameCodeUnits($0.key, key) }
            } else {
                if positions.isEmpty {
                    for (i, member) in object.enumerated() { positions[Array(member.key.utf8)] = i }
                }
                earlier = positions[Array(key.utf8)]
            }
            if !options.allowDuplicateKeys, earlier != nil {
                throw error(.duplicateKey, "duplicate member name \"\(key)\"", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error(index < bytes.count ? .unexpectedCharacter : .unexpectedEnd, "expected ':' after member name \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            if recording { enterPointer(key) }
            let value = try parseValue()
            if recording { leavePointer() }
            if let earlier {
                object.replaceValue(at: earlier, with: value)   // a repeated key, allowed: the last value wins
            } else {
                if !positions.isEmpty { positions[Array(key.utf8)] = object.count }
                object.append(key, value)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, "unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw error(.unexpectedCharacter, "expected ',' or '}' in an object, found \(describe(bytes[index]))")
        }
        leave()
        return .object(object)
    }

    mutating func parseArray() throws(JSONError) -> JSONValue {
        try enter()
        if recording { parents.append(lastEntry) }   // taken off in leave(); a thrown error ends the parse
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            leave()
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if recording { enterPointer(element: elements.count) }
            elements.append(try parseValue())
            if recording { leavePointer() }
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, "unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw error(.unexpectedCharacter, "expected ',' or ']' in an array, found \(describe(bytes[index]))")
        }
        leave()
        return .array(elements)
    }

    mutating func parseNumber() throws(JSONError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error(.invalidNumber, "a number needs digits", at: start)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(.invalidNumber, "a number may not have leading zeros", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "a fraction needs digits after '.'", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "an exponent needs digits", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(.invalidNumber, "number out of range", at: start)
        }
        return value
    }

    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    mutating func parseString() throws(JSONError) -> String {
        let open = index
        index += 1
        let start = index
        // Fast path: no escapes. Plain bytes are skipped eight at a time.
        index = ByteScan.firstSpecial(bytes.baseAddress!, from: index, to: bytes.count, forWriting: false)
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return try validUTF8(slice, at: start)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error(.controlCharacterInString, "control character \(describe(b)) inside a string; escape it") }
            index += 1
        }
        guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated string", at: open) }
        // Slow path: escapes present. The plain runs between them are copied whole (a file
        // sent as a string, as AASA and Asset Links inputs are, has an escape every line).
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return try out.withUnsafeBufferPointer { buf throws(JSONError) in try validUTF8(buf, at: start) }
            }
            if b < 0x20 { throw error(.controlCharacterInString, "control character \(describe(b)) inside a string; escape it") }
            if b != UInt8(ascii: "\\") {
                let run = ByteScan.firstSpecial(bytes.baseAddress!, from: index + 1, to: bytes.count, forWriting: false)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<run]))
                index = run
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error(.invalidEscape, "a high surrogate must be followed by a low surrogate escape")
                    }
                    index += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else {
                        throw error(.invalidEscape, "a high surrogate must be followed by a low surrogate escape")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error(.invalidEscape, "a lone low surrogate escape")
                }
                guard let unicode = Unicode.Scalar(scalar) else {
                    throw error(.invalidEscape, "escape is not a Unicode scalar")
                }
                out.append(contentsOf: UTF8.encode(unicode)!)
            default:
                throw error(.invalidEscape, "invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: index - 2)
            }
        }
        throw error(.unexpectedEnd, "unterminated string", at: open)
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(.unexpectedEnd, "unexpected end in a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: throw error(.invalidEscape, "invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func validUTF8(_ slice: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONError) -> String {
        let string = String(decoding: slice, as: UTF8.self)
        // Decoding repairs invalid sequences with U+FFFD; the text is valid exactly when it
        // re-encodes to the same bytes.
        guard string.utf8.count == slice.count, slice.isEmpty || string.utf8.withContiguousStorageIfAvailable({
            memcmp($0.baseAddress!, slice.baseAddress!, slice.count) == 0
        }) ?? string.utf8.elementsEqual(slice) else {
            throw error(.invalidUTF8, "string is not valid UTF-8", at: offset)
        }
        return string
    }
}
