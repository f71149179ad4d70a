import Conformance
import LinkJSON

/// `results.json`: the run, implementations, summary, requirements and every result, for tools.
public enum JSONReport {
    public static func render(_ data: ReportData) -> JSONValue {
        let run = data.run
        var root = JSONObject()
        root["format"] = "linkconform-results/1"
        root["run"] = [
            "id": .int(Int(run.id)), "status": .string(run.status.rawValue), "startedAt": .string(run.startedAt),
            "finishedAt": .string(run.finishedAt), "corpusFingerprint": .string(run.corpusFingerprint),
            "gitCommit": .string(run.gitCommit), "toolVersion": .string(run.toolVersion),
            "options": (try? JSONParser.parse(run.options)) ?? .null,
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
            ["suite": .string(r.suite), "id": .string(r.id), "level": .string(r.level.rawValue),
             "title": .string(r.title), "decided": .bool(r.decided)]
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
        root["results"] = .array(data.results.map { stored in
            let r = stored.result
            return ["implementation": .string(data.implementation(stored.implementationID)?.name ?? "?"),
                    "suite": .string(r.suite), "case": .string(r.caseID), "operation": .string(r.operation),
                    "requirement": .string(r.requirement), "level": .string(r.level.rawValue),
                    "outcome": .string(r.outcome.rawValue), "nullWouldPass": .bool(r.nullWouldPass),
                    "durationNanos": .int(Int(r.durationNanos)), "message": .string(r.message),
                    "expected": r.expected, "actual": r.actual ?? .null]
        })
        return .object(root)
    }
}
