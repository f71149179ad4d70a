import LinkJSON

/// Cross-file checks of a suite's corpus.
enum CorpusLint {
    /// `<suite>/<topic>/<name>`: lower-case letters, digits, '-' and '.', at least two segments after the suite.
    static func isValidCaseID(_ id: String, suite: String) -> Bool {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == suite else { return false }
        return parts.dropFirst().allSatisfy { part in
            !part.isEmpty && part.first != "-" && part.first != "." &&
                part.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." }
        }
    }

    /// Every judged (MUST or SHOULD) requirement that is not marked untestable needs a
    /// conforming and a violating case; a case may not judge an untestable requirement.
    static func checkCoverage(_ suite: SuiteCorpus, registryFile: String, into loader: inout CorpusLoader) {
        var polarities: [String: Set<ConformanceCase.Polarity>] = [:]
        for c in suite.cases { polarities[c.requirement, default: []].insert(c.polarity) }
        let locations = loader.registryLocations[registryFile] ?? JSONLocations()
        for (i, requirement) in suite.registry.requirements.enumerated() {
            let pointer = "/requirements/\(i)"
            if requirement.untestable != nil {
                if polarities[requirement.id] != nil {
                    loader.issue(.warning, registryFile, locations, pointer, "\(requirement.id) is marked untestable but cases judge it")
                }
                continue
            }
            guard requirement.level.isJudged else { continue }
            let have = polarities[requirement.id] ?? []
            let missing = ConformanceCase.Polarity.allCases.filter { !have.contains($0) }
            if !missing.isEmpty {
                loader.issue(.error, registryFile, locations, pointer,
                             "\(requirement.level.rawValue) requirement \(requirement.id) has no \(missing.map(\.rawValue).joined(separator: " and no ")) case")
            }
        }
    }
}
