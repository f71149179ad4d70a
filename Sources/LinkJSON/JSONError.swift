#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a JSON text could not be read, and where.
///
/// `offset` counts bytes from the start of the text; `line` and `column` are 1-based
/// (columns count bytes), so editors can jump to the spot.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a stable code.
    public enum Code: String, Sendable, CaseIterable {
        case unexpectedEnd = "unexpected-end"
        case unexpectedCharacter = "unexpected-character"
        case invalidNumber = "invalid-number"
        case invalidEscape = "invalid-escape"
        case invalidUTF8 = "invalid-utf8"
        case controlCharacterInString = "control-character-in-string"
        case duplicateKey = "duplicate-key"
        case tooDeep = "too-deep"
        case trailingContent = "trailing-content"
    }

    public var code: Code
    public var message: String
    public var offset: Int
    public var line: Int
    public var column: Int

    public var description: String { "\(line):\(column): \(message)" }
}

/// Positions of the values of a parsed document, addressed by JSON Pointer (RFC 6901).
///
/// ```swift
/// let doc = try JSONDocument(parsing: Array(#"{"a": [1, 2]}"#.utf8))
/// doc.location(of: "/a/1")   // line 1, column 11
/// ```
public struct JSONLocations: Sendable {
    var offsets: [String: Int] = [:]
    var lineStarts: [Int] = [0]

    /// No positions (for values that were not parsed from text).
    public init() {}

    /// The 1-based line and column where the value at `pointer` starts.
    public func location(of pointer: String) -> (line: Int, column: Int)? {
        offsets[pointer].map(lineAndColumn(ofOffset:))
    }

    /// The location of the value at `pointer`, or of the nearest enclosing value that has one.
    public func nearestLocation(of pointer: String) -> (line: Int, column: Int) {
        var path = pointer
        while true {
            if let found = location(of: path) { return found }
            guard let slash = path.lastIndex(of: "/") else { return (1, 1) }
            path = String(path[..<slash])
        }
    }

    func lineAndColumn(ofOffset offset: Int) -> (line: Int, column: Int) {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return (low + 1, offset - lineStarts[low] + 1)
    }
}

/// Escapes one reference token of a JSON Pointer (`~` becomes `~0`, `/` becomes `~1`).
/// Works on Unicode scalars, so a `/` followed by a combining mark is still escaped.
public func jsonPointerToken(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
    var out = String.UnicodeScalarView()
    for scalar in token.unicodeScalars {
        switch scalar {
        case "~": out.append(contentsOf: "~0".unicodeScalars)
        case "/": out.append(contentsOf: "~1".unicodeScalars)
        default: out.append(scalar)
        }
    }
    return String(out)
}

/// Whether two strings have the same UTF-8 code units. JSON names and strings are compared this
/// way (RFC 8259 section 8.3), not with Swift's canonical equivalence, under which "\u{E9}" and
/// "e\u{301}" are equal.
@inline(__always)
func sameCodeUnits(_ a: String, _ b: String) -> Bool {
    // Code-unit equality is byte equality: lengths first (O(1) for native strings), then the
    // bytes directly when both are contiguous (native and small strings are).
    guard a.utf8.count == b.utf8.count else { return false }
    if a.utf8.isEmpty { return true }
    if let same = a.utf8.withContiguousStorageIfAvailable({ x in
        b.utf8.withContiguousStorageIfAvailable { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
    }), let same { return same }
    return a.utf8.elementsEqual(b.utf8)
}
