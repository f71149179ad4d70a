/// The members of a JSON object, in order.
///
/// Lookup is linear: the objects this project handles have a handful of members, and keeping
/// them in an array preserves order and makes building cheap. Equality ignores member order;
/// keys are compared by UTF-8 code units (RFC 8259 section 8.3).
///
/// ```swift
/// var object = JSONObject()
/// object["kind"] = "ulc"
/// object["kind"]        // .string("ulc")
/// ```
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
    /// One member: a key and its value.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }

        public static func == (a: Member, b: Member) -> Bool {
            sameCodeUnits(a.key, b.key) && a.value == b.value
        }

        public func hash(into hasher: inout Hasher) {
            for b in key.utf8 { hasher.combine(b) }
            hasher.combine(value)
        }
    }

    public private(set) var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// An empty object with room for `capacity` members.
    public init(capacity: Int) {
        members = []
        members.reserveCapacity(capacity)
    }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Member { members[position] }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The value of the first member named `key`; setting replaces it or appends a member,
    /// and setting `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where sameCodeUnits(member.key, key) { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { sameCodeUnits($0.key, key) }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Replaces the value of the member at `position` (the parser, which knows where a
    /// repeated key is).
    mutating func replaceValue(at position: Int, with value: JSONValue) {
        members[position].value = value
    }

    /// Appends a member without looking for an existing one with the same key.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// The members ordered by key code units (stable, so repeated keys keep their order): the
    /// form equality and hashing compare, which makes both ignore member order.
    var canonicalMembers: [Member] {
        members.count < 2 ? members : members.enumerated().sorted { a, b in
            let (ka, kb) = (a.element.key.utf8, b.element.key.utf8)
            if ka.elementsEqual(kb) { return a.offset < b.offset }
            return ka.lexicographicallyPrecedes(kb)
        }.map(\.element)
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        if lhs.members == rhs.members { return true }
        return lhs.canonicalMembers == rhs.canonicalMembers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in canonicalMembers { hasher.combine(member) }
    }
}
