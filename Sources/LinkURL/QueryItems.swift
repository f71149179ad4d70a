/// One `name=value` item of a query: raw ranges into the URL's bytes.
public struct QueryItem: Sendable, Hashable {
    // Packed (32-bit offsets): items are stored per URL, often many.
    @usableFromInline let start: Int32
    @usableFromInline let equals: Int32
    @usableFromInline let end: Int32

    @inlinable
    init(start: Int, equals: Int, end: Int) {
        self.start = Int32(truncatingIfNeeded: start)
        self.equals = Int32(truncatingIfNeeded: equals)
        self.end = Int32(truncatingIfNeeded: end)
    }

    /// The raw name (before the first `=`).
    @inlinable
    public var name: Range<Int> { Int(start)..<Int(equals >= 0 ? equals : end) }
    /// The raw value (after the first `=`), or nil when the item has no `=`.
    public var value: Range<Int>? { equals >= 0 ? Int(equals) + 1..<Int(end) : nil }

    /// The whole item, name through value.
    @inlinable
    public var range: Range<Int> { Int(start)..<Int(end) }

    /// Whether the name, percent-decoded (RFC 3986, `+` kept), equals `target` exactly.
    /// Compares without allocating.
    @inlinable
    public func name(in bytes: UnsafeBufferPointer<UInt8>, equals target: StaticString) -> Bool {
        let want = UnsafeBufferPointer(start: target.utf8Start, count: target.utf8CodeUnitCount)
        let end = Int(equals >= 0 ? equals : self.end)
        var k = Int(start)
        // Decoding only shortens: a raw name shorter than the target cannot match, and one of
        // the same length matches only as written (a valid escape in it would shorten it), so
        // it differs where its bytes do. Up to a '%' in the target, the bytes decide; from one
        // on, the loop below does (the name's escape there may be valid).
        if end - k < want.count { return false }
        if end - k == want.count {
            var t = 0
            while t < want.count, want[t] != UInt8(ascii: "%"), bytes[k &+ t] == want[t] { t &+= 1 }
            if t == want.count { return true }
            if want[t] != UInt8(ascii: "%") { return false }
        }
        var t = 0
        while k < end {
            var c = bytes[k]
            if c == UInt8(ascii: "%"), k + 2 < end,
               let h = ByteClass.hexValue(bytes[k + 1]), let l = ByteClass.hexValue(bytes[k + 2]) {
                c = h << 4 | l
                k += 3
            } else {
                k += 1
            }
            guard t < want.count, want[t] == c else { return false }
            t += 1
        }
        return t == want.count
    }
}

/// A query split on `&`, then each item on its first `=`, as RFC 3986 readers such as
/// Foundation's `URLComponents` do. `;` is not a separator. Empty items (`a=1&&b=2`) are kept,
/// so that nothing in the query goes unseen; callers skip them when they wish.
///
/// Names and values are available raw or percent-decoded; decoding is per octet and does not
/// turn `+` into a space unless asked (`plusAsSpace`), which is the form-style reading.
///
/// ```swift
/// let items = LinkURL(parsing: "https://a.example/?x=1&ulc-success=https%3A%2F%2Fb").queryItems
/// items.count                              // 2
/// items.first(named: "ulc-success").map { items.decodedValue($0) }   // "https://b"
/// ```
public struct QueryItems: Sendable, RandomAccessCollection {
    /// The URL's bytes, which the item ranges index.
    public let bytes: [UInt8]
    public let items: [QueryItem]

    init(bytes: [UInt8], query: Range<Int>?) {
        self.bytes = bytes
        guard let query else { items = []; return }
        items = bytes.withUnsafeBufferPointer { b in
            var found: [QueryItem] = []
            var start = query.lowerBound
            var equals = -1
            var k = query.lowerBound
            while k < query.upperBound {
                let c = b[k]
                if c == UInt8(ascii: "&") {
                    found.append(QueryItem(start: start, equals: equals, end: k))
                    start = k + 1
                    equals = -1
                } else if c == UInt8(ascii: "="), equals < 0 {
                    equals = k
                }
                k += 1
            }
            found.append(QueryItem(start: start, equals: equals, end: query.upperBound))
            return found
        }
    }

    public var startIndex: Int { items.startIndex }
    public var endIndex: Int { items.endIndex }
    public subscript(position: Int) -> QueryItem { items[position] }

    /// The raw text of an item's name.
    public func rawName(_ item: QueryItem) -> String {
        String(decoding: bytes[item.name], as: UTF8.self)
    }

    /// The raw text of an item's value, or nil when it has no `=`.
    public func rawValue(_ item: QueryItem) -> String? {
        item.value.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The percent-decoded name (invalid UTF-8 is repaired with U+FFFD).
    public func decodedName(_ item: QueryItem, plusAsSpace: Bool = false) -> String {
        String(decoding: PercentCodec.decode(bytes[item.name], plusAsSpace: plusAsSpace), as: UTF8.self)
    }

    /// The percent-decoded value; nil when there is no `=` or the octets are not valid UTF-8.
    public func decodedValue(_ item: QueryItem, plusAsSpace: Bool = false) -> String? {
        item.value.flatMap { PercentCodec.decodeString(bytes[$0], plusAsSpace: plusAsSpace) }
    }

    /// Whether the item's name, percent-decoded (RFC 3986, `+` kept), equals `name` exactly.
    /// Compares without allocating.
    public func nameEquals(_ item: QueryItem, _ name: StaticString) -> Bool {
        bytes.withUnsafeBufferPointer { item.name(in: $0, equals: name) }
    }

    /// The first item whose decoded name is `name`.
    public func first(named name: StaticString) -> QueryItem? {
        items.first { nameEquals($0, name) }
    }

    /// Every item whose decoded name is `name`, in order.
    public func all(named name: StaticString) -> [QueryItem] {
        items.filter { nameEquals($0, name) }
    }
}
