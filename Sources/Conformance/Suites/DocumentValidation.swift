import LinkJSON
import LinkRules

/// What the suites that read documents (association files) share: the `<suite>.validate`
/// operation (`{"file": text}` in, `{"diagnostics": [...]}` out, codes compared as a set), the
/// JSON of a located diagnostic, and its `check` violation.

enum DocumentValidation {
    struct Input: OperationInput {
        static let fieldNames = ["file"]
        let file: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            file = try fields.string("file")
        }
    }

    struct Output: OperationOutput {
        /// The codes reported (compared as a set, so a code reported twice counts once).
        let diagnostics: [String]
        init(_ fields: JSONFields) throws(JSONFieldError) {
            // The items are codes, or objects with a `code` (what the reference writes).
            guard let codes = try violationKeys(fields, "diagnostics") else { throw fields.error("diagnostics", "missing required field") }
            diagnostics = codes
        }
    }

    /// `<suite>.validate`: every problem of a file, compared as a set of codes.
    static func operation(name: String, summary: String) -> OperationDefinition {
        OperationDefinition(
            name: name, summary: summary, input: Input.self, output: Output.self,
            expect: .object(["diagnostics": .array(.nonEmptyString)], required: ["diagnostics"]),
            compare: { expect, actual, _ in
                var found: [Mismatch] = []
                compareKeySets("diagnostics", expect, actual.diagnostics, &found)
                return found
            },
            nullOutput: { _ in ["diagnostics": []] },
            expectation: { output in
                ReferenceExpectation(expect: ["diagnostics": .array(output.diagnostics.map(JSONValue.string))], codes: output.diagnostics)
            })
    }

    /// `{"diagnostics": [{code, requirement, level, pointer, line, column, message}, ...]}`.
    static func output(_ diagnostics: [DocumentDiagnostic<some RuleCode>]) -> JSONValue {
        ["diagnostics": .array(diagnostics.map { d in
            var o = JSONObject(capacity: 7)
            o.append("code", .string(d.code.rawValue))
            o.append("requirement", .string(d.requirement))
            o.append("level", .string(d.level.rawValue))
            o.append("pointer", .string(d.pointer))
            o.append("line", .int(d.line))
            o.append("column", .int(d.column))
            o.append("message", .string(d.message))
            return .object(o)
        })]
    }

    /// The diagnostics as `check` violations, the place in the message.
    static func violations(_ diagnostics: [DocumentDiagnostic<some RuleCode>]) -> [CheckExplanation.Violation] {
        diagnostics.map { d in
            CheckExplanation.Violation(requirement: d.requirement, level: d.level, code: d.code.rawValue,
                                       message: "\(d.message) (line \(d.line), column \(d.column)\(d.pointer.isEmpty ? "" : ", at \(d.pointer)"))",
                                       offset: nil)
        }
    }
}
