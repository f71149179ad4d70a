import Conformance
import LinkJSON
import ResultsStore

/// `results.json`: the run, implementations, summary, requirements and every result, for tools.
///
/// Written as it is read: the small members are JSON trees, the results are read from the store
/// one at a time and each is written as soon as it is made, so the file is never whole in memory.
/// The text is what `JSONSerializer` writes with `pretty: true` for the whole document (members
/// in this order, two spaces per level). Strings are exact: JSON's own escaping, nothing else.
public enum JSONReport {
    /// The report as a string (tests, small runs); ``write(_:to:)`` streams it.
    public static func render(_ data: ReportData) throws -> String {
        try ReportOutput.string { try write(data, to: $0) }
    }

    /// Writes the document and a final line feed.
    public static func write(_ data: ReportData, to out: ReportOutput) throws {
        try out.write("{")
        for member in head(data) {
            try out.write("\n  " + JSONValue.string(member.key).serialized() + ": ")
            try write(member.value, levels: 1, to: out)
            try out.write(",")
        }
        try out.write("\n  \"results\": [")
        var first = true
        try data.forEachResult(withCases: true) { stored in
            try out.write(first ? "\n    " : ",\n    ")
            try write(result(stored, data), levels: 2, to: out)
            first = false
        }
        try out.write(first ? "]\n}\n" : "\n  ]\n}\n")
    }

    /// Writes the pretty JSON text of `value` as it stands `levels` deep.
    static func write(_ value: JSONValue, levels: Int, to out: ReportOutput) throws {
        var bytes: [UInt8] = []
        JSONSerializer.write(value, to: &bytes, pretty: true, level: levels)
        try out.write(utf8: bytes)
    }

    /// Every member before `results`.
    static func head(_ data: ReportData) -> JSONObject {
        let run = data.run
        var root = JSONObject()
        root["format"] = "linkconform-results/1"
        root["run"] = [
            "id": .int(Int(run.id)), "status": .string(run.status.rawValue), "startedAt": .string(run.startedAt),
            "finishedAt": .string(run.finishedAt), "corpusFingerprint": .string(run.corpusFingerprint),
            "gitCommit": .string(run.gitCommit), "toolVersion": .string(run.toolVersion),
            "options": (try? JSONParser.parse(run.options)) ?? .null,
            "incomplete": data.incomplete.map(IncompleteRunReport.json) ?? .null,
        ]
        root["implementations"] = .array(data.implementations.map { impl in
            ["id": .int(Int(impl.id)), "name": .string(impl.info.name), "version": .string(impl.info.version),
             "language": .string(impl.info.language), "homepage": .string(impl.info.homepage),
             "status": .string(impl.status.rawValue), "notes": .array(impl.notes.map(JSONValue.string)),
             "expectedFailures": .string(impl.expectedFailures)]
        })
        root["summary"] = .array(data.summary.map { row in
            var counts = JSONObject()
            for outcome in ReportData.columns { counts[outcome.rawValue] = .int(row.count(outcome)) }
            return ["implementation": .string(data.implementation(row.implementationID)?.name ?? "?"),
                    "suite": .string(row.suite), "cases": .int(row.total), "outcomes": .object(counts),
                    "nullAlsoPasses": .int(row.nullAlsoPass)]
        })
        root["requirements"] = .array(data.requirements.map { r in
            var requirement = JSONObject()
            requirement["suite"] = .string(r.suite)
            requirement["id"] = .string(r.id)
            requirement["level"] = .string(r.level.rawValue)
            requirement["title"] = .string(r.title)
            requirement["decided"] = .bool(r.decided)
            if let text = data.requirementTexts[r.suite]?[r.id] {
                requirement["statement"] = .string(text.statement)
                requirement["source"] = ["document": .string(text.document), "section": .string(text.section)]
                requirement["rationale"] = .string(text.rationale)
            }
            return .object(requirement)
        })
        root["matrix"] = .array(data.matrix.map { row in
            var cells = JSONObject()
            for impl in data.implementations {
                guard let counts = row.cells[impl.id] else { continue }
                var c = JSONObject()
                for outcome in ReportData.columns where (counts[outcome] ?? 0) > 0 { c[outcome.rawValue] = .int(counts[outcome]!) }
                cells[impl.info.name] = .object(c)
            }
            return ["suite": .string(row.requirement.suite), "requirement": .string(row.requirement.id),
                    "level": .string(row.requirement.level.rawValue), "title": .string(row.requirement.title),
                    "cases": .int(row.cases), "nullPasses": .int(row.nullPasses), "implementations": .object(cells)]
        })
        return root
    }

    static func result(_ stored: StoredResult, _ data: ReportData) -> JSONValue {
        let r = stored.result
        let result: JSONValue = [
            "implementation": .string(data.implementation(stored.implementationID)?.name ?? "?"),
            "suite": .string(r.suite), "case": .string(r.caseID), "operation": .string(r.operation),
            "requirement": .string(r.requirement), "level": .string(r.level.rawValue),
            "outcome": .string(r.outcome.rawValue), "nullWouldPass": .bool(r.nullWouldPass),
            "durationNanos": .int(Int(r.durationNanos)), "message": .string(r.message),
            "expected": r.expected, "actual": r.actual ?? .null]
        // For a result that did not pass: its case as the store keeps it (the input as compact
        // JSON text, cut to 4 KiB), so that a tool can show what was sent.
        guard ReportData.problemOutcomes.contains(r.outcome), let c = stored.corpusCase, case .object(var members) = result else { return result }
        members["corpusCase"] = ["title": .string(c.title), "file": .string(c.file), "line": .int(c.line), "input": .string(c.input)]
        return .object(members)
    }
}
