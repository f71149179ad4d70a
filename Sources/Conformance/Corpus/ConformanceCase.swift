import LinkJSON

/// One case: an operation, its input, what the output must show, and the requirement judged.
///
/// A class (immutable, so `Sendable`): the runner hands cases to workers on every core, and
/// passing a reference costs one count instead of one per field.
public final class ConformanceCase: Sendable {
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
    /// The input's JSON text (compact), written once: an adapter run sends it with every
    /// request, and some inputs are tens of kilobytes.
    public let encodedInput: [UInt8]
    public let expect: JSONValue
    public let note: String?
    /// Whether a null implementation's answer (``OperationDefinition/nullOutput``) would meet
    /// the expectation: a property of the case, worked out once when the corpus is loaded.
    public let nullPasses: Bool
    /// The level of ``requirement`` (INFO when the registry does not know it).
    public let level: RequirementLevel
    /// The operation's definition (nil when the corpus names an unknown one).
    public let definition: OperationDefinition?
    /// Where the case is written: path relative to the corpus root, and line.
    public let file: String
    public let line: Int

    init(id: String, suite: String, title: String, operation: String, requirement: String, also: [String],
         polarity: Polarity, provenance: Provenance, provenanceSource: String?, input: JSONValue, expect: JSONValue,
         note: String?, nullPasses: Bool, level: RequirementLevel, definition: OperationDefinition?, file: String, line: Int,
         encodedInput: [UInt8]? = nil) {
        self.id = id
        self.suite = suite
        self.title = title
        self.operation = operation
        self.requirement = requirement
        self.also = also
        self.polarity = polarity
        self.provenance = provenance
        self.provenanceSource = provenanceSource
        self.input = input
        self.encodedInput = encodedInput ?? {
            var bytes: [UInt8] = []
            JSONSerializer.write(input, to: &bytes)
            return bytes
        }()
        self.expect = expect
        self.note = note
        self.nullPasses = nullPasses
        self.level = level
        self.definition = definition
        self.file = file
        self.line = line
    }

    /// The same case under another id.
    func renamed(_ newID: String) -> ConformanceCase {
        ConformanceCase(id: newID, suite: suite, title: title, operation: operation, requirement: requirement, also: also,
                        polarity: polarity, provenance: provenance, provenanceSource: provenanceSource, input: input,
                        expect: expect, note: note, nullPasses: nullPasses, level: level, definition: definition,
                        file: file, line: line, encodedInput: encodedInput)
    }

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
