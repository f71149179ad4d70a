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
    /// Each value's last pointer token (`/` and the escaped name or index), one after the other
    /// (``Entry/tokenEnd`` marks where each ends). A value's pointer is its parent's followed by
    /// its token, so what is kept grows with the text, not with its depth times its values.
    var tokens: [UInt8] = []
    /// One per value, in the order the parse met them (a container before its members).
    var entries: [Entry] = []
    /// An open-addressing table of indices into ``entries`` by pointer hash (-1: empty), built
    /// when the parse ends; its count is a power of two.
    var table: [Int] = []
    var lineStarts: [Int] = [0]

    struct Entry: Sendable {
        /// The entry of the enclosing value (-1 for the root).
        var parent: Int
        /// Where the token ends in ``JSONLocations/tokens`` (it starts where the previous
        /// entry's ends).
        var tokenEnd: Int
        /// The length of the whole pointer, in bytes.
        var length: Int
        /// The byte offset of the value in the text.
        var offset: Int
        /// The whole pointer's bytes hashed by ``JSONLocations/hash(_:)``.
        var hash: Int
    }

    /// No positions (for values that were not parsed from text).
    public init() {}

    /// The 1-based line and column where the value at `pointer` starts.
    public func location(of pointer: String) -> (line: Int, column: Int)? {
        offset(of: pointer).map(lineAndColumn(ofOffset:))
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

    /// The offset of the value at `pointer` (compared by UTF-8 code units); for a pointer met
    /// twice (a repeated member name), the later value's.
    func offset(of pointer: String) -> Int? {
        guard !table.isEmpty else { return nil }
        var key = pointer
        return key.withUTF8 { bytes in
            let hash = Self.hash(Hasher(), bytes)
            var slot = Int(truncatingIfNeeded: hash) & (table.count - 1)
            while table[slot] >= 0 {
                let index = table[slot]
                if entries[index].hash == hash, same(index, bytes) { return entries[index].offset }
                slot = (slot + 1) & (table.count - 1)
            }
            return nil
        }
    }

    /// Whether entry `index`'s pointer is `bytes`: its tokens compared from the last one back.
    func same(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard entries[index].length == bytes.count else { return false }
        return tokens.withUnsafeBufferPointer { all in
            var entry = index, end = bytes.count
            while entry >= 0 {
                let start = entry == 0 ? 0 : entries[entry - 1].tokenEnd, count = entries[entry].tokenEnd - start
                end -= count
                if count > 0, memcmp(all.baseAddress! + start, bytes.baseAddress! + end, count) != 0 { return false }
                entry = entries[entry].parent
            }
            return end == 0
        }
    }

    /// Room for the values of a text of `count` bytes, as JSON files usually hold them (a value
    /// per 16 bytes or so; the tokens are at most twice the text's names and indices).
    mutating func reserve(forTextOf count: Int) {
        entries.reserveCapacity(min(count / 16, 1 << 16))
        tokens.reserveCapacity(min(count, 1 << 20))
    }

    /// Notes a value at `offset` whose pointer is its `parent`'s followed by `token`, and
    /// whose whole pointer hashes to `hash`. Returns its entry.
    mutating func record(parent: Int, token: UnsafeBufferPointer<UInt8>, hash: Int, offset: Int) -> Int {
        tokens.append(contentsOf: token)
        let length = (parent >= 0 ? entries[parent].length : 0) + token.count
        entries.append(Entry(parent: parent, tokenEnd: tokens.count, length: length, offset: offset, hash: hash))
        return entries.count - 1
    }

    /// Builds the table once every value is recorded; a pointer met again replaces the earlier one.
    mutating func finish() {
        guard !entries.isEmpty else { return }
        var size = 16
        while size < entries.count * 2 { size *= 2 }
        var table = [Int](repeating: -1, count: size)
        var pointer: [UInt8] = []
        for index in entries.indices {
            var slot = Int(truncatingIfNeeded: entries[index].hash) & (size - 1)
            while table[slot] >= 0 {
                let other = table[slot]
                if entries[other].hash == entries[index].hash, entries[other].length == entries[index].length {
                    // Rare (a repeated name, or a hash collision): compare the whole pointers.
                    pointer = self.pointer(of: index)
                    if pointer.withUnsafeBufferPointer({ same(other, $0) }) { break }
                }
                slot = (slot + 1) & (size - 1)
            }
            table[slot] = index
        }
        self.table = table
    }

    /// Entry `index`'s whole pointer.
    func pointer(of index: Int) -> [UInt8] {
        var parts: [ArraySlice<UInt8>] = []
        var entry = index
        while entry >= 0 {
            parts.append(tokens[(entry == 0 ? 0 : entries[entry - 1].tokenEnd)..<entries[entry].tokenEnd])
            entry = entries[entry].parent
        }
        return Array(parts.reversed().joined())
    }

    /// Pointers are hashed with the standard library's `Hasher` (SipHash, seeded afresh in each
    /// process), fed token by token: a file cannot be made of pointers that all land in one
    /// slot, as it could with a fixed hash such as FNV. Feeding bytes in pieces hashes as
    /// feeding them at once (`everyGeneratedValueIsLocatedAtItsOwnFirstByte` would fail if not).
    /// Every `Hasher()` of a process starts from the same seed.
    ///
    /// The hash of a pointer whose bytes so far went into `hasher`, followed by `bytes`.
    @inline(__always)
    static func hash(_ hasher: Hasher, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var h = hasher
        h.combine(bytes: UnsafeRawBufferPointer(bytes))
        return h.finalize()
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
/// Works on bytes, so a `/` followed by a combining mark is still escaped (`~` and `/` are
/// never part of a longer UTF-8 sequence).
public func jsonPointerToken(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
    var out: [UInt8] = []
    appendPointerToken(token, to: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Appends `token` escaped as ``jsonPointerToken(_:)`` does, without making a string (the
/// parser's positions, once per member read).
func appendPointerToken(_ token: String, to out: inout [UInt8]) {
    var token = token
    token.withUTF8 { bytes in
        guard bytes.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return out.append(contentsOf: bytes)
        }
        for b in bytes {
            switch b {
            case UInt8(ascii: "~"): out.append(UInt8(ascii: "~")); out.append(UInt8(ascii: "0"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "~")); out.append(UInt8(ascii: "1"))
            default: out.append(b)
            }
        }
    }
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
