import LinkJSON
import LinkRules

/// A suite as the rest of the system sees it: its operations, the reference implementation of
/// each, the explainer behind `linkconform check` (with the document parameters it takes, if it
/// reads documents), and the requirement ids its code refers to.
///
/// Adding a suite means: a protocol module, a `Corpus/<suite>/` folder, and one definition
/// listed in ``SuiteRegistry/all``. Nothing else changes.
public struct SuiteDefinition: Sendable {
    public typealias Handler = @Sendable (JSONValue) async throws -> JSONValue

    /// Folder and prefix name (`ulc`).
    public let name: String
    public let title: String
    /// What makes a link one of this protocol's, for people (`a link whose query has ulc-success`).
    public let recognizes: String
    public let operations: [OperationDefinition]
    /// The reference implementation of every operation.
    public let reference: [String: Handler]
    /// Explains one `linkconform check` subject; nil when the subject is not this suite's at all
    /// (a link suite given a document, a link of another protocol).
    public let explain: @Sendable (CheckSubject) -> CheckExplanation?
    /// Whether the suite reads documents (`check --document`), not only links.
    public let readsDocuments: Bool
    /// The parameters the suite takes with a document (`--with name=value`).
    public let documentParameters: [DocumentParameter]
    /// The module's violation codes with the requirement each breaks and its level
    /// (``LinkRules/RuleCode/requirementTable``): lint checks that the registry agrees.
    public let codeRequirements: [CodeRequirement]

    public init(name: String, title: String, recognizes: String, operations: [OperationDefinition], reference: [String: Handler],
                explain: @escaping @Sendable (CheckSubject) -> CheckExplanation?, codeRequirements: [CodeRequirement],
                readsDocuments: Bool = false, documentParameters: [DocumentParameter] = []) {
        self.name = name
        self.title = title
        self.recognizes = recognizes
        self.operations = operations
        self.reference = reference
        self.explain = explain
        self.codeRequirements = codeRequirements
        self.readsDocuments = readsDocuments || !documentParameters.isEmpty
        self.documentParameters = documentParameters
    }

    public func operation(named name: String) -> OperationDefinition? {
        operations.first { $0.name == name }
    }
}
