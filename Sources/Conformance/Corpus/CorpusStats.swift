import LinkJSON

/// Counts over a suite's corpus, for `linkconform corpus stats`.
public struct CorpusStats: Sendable {
    public struct Suite: Sendable {
        public let name: String
        public let requirements: Int
        public let requirementsByLevel: [(String, Int)]
        public let decided: Int
        public let untestable: [String]
        public let cases: Int
        public let casesByOperation: [(String, Int)]
        public let casesByLevel: [(String, Int)]
        public let casesByPolarity: [(String, Int)]
        public let casesByProvenance: [(String, Int)]
        /// Judged requirements with both a conforming and a violating case.
        public let fullyCovered: Int
        /// Judged (MUST/SHOULD) testable requirements.
        public let judged: Int
    }

    public let suites: [Suite]

    public init(_ corpus: Corpus) {
        suites = corpus.suites.map { suite in
            let registry = suite.registry
            func tally(_ keys: [String], order: [String]) -> [(String, Int)] {
                var counts: [String: Int] = [:]
                for k in keys { counts[k, default: 0] += 1 }
                return order.compactMap { k in counts[k].map { (k, $0) } }
                    + counts.keys.filter { !order.contains($0) }.sorted().map { ($0, counts[$0]!) }
            }
            let levels = RequirementLevel.allCases.map(\.rawValue)
            var polarities: [String: Set<ConformanceCase.Polarity>] = [:]
            for c in suite.cases { polarities[c.requirement, default: []].insert(c.polarity) }
            let judged = registry.requirements.filter { $0.level.isJudged && $0.untestable == nil }
            return Suite(
                name: suite.name,
                requirements: registry.requirements.count,
                requirementsByLevel: tally(registry.requirements.map(\.level.rawValue), order: levels),
                decided: registry.requirements.filter(\.decided).count,
                untestable: registry.requirements.filter { $0.untestable != nil }.map(\.id),
                cases: suite.cases.count,
                casesByOperation: tally(suite.cases.map(\.operation), order: suite.definition.operations.map(\.name)),
                casesByLevel: tally(suite.cases.map { registry[$0.requirement]?.level.rawValue ?? "?" }, order: levels),
                casesByPolarity: tally(suite.cases.map(\.polarity.rawValue), order: ["conforming", "violating"]),
                casesByProvenance: tally(suite.cases.map(\.provenance.rawValue), order: ConformanceCase.Provenance.allCases.map(\.rawValue)),
                fullyCovered: judged.filter { polarities[$0.id]?.count == 2 }.count,
                judged: judged.count)
        }
    }

    public var json: JSONValue {
        func table(_ pairs: [(String, Int)]) -> JSONValue {
            .object(JSONObject(pairs.map { JSONObject.Member(key: $0.0, value: .int($0.1)) }))
        }
        return .array(suites.map { s in
            [
                "suite": .string(s.name),
                "requirements": .int(s.requirements),
                "requirementsByLevel": table(s.requirementsByLevel),
                "decided": .int(s.decided),
                "untestable": .array(s.untestable.map(JSONValue.string)),
                "cases": .int(s.cases),
                "casesByOperation": table(s.casesByOperation),
                "casesByLevel": table(s.casesByLevel),
                "casesByPolarity": table(s.casesByPolarity),
                "casesByProvenance": table(s.casesByProvenance),
                "judgedRequirements": .int(s.judged),
                "judgedRequirementsFullyCovered": .int(s.fullyCovered),
            ]
        })
    }
}
