import Conformance
import Foundation
import GRDB
import LinkJSON
import Testing
@testable import ResultsStore

/// Large outputs are stored once by content and read back whole; small ones stay in their row.
struct SharedOutputTests {
    /// An output whose JSON text is well over the sharing threshold.
    static let large: JSONValue = ["kind": "ulc", "echo": .string(String(repeating: "a%2F", count: 2_000)), "n": 12]

    static func result(_ id: String, actual: JSONValue?) -> CaseResult {
        CaseResult(suite: "ulc", caseID: id, operation: "ulc.parse", requirement: "ULC-1", level: .must, outcome: .pass,
                   nullWouldPass: false, actual: actual, expected: ["kind": "ulc"], message: nil, durationNanos: 1)
    }

    func counts(_ store: ResultsStore) throws -> (outputs: Int, referencing: Int, inline: Int) {
        try store.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outputText")!,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM caseResult WHERE actualRef IS NOT NULL AND actual IS NULL")!,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM caseResult WHERE actualRef IS NULL AND actual IS NOT NULL")!)
        }
    }

    @Test func aRepeatedLargeOutputIsStoredOnceAndReadBackWhole() throws {
        #expect(Self.large.serialized().utf8.count >= CaseResultRow.sharedOutputBytes)
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        let run = try store.beginRun(ResultsStoreTests.start)
        let id = try store.register(ResultsStoreTests.info, run: run)
        let writer = ResultWriter(store: store, run: run, implementation: id)
        try writer.append([Self.result("a", actual: Self.large), Self.result("b", actual: ["kind": "ulc"]), Self.result("c", actual: nil)])
        try writer.append([Self.result("d", actual: Self.large)])
        try writer.finish()
        let read = try store.results(run: run).map(\.result)
        #expect(read.map(\.caseID) == ["a", "b", "c", "d"])
        #expect(read[0].actual == Self.large && read[3].actual == Self.large)
        #expect(read[1].actual == ["kind": "ulc"] && read[2].actual == nil)
        let (outputs, referencing, inline) = try counts(store)
        #expect(outputs == 1 && referencing == 2 && inline == 1)
    }

    @Test func aLaterRunReusesTheOutputAnEarlierOneStored() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        for _ in 0..<2 {
            let run = try store.beginRun(ResultsStoreTests.start)
            let id = try store.register(ResultsStoreTests.info, run: run)
            try store.insert([Self.result("a", actual: Self.large)], run: run, implementation: id)
            #expect(try store.results(run: run).first?.result.actual == Self.large)
        }
        #expect(try counts(store).outputs == 1)
        // The reports see the same text the JSON had, byte for byte.
        let text = try store.pool.read { db in try String.fetchOne(db, sql: "SELECT text FROM outputText")! }
        #expect(text == Self.large.serialized())
    }

    @Test func aReplacedResultKeepsOnlyItsNewOutput() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        let run = try store.beginRun(ResultsStoreTests.start)
        let id = try store.register(ResultsStoreTests.info, run: run)
        try store.insert([Self.result("a", actual: Self.large)], run: run, implementation: id)
        try store.insert([Self.result("a", actual: ["kind": "invalid"])], run: run, implementation: id)   // re-judged
        let read = try store.results(run: run)
        #expect(read.count == 1 && read[0].result.actual == ["kind": "invalid"])
    }
}
