/// The members of a JSON object, in order.
///
/// Lookup is linear: the objects this project handles have a handful of members, and keeping
/// them in an array preserves order and makes building cheap. Equality ignores member order.
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
    }

    public private(set) var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
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
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Appends a member without looking for an existing one with the same key.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine member hashes commutatively.
        var combined = 0
        for member in members {
            var h = Hasher()
            h.combine(member.key)
            h.combine(member.value)
            combined ^= h.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}
