import LinkJSON

/// One case: an operation, its input, what the output must show, and the requirement judged.
public struct ConformanceCase: Sendable, Hashable {
    /// Whether the input satisfies the requirement or breaks it.
    public enum Polarity: String, Sendable, Hashable, CaseIterable {
        case conforming, violating
    }

    /// Where a case comes from.
    public enum Provenance: String, Sendable, Hashable, CaseIterable {
        case spec, decided, observed, realWorld = "real-world", regression
        /// Whether a `source` must say where.
        var needsSource: Bool { self == .observed || self == .realWorld || self == .regression }
    }

    public let id: String
    public let suite: String
    public let title: String
    public let operation: String
    public let requirement: String
    public let also: [String]
    public let polarity: Polarity
    public let provenance: Provenance
    public let provenanceSource: String?
    /// The input with string generators expanded.
    public let input: JSONValue
    public let expect: JSONValue
    public let note: String?
    /// Where the case is written: path relative to the corpus root, and line.
    public let file: String
    public let line: Int

    static let shape = JSONShape.object([
        "id": .nonEmptyString,
        "title": .nonEmptyString,
        "operation": .nonEmptyString,
        "requirement": .nonEmptyString,
        "also": .array(.nonEmptyString),
        "polarity": .oneOf(Polarity.allCases.map(\.rawValue)),
        "provenance": .object([
            "kind": .oneOf(Provenance.allCases.map(\.rawValue)),
            "source": .nonEmptyString,
        ], required: ["kind"]),
        "input": .any,
        "expect": .any,
        "note": .string,
    ], required: ["id", "title", "operation", "requirement", "polarity", "provenance", "input", "expect"])

    static let fileShape = JSONShape.object([
        "suite": .nonEmptyString,
        "cases": .array(.any),
    ], required: ["suite", "cases"])
}
