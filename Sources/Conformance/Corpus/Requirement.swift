import LinkJSON
import LinkRules

/// How binding a requirement is: the one level type of LinkConform, shared with the protocol
/// modules' violation codes (``LinkRules/RuleLevel``). The name reads better where requirements
/// are meant.
public typealias RequirementLevel = RuleLevel

/// One rule of a suite, in the project's own words, with its source.
public struct Requirement: Sendable, Hashable {
    public let id: String
    public let level: RequirementLevel
    public let applies: String
    public let title: String
    public let statement: String
    /// The source document's key and section.
    public let document: String
    public let section: String
    /// True when the source is silent and the rule is LinkConform's choice.
    public let decided: Bool
    public let rationale: String?
    /// Why no case can check it, when that is so.
    public let untestable: String?
}

/// A source document a registry cites.
public struct SourceDocument: Sendable, Hashable {
    public let key: String
    public let title: String
    public let location: String
}

/// The requirements of one suite (`Corpus/<suite>/requirements.json`).
public struct RequirementRegistry: Sendable {
    public let suite: String
    public let title: String
    public let documents: [SourceDocument]
    public let requirements: [Requirement]
    private let byID: [String: Requirement]

    public init(suite: String, title: String, documents: [SourceDocument], requirements: [Requirement]) {
        self.suite = suite
        self.title = title
        self.documents = documents
        self.requirements = requirements
        var index: [String: Requirement] = [:]
        for r in requirements where index[r.id] == nil { index[r.id] = r }
        byID = index
    }

    public subscript(id: String) -> Requirement? { byID[id] }

    static let shape = JSONShape.object([
        "suite": .nonEmptyString,
        "title": .nonEmptyString,
        "documents": .object([:], open: true),
        "requirements": .array(.object([
            "id": .nonEmptyString,
            "level": .oneOf(RequirementLevel.allCases.map(\.rawValue)),
            "applies": .oneOf(["link", "sender", "receiver", "file", "matcher", "entitlement"]),
            "title": .nonEmptyString,
            "statement": .nonEmptyString,
            "source": .object(["document": .nonEmptyString, "section": .nonEmptyString], required: ["document", "section"]),
            "decided": .bool,
            "rationale": .nonEmptyString,
            "untestable": .nonEmptyString,
        ], required: ["id", "level", "applies", "title", "statement", "source"])),
    ], required: ["suite", "title", "documents", "requirements"])

    static let documentShape = JSONShape.object(["title": .nonEmptyString, "where": .nonEmptyString], required: ["title", "where"])
}
