import SeededRandom
import LinkJSON


/// The error a parse throws, or nil when it succeeds.
func parseError(_ text: String, options: JSONParser.Options = .init()) -> JSONError? {
    parseError(Array(text.utf8), options: options)
}

func parseError(_ bytes: [UInt8], options: JSONParser.Options = .init()) -> JSONError? {
    do {
        _ = try JSONParser.parse(bytes, options: options)
        return nil
    } catch {
        return error
    }
}

/// Code, offset, line and column of an error, for comparing them at once.
struct Place: Equatable, CustomStringConvertible {
    var code: JSONError.Code
    var offset: Int
    var line: Int
    var column: Int

    init(_ code: JSONError.Code, offset: Int, line: Int, column: Int) {
        self.code = code
        self.offset = offset
        self.line = line
        self.column = column
    }

    init(_ error: JSONError) {
        self.init(error.code, offset: error.offset, line: error.line, column: error.column)
    }

    var description: String { "\(code.rawValue)@\(offset) (\(line):\(column))" }
}

func place(_ text: String, options: JSONParser.Options = .init()) -> Place? {
    parseError(text, options: options).map(Place.init)
}

func place(_ bytes: [UInt8], options: JSONParser.Options = .init()) -> Place? {
    parseError(bytes, options: options).map(Place.init)
}

/// Random JSON values for round-trip properties.
struct JSONGenerator {
    var rng: SeededGenerator

    /// Scalars chosen to stress escaping: controls, quotes, backslashes, slashes, DEL, non-ASCII,
    /// characters outside the BMP, U+2028/U+2029 and the BOM.
    static let specialScalars: [Unicode.Scalar] = (0x00...0x1F).map { Unicode.Scalar($0)! }
        + ["\"", "\\", "/", "\u{7F}", "é", "€", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFF}", "😀", "\u{10FFFF}", "~", " "]

    mutating func string() -> String {
        var s = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: s.append(Self.specialScalars.randomElement(using: &rng)!)
            case 1: s.append(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng)))
            default:
                var v = UInt32.random(in: 0x80...0x10FFFF, using: &rng)
                if (0xD800...0xDFFF).contains(v) { v = 0xFFFD }
                s.append(Unicode.Scalar(v)!)
            }
        }
        return String(s)
    }

    mutating func number() -> Double {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return Double(Int.random(in: -1_000...1_000, using: &rng))
        case 1: return Double(Int.random(in: -(1 << 53)...(1 << 53), using: &rng))
        case 2: return Double.random(in: -1e6...1e6, using: &rng)
        case 3:
            // Any finite double, from its bits: tiny, huge and subnormal values included.
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite && d != 0 { return d }
            }
        default: return [0, 1e300, -1e300, 5e-324, 1e15, 1e15 - 1, 9_007_199_254_740_993, 0.1, 1.5e-7, 123.456]
            .randomElement(using: &rng)!
        }
    }

    mutating func value(depth: Int = 0) -> JSONValue {
        let leaf = depth >= 4 || Int.random(in: 0..<3, using: &rng) > 0
        if leaf {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .number(number())
            default: return .string(string())
            }
        }
        if Bool.random(using: &rng) {
            return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in value(depth: depth + 1) })
        }
        var object = JSONObject()
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            let key = string()
            if object[key] == nil { object.append(key, value(depth: depth + 1)) }
        }
        return .object(object)
    }
}

/// Whether `text` is a number per RFC 8259 section 6:
/// `[ minus ] int [ frac ] [ exp ]`, `int = zero / ( digit1-9 *DIGIT )`.
func isJSONNumber(_ text: String) -> Bool {
    let b = Array(text.utf8)
    var k = 0
    func digit(_ i: Int) -> Bool { i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
    if k < b.count, b[k] == UInt8(ascii: "-") { k += 1 }
    guard digit(k) else { return false }
    if b[k] == UInt8(ascii: "0") { k += 1 } else { while digit(k) { k += 1 } }
    if k < b.count, b[k] == UInt8(ascii: ".") {
        k += 1
        guard digit(k) else { return false }
        while digit(k) { k += 1 }
    }
    if k < b.count, b[k] == UInt8(ascii: "e") || b[k] == UInt8(ascii: "E") {
        k += 1
        if k < b.count, b[k] == UInt8(ascii: "+") || b[k] == UInt8(ascii: "-") { k += 1 }
        guard digit(k) else { return false }
        while digit(k) { k += 1 }
    }
    return k == b.count
}

/// Deep equality that is stricter than `==`: strings compare scalar by scalar (not by canonical
/// equivalence), numbers by bit pattern (except that -0 and 0 are taken as the same), and
/// object members in order.
func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case let (.bool(x), .bool(y)): return x == y
    case let (.number(x), .number(y)): return x == 0 ? y == 0 : x.bitPattern == y.bitPattern
    case let (.string(x), .string(y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
    case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
    case let (.object(x), .object(y)):
        return x.count == y.count && zip(x.members, y.members).allSatisfy {
            $0.key.unicodeScalars.elementsEqual($1.key.unicodeScalars) && identical($0.value, $1.value)
        }
    default: return false
    }
}
