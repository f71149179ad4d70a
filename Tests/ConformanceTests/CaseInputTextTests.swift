import Testing
@testable import Conformance

/// Every case keeps its input's JSON text from load time (adapters send it as it is).
struct CaseInputTextTests {
    @Test func casesCarryTheirInputAsText() throws {
        let corpus = Corpus.load(from: TemporaryCorpus.repositoryCorpus)
        try #require(corpus.caseCount > 0, "the loops below check nothing on an empty corpus")
        for c in corpus.suites.flatMap(\.cases) {
            #expect(c.encodedInput == Array(c.input.serialized().utf8), "\(c.id)")
        }
        // Renamed copies (a repeated corpus) carry their original's.
        let originals = Dictionary(uniqueKeysWithValues: corpus.suites.flatMap(\.cases).map { ($0.id, $0.encodedInput) })
        let copies = corpus.repeated(to: corpus.caseCount * 2).suites.flatMap(\.cases).filter { $0.id.hasSuffix("#2") }
        #expect(copies.count == corpus.caseCount)
        for copy in copies {
            #expect(copy.encodedInput == originals[String(copy.id.dropLast(2))])
        }
    }
}
