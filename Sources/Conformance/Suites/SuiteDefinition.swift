import LinkJSON
import LinkRules

/// A suite as the rest of the system sees it: its operations, the reference implementation of
/// each, the explainer behind `linkconform check`, and the requirement ids its code refers to.
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
    /// Explains one link for `linkconform check`; nil when the link is not of this protocol at all.
    public let explain: @Sendable ([UInt8]) -> LinkExplanation?
    /// The module's violation codes with the requirement each breaks and its level
    /// (``LinkRules/RuleCode/requirementTable``): lint checks that the registry agrees.
    public let codeRequirements: [CodeRequirement]

    public init(name: String, title: String, recognizes: String, operations: [OperationDefinition], reference: [String: Handler],
                explain: @escaping @Sendable ([UInt8]) -> LinkExplanation?, codeRequirements: [CodeRequirement]) {
        self.name = name
        self.title = title
        self.recognizes = recognizes
        self.operations = operations
        self.reference = reference
        self.explain = explain
        self.codeRequirements = codeRequirements
    }

    public func operation(named name: String) -> OperationDefinition? {
        operations.first { $0.name == name }
    }
}

/// What `linkconform check` prints for one link and one protocol.
public struct LinkExplanation: Sendable {
    public struct Field: Sendable {
        public let label: String
        public let raw: String?
        public let decoded: String?
        public init(_ label: String, raw: String?, decoded: String?) {
            self.label = label
            self.raw = raw
            self.decoded = decoded
        }
    }

    public struct Violation: Sendable {
        public let requirement: String
        public let level: RequirementLevel
        public let code: String
        public let message: String
        public let offset: Int?
        public init(requirement: String, level: RequirementLevel, code: String, message: String, offset: Int?) {
            self.requirement = requirement
            self.level = level
            self.code = code
            self.message = message
            self.offset = offset
        }
    }

    /// The suite's name (`ulc`).
    public let suite: String
    /// A sentence: what the link is (`a valid ULC`, `not a ULC: no ulc-success parameter`).
    public let verdict: String
    /// Whether the link is of this protocol at all.
    public let recognized: Bool
    /// Whether it is usable (no MUST violation).
    public let valid: Bool
    public let fields: [Field]
    public let violations: [Violation]

    public init(suite: String, verdict: String, recognized: Bool, valid: Bool, fields: [Field], violations: [Violation]) {
        self.suite = suite
        self.verdict = verdict
        self.recognized = recognized
        self.valid = valid
        self.fields = fields
        self.violations = violations
    }

    /// The explanation as JSON (the form `check --json` prints).
    public var json: JSONValue {
        var object = JSONObject()
        object["suite"] = .string(suite)
        object["recognized"] = .bool(recognized)
        object["valid"] = .bool(valid)
        object["verdict"] = .string(verdict)
        object["fields"] = .array(fields.map { field in
            var o = JSONObject()
            o["label"] = .string(field.label)
            o["raw"] = .string(field.raw)
            o["decoded"] = .string(field.decoded)
            return .object(o)
        })
        object["violations"] = .array(violations.map { v in
            var o = JSONObject()
            o["requirement"] = .string(v.requirement)
            o["level"] = .string(v.level.rawValue)
            o["code"] = .string(v.code)
            o["message"] = .string(v.message)
            o["offset"] = v.offset.map { .int($0) } ?? .null
            return .object(o)
        })
        return .object(object)
    }
}

/// Every suite LinkConform knows, in run order. The one table a new suite is added to.
public enum SuiteRegistry {
    public static let all: [SuiteDefinition] = [
        ULCSuite.definition,
        XCallbackSuite.definition,
        XignQRSuite.definition,
    ]

    public static func suite(named name: String) -> SuiteDefinition? {
        all.first { $0.name == name }
    }

    /// The operation with this full name, in whichever suite has it.
    public static func operation(named name: String) -> (SuiteDefinition, OperationDefinition)? {
        for suite in all {
            if let op = suite.operation(named: name) { return (suite, op) }
        }
        return nil
    }
}
