import LinkURL

/// The first two occurrences of a query parameter and how many there are, kept without
/// allocating: enough to read a parameter that must appear once, and to point at the repeat.
public struct ParameterOccurrences: Sendable {
    public private(set) var first: QueryItem?
    public private(set) var second: QueryItem?
    public private(set) var count = 0

    public init() {}

    public mutating func add(_ item: QueryItem) {
        if first == nil { first = item } else if second == nil { second = item }
        count += 1
    }

    /// The occurrence when there is exactly one.
    public var single: QueryItem? { count == 1 ? first : nil }

    /// What the occurrences amount to for a parameter that must appear once with a value.
    public enum Reading: Sendable {
        case absent
        /// More than once: not read; the second occurrence points at the repeat.
        case repeated(second: QueryItem, count: Int)
        /// Once, without `=` or with an empty value.
        case empty(QueryItem)
        /// Once, with this value.
        case value(Range<Int>)
    }

    public var reading: Reading {
        guard let first else { return .absent }
        if let second { return .repeated(second: second, count: count) }
        guard let value = first.value, !value.isEmpty else { return .empty(first) }
        return .value(value)
    }
}
