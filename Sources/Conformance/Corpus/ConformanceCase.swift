import LinkJSON

/// One case: an operation, its input, what the output must show, and the requirement judged.
///
/// A class (immutable, so `Sendable`): the runner hands cases to workers on every core, and
/// passing a reference costs one count instead of one per field. Everything but the id lives in
/// one shared body, so a case repeated under other ids (``Corpus/repeated(to:)``) costs an id
/// and a reference, not a copy of every field.
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

    /// What a case is apart from its id (shared by the copies of a repeated case).
    private final class Body: Sendable {
        let suite: String
        let title: String
        let operation: String
        let requirement: String
        let also: [String]
        let polarity: Polarity
        let provenance: Provenance
        let provenanceSource: String?
        let input: JSONValue
        let encodedInput: [UInt8]
        let expect: JSONValue
        let encodedExpect: String
        let note: String?
        let nullPasses: Bool
        let level: RequirementLevel
        let prepared: OperationDefinition.PreparedInput
        let file: String
        let line: Int

        init(suite: String, title: String, operation: String, requirement: String, also: [String], polarity: Polarity,
             provenance: Provenance, provenanceSource: String?, input: JSONValue, expect: JSONValue, note: String?,
             level: RequirementLevel, prepared: OperationDefinition.PreparedInput, file: String, line: Int) {
            self.suite = suite
            self.title = title
            self.operation = operation
            self.requirement = requirement
            self.also = also
            self.polarity = polarity
            self.provenance = provenance
            self.provenanceSource = provenanceSource
            self.input = input
            var bytes: [UInt8] = []
            JSONSerializer.write(input, to: &bytes)
            self.encodedInput = bytes
            self.expect = expect
            self.encodedExpect = expect.serialized()
            self.note = note
            self.nullPasses = prepared.compare(expect, prepared.nullOutput).isEmpty
            self.level = level
            self.prepared = prepared
            self.file = file
            self.line = line
        }
    }

    public let id: String
    private let body: Body

    public var suite: String { body.suite }
    public var title: String { body.title }
    public var operation: String { body.operation }
    public var requirement: String { body.requirement }
    public var also: [String] { body.also }
    public var polarity: Polarity { body.polarity }
    public var provenance: Provenance { body.provenance }
    public var provenanceSource: String? { body.provenanceSource }
    /// The input with string generators expanded.
    public var input: JSONValue { body.input }
    /// The input's JSON text (compact), written once: an adapter run sends it with every
    /// request, and some inputs are tens of kilobytes.
    public var encodedInput: [UInt8] { body.encodedInput }
    public var expect: JSONValue { body.expect }
    /// The expectation's JSON text (compact), written once: every result of the case stores it.
    public var encodedExpect: String { body.encodedExpect }
    public var note: String? { body.note }
    /// Whether a null implementation's answer (``OperationDefinition/nullOutput``) would meet
    /// the expectation: a property of the case, worked out once when the corpus is loaded.
    public var nullPasses: Bool { body.nullPasses }
    /// The level of ``requirement`` (INFO when the registry does not know it).
    public var level: RequirementLevel { body.level }
    /// The input read into the operation's typed value once, when the case was made
    /// (``OperationDefinition/prepare``): what judging an answer uses.
    public var prepared: OperationDefinition.PreparedInput { body.prepared }
    /// Where the case is written: path relative to the corpus root, and line.
    public var file: String { body.file }
    public var line: Int { body.line }

    init(id: String, suite: String, title: String, operation: String, requirement: String, also: [String],
         polarity: Polarity, provenance: Provenance, provenanceSource: String?, input: JSONValue, expect: JSONValue,
         note: String?, level: RequirementLevel, prepared: OperationDefinition.PreparedInput, file: String, line: Int) {
        self.id = id
        self.body = Body(suite: suite, title: title, operation: operation, requirement: requirement, also: also,
                         polarity: polarity, provenance: provenance, provenanceSource: provenanceSource, input: input,
                         expect: expect, note: note, level: level, prepared: prepared, file: file, line: line)
    }

    private init(id: String, body: Body) {
        self.id = id
        self.body = body
    }

    /// The same case under another id.
    func renamed(_ newID: String) -> ConformanceCase {
        ConformanceCase(id: newID, body: body)
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
