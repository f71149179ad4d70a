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
/// An input the reference finds nothing wrong with takes the requirement and polarity most of
/// the operation's cases have among those the reference answers for the same reason
/// (``ReferenceExpectation/cause``: `aasa.match`'s `no_match: url-port`, `ulc.handle`'s links
/// left alone), the reason's trailing words dropped one by one until some case shares it; an
/// operation that gives no reason makes it a `conforming` case of the requirement most of its
/// conforming cases judge.
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
    public static func prepare(_ finding: DifferentialFinding, corpus: Corpus) async throws(Failure) -> Promotion {
        guard let (suite, operation) = SuiteRegistry.operation(named: finding.operation), let reference = suite.reference[finding.operation] else {
            throw Failure("D\(finding.id): the operation \(finding.operation) is not one of this version's")
        }
        guard let suiteCorpus = corpus.suites.first(where: { $0.name == suite.name }) else {
            throw Failure("D\(finding.id): the corpus has no \(suite.name) suite loaded")
        }
        guard let input = try? JSONParser.parse(finding.minimisedInput), (try? operation.prepare(input)) != nil else {
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
            requirement = first.requirement
            polarity = .violating
        } else {
            // With a reason, the cases answered for the same reason decide the requirement and
            // the polarity (an `aasa.match` that the app must not open is a violating case,
            // though the reference reports no violation); without one, the conforming cases.
            let hasCause = expectation.cause != nil
            if let cause = expectation.cause {
                pool = await sameCause(cause, among: cases, operation: operation, reference: reference)
            } else {
                pool = cases.filter { $0.polarity == .conforming }
            }
            guard let common = mostCommon(pool.map { Judged(requirement: $0.requirement, polarity: $0.polarity) }) else {
                throw Failure("D\(finding.id): the reference finds nothing wrong with the input and no \(hasCause ? "" : "conforming ")\(finding.operation) case names a requirement to judge it by")
            }
            requirement = common.requirement
            polarity = common.polarity
            pool = pool.filter { $0.polarity == polarity }
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
        c.append("title", .string(HiddenCharacters.visibleText(title(finding))))
        c.append("operation", .string(finding.operation))
        c.append("requirement", .string(requirement))
        if !also.isEmpty { c.append("also", .array(also.map(JSONValue.string))) }
        c.append("polarity", .string(polarity.rawValue))
        c.append("provenance", ["kind": "regression",
                                "source": .string(HiddenCharacters.visibleText("differential fuzzing finding D\(finding.id): \(finding.implementation) \(finding.implementationVersion), signature '\(finding.signature)', first seen \(finding.firstSeen)"))])
        c.append("input", input)
        c.append("expect", expectation.expect)
        let answer = finding.implementationAnswer.count > 400 ? String(finding.implementationAnswer.prefix(397)) + "..." : finding.implementationAnswer
        c.append("note", .string(HiddenCharacters.visibleText("\(finding.implementation) answered \(answer)")))
        return Promotion(caseID: caseID, file: file, caseJSON: .object(c))
    }

    /// A first title, for people to improve: what the implementation did.
    static func title(_ finding: DifferentialFinding) -> String {
        let what: String
        switch finding.kind {
        case "errored": what = "reports an error"
        case "crashed": what = "crashes"
        case "timedOut": what = "does not answer in time"
        case "protocolError", "malformed": what = "breaks the adapter protocol"
        default: what = "disagrees with the reference on " + finding.fields.joined(separator: ", ")
        }
        return "\(finding.implementation) \(what) here (found by differential fuzzing)"
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
