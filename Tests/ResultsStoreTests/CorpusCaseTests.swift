import Conformance
import Foundation
import GRDB
import LinkJSON
@testable import ResultsStore
import Testing

/// What the corpus said about each case (title, place, input) is kept once per corpus
/// fingerprint and read with a run's results when a report asks for it.
struct CorpusCaseTests {
    static let corpus: Corpus = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return Corpus.load(from: repository.appendingPathComponent("Corpus").path, suites: ["ulc"])
    }()

    static func run(_ store: ResultsStore, fingerprint: String, cases: [ConformanceCase]) throws -> Int64 {
        let run = try store.beginRun(RunStart(corpusFingerprint: fingerprint, gitCommit: nil, toolVersion: "0.1.0", options: [:]))
        let impl = try store.register(ResultsStoreTests.info, run: run)
        try store.insert(cases.map { c in
            CaseResult(suite: c.suite, caseID: c.id, operation: c.operation, requirement: c.requirement, level: c.level, outcome: .fail,
                       nullWouldPass: false, actual: nil, expected: c.expect, message: nil, durationNanos: 1)
        }, run: run, implementation: impl)
        try store.finishRun(run, status: .completed)
        return run
    }

    @Test func casesAreKeptOncePerCorpusAndReadWithTheResults() throws {
        let corpus = Self.corpus
        try #require(corpus.errors.isEmpty)
        let cases = try #require(corpus.suites.first?.cases)
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        try store.recordCases(corpus: corpus)
        try store.recordCases(corpus: corpus)
        let rows = try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM corpusCase") }
        #expect(rows == corpus.caseCount, "a second run over the same corpus adds nothing")

        let large = try #require(cases.first { $0.encodedInput.count > ResultsStore.storedInputBytes }, "the ULC corpus has a generated input")
        let small = cases[0]
        let run = try Self.run(store, fingerprint: corpus.fingerprint, cases: [small, large])
        var read: [StoredResult] = []
        try store.forEachResult(run: run, ResultsStore.ResultFilter(withCases: true)) { read.append($0) }
        #expect(read.map(\.result.caseID) == [small.id, large.id])
        let first = try #require(read[0].corpusCase)
        #expect(first.title == small.title && first.file == small.file && first.line == small.line)
        #expect(try JSONParser.parse(first.input) == small.input)
        let cut = try #require(read[1].corpusCase?.input)
        #expect(cut.utf8.count <= ResultsStore.storedInputBytes && cut.hasSuffix(" [cut: \(large.encodedInput.count) bytes in all]"))

        try store.forEachResult(run: run) { #expect($0.corpusCase == nil, "only when asked for") }
        let other = try Self.run(store, fingerprint: "another corpus", cases: [small])
        try store.forEachResult(run: other, ResultsStore.ResultFilter(withCases: true)) {
            #expect($0.corpusCase == nil, "a run of another corpus does not borrow this one's cases")
        }
    }
}
