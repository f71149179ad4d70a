import LinkJSON
import LinkRules

/// What one suite says about a `check` subject: its parts (raw as in the subject, decoded once),
/// every violation, and the verdict computed from those violations.
///
/// ```swift
/// let e = ULCSuite.definition.explain(.link(Array(link.utf8)))!
/// e.verdict.sentence                   // "a valid ULC"
/// e.fields.first { $0.label == "ulc-success" }?.decoded   // "https://sampledomain.com/success"
/// ```
public struct CheckExplanation: Sendable {
    /// One part of the subject: as written (`raw`) and decoded once (`decoded`), or a value the
    /// suite derived (`value`: the process a link starts, its form), with an optional note.
    public struct Field: Sendable, Hashable {
        public let label: String
        /// As in the subject; nil when the part is absent (or for a derived value).
        public let raw: String?
        /// After one percent-decoding; nil when absent.
        public let decoded: String?
        /// A value derived by the suite rather than read from the subject.
        public let value: String?
        /// Something people should know about the part (where an absent parameter went).
        public let note: String?

        /// A part of the subject, raw and decoded once.
        public init(_ label: String, raw: String?, decoded: String?, note: String? = nil) {
            self.label = label
            self.raw = raw
            self.decoded = decoded
            self.value = nil
            self.note = note
        }

        /// A value the suite derived.
        public init(_ label: String, value: String, note: String? = nil) {
            self.label = label
            self.raw = nil
            self.decoded = nil
            self.value = value
            self.note = note
        }
    }

    public struct Violation: Sendable, Hashable {
        public let requirement: String
        public let level: RequirementLevel
        /// The key corpus cases use (`parameter:code` or `code`).
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

        /// A protocol module's violation.
        public init<C, P>(_ v: RuleViolation<C, P>) {
            self.init(requirement: v.requirement, level: v.level, code: v.key, message: v.message, offset: v.offset)
        }
    }

    /// The suite's name (`ulc`).
    public let suite: String
    public let fields: [Field]
    public let violations: [Violation]
    /// Computed once from `violations` (``CheckVerdict``).
    public let verdict: CheckVerdict

    /// `recognized` is the suite's to say; validity and the sentence follow from the violations.
    public init(suite: String, recognized: Bool, wording: CheckVerdict.Wording, fields: [Field], violations: [Violation]) {
        self.suite = suite
        self.fields = fields
        self.violations = violations
        self.verdict = CheckVerdict(recognized: recognized, levels: violations.map(\.level), wording: wording)
    }

    /// The explanation as JSON (the form `check --json` prints); `titles` adds requirement titles.
    public func json(titles: [String: String] = [:]) -> JSONValue {
        var object = JSONObject()
        object["suite"] = .string(suite)
        object["recognized"] = .bool(verdict.recognized)
        object["valid"] = .bool(verdict.valid)
        object["verdict"] = .string(verdict.sentence)
        object["fields"] = .array(fields.map { field in
            var o = JSONObject()
            o["label"] = .string(field.label)
            if let value = field.value {
                o["value"] = .string(value)
            } else {
                o["raw"] = .string(field.raw)
                o["decoded"] = .string(field.decoded)
            }
            if let note = field.note { o["note"] = .string(note) }
            return .object(o)
        })
        object["violations"] = .array(violations.map { v in
            var o = JSONObject()
            o["requirement"] = .string(v.requirement)
            o["level"] = .string(v.level.rawValue)
            o["code"] = .string(v.code)
            o["message"] = .string(v.message)
            o["offset"] = v.offset.map { .int($0) } ?? .null
            o["title"] = .string(titles[v.requirement])
            return .object(o)
        })
        return .object(object)
    }
}
