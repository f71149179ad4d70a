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

    /// The most diagnostics of one code an answer lists.
    static let listedPerCode = 32
    /// Once the items listed pass this many bytes, a code already listed gets no more items.
    static let listBudgetBytes = 192 * 1024
    /// The most bytes of a pointer or a message in an answer.
    static let fieldBytes = 1_024

    /// `{"diagnostics": [{code, requirement, level, pointer, line, column, message}, ...]}`.
    ///
    /// The answer is bounded, whatever the file: a code lists its first ``listedPerCode``
    /// diagnostics, and none past the first once the items pass ``listBudgetBytes``; a pointer or
    /// message is cut to ``fieldBytes``. The last item listed of a code says how many more it had.
    /// Every code found is listed at least once, so the set of codes, which is what judging
    /// compares, is whole. Without the bound a 64 KB file of ten thousand repeated paths gave a
    /// 1.5 MB answer, over the adapter protocol's 1 MiB line: the reference's own adapter could
    /// not answer it (found by `linkconform fuzz`).
    static func output<Code: RuleCode>(_ diagnostics: [DocumentDiagnostic<Code>]) -> JSONValue {
        var items: [JSONObject] = []
        var listed: [String: (count: Int, last: Int)] = [:]
        var omitted: [String: Int] = [:]
        var bytes = 0
        var text: [UInt8] = []
        for d in diagnostics {
            let code = d.code.rawValue
            let count = listed[code]?.count ?? 0
            guard count < listedPerCode, count == 0 || bytes < listBudgetBytes else {
                omitted[code, default: 0] += 1
                continue
            }
            var o = JSONObject(capacity: 7)
            o.append("code", .string(code))
            o.append("requirement", .string(d.requirement))
            o.append("level", .string(d.level.rawValue))
            o.append("pointer", .string(ResultLimits.cut(d.pointer, toBytes: fieldBytes)))
            o.append("line", .int(d.line))
            o.append("column", .int(d.column))
            o.append("message", .string(ResultLimits.cut(d.message, toBytes: fieldBytes)))
            // Counted as written (escapes included): a pointer of control characters is six
            // times as long in JSON as in the file.
            text.removeAll(keepingCapacity: true)
            JSONSerializer.write(.object(o), to: &text)
            bytes += text.count + 1
            listed[code] = (count + 1, items.count)
            items.append(o)
        }
        for (code, more) in omitted {
            let at = listed[code]!.last
            let message = items[at]["message"]?.stringValue ?? ""
            items[at]["message"] = .string(message + " (and \(more) more \(code) diagnostic\(more == 1 ? "" : "s") not listed: an answer lists at most \(listedPerCode) of a code, and only one once it passes \(listBudgetBytes / 1024) KiB)")
        }
        return ["diagnostics": .array(items.map(JSONValue.object))]
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
