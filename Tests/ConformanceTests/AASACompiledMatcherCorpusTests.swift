import AASA
import Conformance
import LinkJSON
import Testing

/// The corpus's `aasa.match` cases through the compiled matcher (``AASAMatcher/match(url:domain:)``:
/// the shared path tables that `aasa reach`, the `aasa` fuzz target and the benches run).
///
/// `linkconform run` judges `aasa.match` with the rules tried one by one
/// (``AASA/match(_:domain:appID:url:)``), so without this test the corpus's hand-written edge
/// cases never reach the compiled program: 12 of the 39 AASA mutants the corpus left alive in
/// the mutation audit of 2026-11-29 were in it, in `AASAMatchProgram` and `AASADFA`
/// (docs/corpus-format.md). Here every case's expected `result` is asked of
/// the program at three table budgets (the default, small tables, and every rule on its own), and
/// of `explain`, which reads the rules the way `aasa.match` does.
struct AASACompiledMatcherCorpusTests {
    struct MatchCase: CustomTestStringConvertible, Sendable {
        let id: String
        let file: [UInt8]
        let domain, appID, url: String
        let expected: AASAMatchKind
        var testDescription: String { id }
    }

    static let cases: [MatchCase] = {
        let corpus = Corpus.load(from: TemporaryCorpus.repositoryCorpus)
        return corpus.suites.flatMap(\.cases).compactMap { c -> MatchCase? in
            guard c.operation == "aasa.match", let o = c.input.objectValue, let file = o["file"]?.stringValue,
                  let domain = o["domain"]?.stringValue, let appID = o["appID"]?.stringValue, let url = o["url"]?.stringValue,
                  let result = c.expect["result"]?.stringValue, let kind = AASAMatchKind(rawValue: result) else { return nil }
            return MatchCase(id: c.id, file: Array(file.utf8), domain: domain, appID: appID, url: url, expected: kind)
        }
    }()

    @Test func theCorpusHasItsMatchCases() {
        // The operation's cases in the committed corpus (350 on 2026-11-29): a loader or field
        // change that lost them would make the test below pass on nothing.
        #expect(Self.cases.count >= 300)
        #expect(Set(Self.cases.map(\.expected)) == Set(AASAMatchKind.allCases))
    }

    /// Each case's expected answer from the program at each budget, the same rule deciding as
    /// under `aasa.match`, and `explain` agreeing. A file the system refuses for its size
    /// matches nothing whatever its rules say (AASA-2): `aasa.match` decides that before reading,
    /// so those cases check only that answer.
    @Test func theCompiledProgramGivesEveryCaseItsExpectedAnswer() async {
        var compared = 0
        for (n, c) in Self.cases.enumerated() {
            // The debug build takes a while over the compile-budget cases: let other tests run.
            if n % 16 == 0 { await Task.yield() }
            let reference = AASA.match(c.file, domain: c.domain, appID: c.appID, url: c.url)
            #expect(reference.kind == c.expected, "\(c.id): aasa.match gives \(reference.kind.rawValue)")
            guard !AASA.isRefusedForSize(c.file) else { continue }
            guard let file = AASAFile.parse(c.file).0 else {
                #expect(c.expected == .noMatch, "\(c.id): an unreadable file matches nothing")
                continue
            }
            for budget in [AASADFA.sharedStateBudget, 6, 1] {
                let program = AASAMatcher(file: file, appID: c.appID, tableBudget: budget)
                let result = program.match(url: c.url, domain: c.domain)
                #expect(result.kind == c.expected, "\(c.id), table budget \(budget): the program gives \(result.kind.rawValue), the case expects \(c.expected.rawValue)")
                #expect(result == reference, "\(c.id), table budget \(budget): another rule decides (\(result.pattern ?? "-") against \(reference.pattern ?? "-"))")
                compared += 1
            }
            let explained = AASAMatcher(file: file, appID: c.appID).explain(url: c.url, domain: c.domain).result
            #expect(explained == reference, "\(c.id): explain gives \(explained.kind.rawValue)")
        }
        #expect(compared >= 3 * 250)
    }
}
