import Conformance
import Foundation
import LinkJSON
import LinkRules
import ResultsStore

/// Turns a differential finding into a corpus case: its minimised input, the expectation the
/// reference's answer to it gives today, the requirement of the reference's strictest violation
/// (the others under `also`), `regression` provenance naming the finding, written into the cases
/// file that already holds the most cases of that operation and requirement; then the corpus is
/// loaded again and the file put back as it was if the case is not lint-clean.
///
/// An input the reference finds nothing wrong with names no requirement, and no rule of thumb
/// picks the right one: the requirement most of the operation's conforming cases judge was
/// unrelated to the cause in 4 of 8 promotions of an audit, and often of the wrong polarity. Such
/// a finding is refused unless the reviewer names the requirement (`requirement`); the polarity
/// is then the one every case of the operation and requirement has, or the reviewer's
/// (`polarity`) when they do not agree. The refusal lists the operation's requirements and, for an
/// operation whose answers give a reason (``ReferenceExpectation/cause``: `aasa.match`'s
/// `no_match: url-port`), the requirement most cases answered for the same reason judge, as a
/// hint.
public struct Promotion: Sendable {
    public let caseID: String
    public let file: String
    /// The case as written.
    public let caseJSON: JSONValue

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Builds the case for `finding` against the corpus under `corpus` (not written yet).
    /// `requirement` and `polarity` are the reviewer's, for a finding the reference finds nothing
    /// wrong with (refused otherwise: the reference's violations name the requirement).
    public static func prepare(_ finding: DifferentialFinding, corpus: Corpus, requirement named: String? = nil,
                               polarity chosen: ConformanceCase.Polarity? = nil) async throws(Failure) -> Promotion {
        guard let (suite, operation) = SuiteRegistry.operation(named: finding.operation), let reference = suite.reference[finding.operation] else {
            throw Failure("D\(finding.id): the operation \(finding.operation) is not one of this version's")
        }
        guard let suiteCorpus = corpus.suites.first(where: { $0.name == suite.name }) else {
            throw Failure("D\(finding.id): the corpus has no \(suite.name) suite loaded")
        }
        guard let input = try? JSONParser.parse(finding.minimisedInput), let prepared = try? operation.prepare(input) else {
            throw Failure("D\(finding.id): its minimised input is not an input of \(finding.operation)")
        }
        guard let output = try? await reference(input), let expectation = operation.expectation(output) else {
            throw Failure("D\(finding.id): the reference does not answer its minimised input")
        }
        // The requirement: the strictest of the reference's violations (codes sorted, so the choice is stable).
        let table = Dictionary(suite.codeRequirements.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
        let broken = expectation.codes.compactMap { table[String(ReferenceExpectation.code(ofKey: $0))] }
            .sorted { ($0.level, $0.code) < ($1.level, $1.code) }
        let cases = suiteCorpus.cases.filter { $0.operation == finding.operation }
        let requirement: String
        let polarity: ConformanceCase.Polarity
        // The cases the requirement was chosen among; the file is theirs.
        var pool = cases
        if let first = broken.first {
            if let named, named != first.requirement || (chosen != nil && chosen != .violating) {
                throw Failure("D\(finding.id): the reference reports \(expectation.codes.joined(separator: ", ")) for its minimised input, "
                              + "so the case judges \(first.requirement) (violating); --requirement \(named) is for a finding the reference finds nothing wrong with")
            }
            requirement = first.requirement
            polarity = .violating
        } else {
            guard let named else {
                throw Failure(await unnamed(finding, cases: cases, registry: suiteCorpus.registry, cause: expectation.cause,
                                            operation: operation, reference: reference))
            }
            guard let known = suiteCorpus.registry[named] else {
                throw Failure("D\(finding.id): \(suite.name) has no requirement \(named)\n" + requirementList(cases, registry: suiteCorpus.registry, operation: finding.operation))
            }
            if let why = known.untestable {
                throw Failure("D\(finding.id): \(named) is marked untestable (\(why)): no case may judge it")
            }
            let judging = cases.filter { $0.requirement == named }
            let polarities = Set(judging.map(\.polarity))
            if let chosen {
                polarity = chosen
            } else if polarities.count == 1, let only = polarities.first {
                polarity = only
            } else {
                throw Failure("D\(finding.id): the \(finding.operation) cases of \(named) are \(polarities.isEmpty ? "none" : "both conforming and violating"), "
                              + "so the new case's polarity cannot be taken from them: add --violating (the input breaks \(named)) or --conforming (it meets it)")
            }
            requirement = named
            pool = judging.filter { $0.polarity == polarity }
        }
        var also: [String] = []
        for r in broken.map(\.requirement) where r != requirement && !also.contains(r) { also.append(r) }
        guard let file = mostCommon(pool.filter { $0.requirement == requirement }.map(\.file)) ?? mostCommon(cases.map(\.file)) else {
            throw Failure("D\(finding.id): no cases file of \(finding.operation) to add the case to")
        }
        let topic = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = finding.implementation.lowercased().unicodeScalars.map { ("a"..."z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "-" }
        let implementation = String(name).split(separator: "-").joined(separator: "-")
        let caseID = "\(suite.name)/\(topic)/fuzz-\(implementation.isEmpty ? "adapter" : implementation)-d\(finding.id)"

        var c = JSONObject(capacity: 10)
        c.append("id", .string(caseID))
        // The implementation's name, version and answer come from the adapter: any hidden
        // character in them is written visibly, as the linter requires of corpus text.
        // The fields that differ on the minimised input, the case's own (a store written before
        // they were kept for it holds the first input's).
        var fields = finding.fields
        if let answer = try? JSONParser.parse(finding.implementationAnswer), let given = answer["output"] {
            let mismatches = prepared.compare(expectation.expect, given)
            if !mismatches.isEmpty { fields = Judge.unique(mismatches.map(\.field)) }
        }
        c.append("title", .string(HiddenCharacters.visibleText(title(finding, fields: fields))))
        c.append("operation", .string(finding.operation))
        c.append("requirement", .string(requirement))
        if !also.isEmpty { c.append("also", .array(also.map(JSONValue.string))) }
        c.append("polarity", .string(polarity.rawValue))
        c.append("provenance", ["kind": "regression",
                                "source": .string(HiddenCharacters.visibleText("differential fuzzing finding D\(finding.id): \(finding.implementation) \(finding.implementationVersion), signature '\(finding.signature)', first seen \(finding.firstSeen)"))])
        c.append("input", input)
        c.append("expect", expectation.expect)
        let answer = noteText(finding.implementationAnswer)
        c.append("note", .string(HiddenCharacters.visibleText("\(finding.implementation) answered \(answer)")))
        return Promotion(caseID: caseID, file: file, caseJSON: .object(c))
    }

    /// The adapter's answer for a case's note, cut at 400 characters. An answer that is not an
    /// output (an error's traceback, a crash) names files of the machine it ran on
    /// (`/work/x/Adapters/aasa-regex/../python-common/adapter_protocol.py`): each absolute path
    /// is cut to its file name, so none reaches a committed corpus file. An output is left
    /// whole: its paths are what the comparison is about.
    static func noteText(_ answer: String) -> String {
        var text = answer
        if (try? JSONParser.parse(answer))?["output"] == nil {
            text = machinePath.stringByReplacingMatches(in: answer, range: NSRange(answer.startIndex..., in: answer), withTemplate: "$1")
        }
        return text.count > 400 ? String(text.prefix(397)) + "..." : text
    }

    /// An absolute path of two or more parts (not the path of a URL, after its host, nor one
    /// after `~` or `.`), the file name captured.
    nonisolated(unsafe) static let machinePath = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.~:/-])/(?:[^\s"'\\/:]+/)+([^\s"'\\/:]+)"#)

    /// A first title, for people to improve: what the implementation did (`fields`: those that
    /// differ on the minimised input).
    static func title(_ finding: DifferentialFinding, fields: [String]) -> String {
        let what: String
        switch finding.kind {
        case "errored": what = "reports an error"
        case "crashed": what = "crashes"
        case "timedOut": what = "does not answer in time"
        case "protocolError", "malformed": what = "breaks the adapter protocol"
        default: what = "disagrees with the reference on " + fields.joined(separator: ", ")
        }
        return "\(finding.implementation) \(what) here (found by differential fuzzing)"
    }

    /// Why a finding without violations is refused, and what the reviewer can name: the
    /// operation's requirements and, when the reference gives a reason, the requirement and
    /// polarity most cases answered for the same reason judge.
    static func unnamed(_ finding: DifferentialFinding, cases: [ConformanceCase], registry: RequirementRegistry, cause: String?,
                        operation: OperationDefinition, reference: SuiteDefinition.Handler) async -> String {
        var text = "D\(finding.id): the reference finds nothing wrong with its minimised input, so no violation names the requirement "
            + "the case would judge (the signature '\(finding.signature)' names none either). Read the finding, then name it: "
            + "linkconform findings promote D\(finding.id) --requirement ID [--violating | --conforming]"
        if let cause {
            let same = await sameCause(cause, among: cases, operation: operation, reference: reference)
            if same.count < cases.count, let common = mostCommon(same.map { Judged(requirement: $0.requirement, polarity: $0.polarity) }) {
                text += "\nmost \(finding.operation) cases the reference answers for a reason like '\(cause)' judge \(common.requirement) (\(common.polarity.rawValue)): a hint, not the cause"
            }
        }
        return text + "\n" + requirementList(cases, registry: registry, operation: finding.operation)
    }

    /// The requirements `cases` (one operation's) judge, in the registry's order, each with its
    /// level, title and how many of the cases judge it each way.
    static func requirementList(_ cases: [ConformanceCase], registry: RequirementRegistry, operation: String) -> String {
        var counts: [String: (conforming: Int, violating: Int)] = [:]
        for c in cases {
            for id in [c.requirement] + c.also {
                var n = counts[id] ?? (0, 0)
                if c.polarity == .conforming { n.conforming += 1 } else { n.violating += 1 }
                counts[id] = n
            }
        }
        let lines = registry.requirements.filter { counts[$0.id] != nil }.map { r in
            let n = counts[r.id]!
            return "  \(r.id) \(r.level.rawValue): \(r.title) (\(n.conforming) conforming, \(n.violating) violating)"
        }
        return "the requirements \(operation) cases judge (cases judging each as requirement or also):\n" + lines.joined(separator: "\n")
    }

    /// The cases among `cases` on which the reference answers for the reason `cause`, or for
    /// its first words (`match: path-literal, query-items, decoded`, then `match: path-literal,
    /// query-items`, ...) when none answers for all of it; all of `cases` when no case shares even
    /// its first word.
    static func sameCause(_ cause: String, among cases: [ConformanceCase], operation: OperationDefinition,
                          reference: SuiteDefinition.Handler) async -> [ConformanceCase] {
        var causes: [(ConformanceCase, [Substring])] = []
        for c in cases {
            if let output = try? await reference(c.input), let theirs = operation.expectation(output)?.cause {
                causes.append((c, words(theirs)))
            }
        }
        let ours = words(cause)
        for k in stride(from: ours.count, through: 1, by: -1) {
            let same = causes.filter { $0.1.count >= k && $0.1.prefix(k) == ours.prefix(k) }.map(\.0)
            if !same.isEmpty { return same }
        }
        return cases
    }

    /// A reason's words, in order: `no_match: url-port` is `no_match`, `url-port`.
    static func words(_ cause: String) -> [Substring] {
        cause.split(whereSeparator: { $0 == "," || $0 == ":" || $0 == " " })
    }

    /// What a case judges, and which way.
    struct Judged: Hashable {
        let requirement: String
        let polarity: ConformanceCase.Polarity
    }

    static func mostCommon<T: Hashable>(_ values: [T]) -> T? {
        var counts: [T: Int] = [:]
        for v in values { counts[v, default: 0] += 1 }
        // Ties go to the first in corpus order.
        return values.first { counts[$0] == counts.values.max() }
    }

    /// Appends the case to its file's `cases` list, then loads the corpus under `root` again:
    /// when the case is already there or the corpus has errors it did not have before, the file
    /// is put back and the problems are thrown.
    public func write(corpusRoot root: String) throws(Failure) {
        guard let data = FileManager.default.contents(atPath: file) else { throw Failure("cannot read \(file)") }
        let original = String(decoding: data, as: UTF8.self)
        let before = Corpus.load(from: root)
        if before.suites.contains(where: { $0.cases.contains { $0.id == caseID } }) {
            throw Failure("the corpus already has a case \(caseID)")
        }
        // The list's closing bracket is the last ']' before the file's closing brace.
        guard let brace = original.lastIndex(of: "}"), let bracket = original[..<brace].lastIndex(of: "]") else {
            throw Failure("\(file): no cases list to add to")
        }
        var text: [UInt8] = []
        JSONSerializer.write(caseJSON, to: &text, pretty: true, level: 2)
        var head = String(original[..<bracket])
        while head.last?.isWhitespace == true { head.removeLast() }
        let empty = head.hasSuffix("[")
        let updated = head + (empty ? "" : ",") + "\n    " + String(decoding: text, as: UTF8.self) + "\n  " + original[bracket...]
        do {
            try Data(updated.utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            throw Failure("cannot write \(file): \(error.localizedDescription)")
        }
        let after = Corpus.load(from: root)
        let known = Set(before.errors.map(\.description))
        let added = after.errors.filter { !known.contains($0.description) }
        if !added.isEmpty || !after.suites.contains(where: { $0.cases.contains { $0.id == caseID } }) {
            try? Data(original.utf8).write(to: URL(fileURLWithPath: file))
            throw Failure("the case would not be lint-clean, so \(file) is left as it was:\n" + added.map(\.description).joined(separator: "\n"))
        }
    }
}
