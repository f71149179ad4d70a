import Testing
@testable import Conformance

/// An expected-failures file read against the corpus a run loaded.
struct ExpectedFailuresTests {
    /// `run --suite ulc` with a manifest whose list also names cases of other suites: those are
    /// not stale (their suite was not loaded); an id of a loaded suite that has no such case, or
    /// of no suite at all, is.
    @Test func linesOfSuitesNotLoadedAreNotCalledUnknown() throws {
        let corpus = Corpus.load(from: TemporaryCorpus.repositoryCorpus, suites: ["ulc"])
        #expect(corpus.errors.isEmpty, "\(corpus.errors)")
        let real = try #require(corpus.suites.first?.cases.first?.id)
        let list = ExpectedFailures(path: "expected-failures.txt", text: """
            \(real)  # a case of the loaded suite
            xcallback/build/any-case  # a suite this run did not load
            aasa/match/no-such-case-either  # the same
            ulc/no-such-topic/no-such-case  # stale: ulc is loaded and has no such case
            nosuite/a/b  # stale: no suite is called that
            """)
        #expect(list.problems.isEmpty, "\(list.problems)")
        #expect(list.unknown(in: corpus).map(\.caseID) == ["ulc/no-such-topic/no-such-case", "nosuite/a/b"])
        let everySuite = Corpus.load(from: TemporaryCorpus.repositoryCorpus)
        #expect(list.unknown(in: everySuite).map(\.caseID) == ["xcallback/build/any-case", "aasa/match/no-such-case-either",
                                                              "ulc/no-such-topic/no-such-case", "nosuite/a/b"])
    }

    /// In a `--strict` run an unlisted `nonStrict` fails it, so it gets the hint an unlisted
    /// `fail` gets; without `--strict` it does not (it fails nothing).
    @Test func anUnlistedNonStrictGetsTheHintOnlyWhenStrict() {
        var list = ExpectedFailures(path: "x.txt", text: "ulc/a/listed  # known\n")
        #expect(list.apply(to: .nonStrict, caseID: "ulc/a/other", message: "m") == (.nonStrict, "m"))
        #expect(list.apply(to: .fail, caseID: "ulc/a/other", message: "m").1 == "m; not in x.txt: add 'ulc/a/other  # why' if this failure is accepted")
        list.strict = true
        #expect(list.apply(to: .nonStrict, caseID: "ulc/a/other", message: "m").1
                == "m; not in x.txt: add 'ulc/a/other  # why' if this failure is accepted")
        #expect(list.apply(to: .nonStrict, caseID: "ulc/a/listed", message: "m").0 == .expectedFail)
    }
}
