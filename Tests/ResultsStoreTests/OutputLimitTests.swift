import Conformance
import Foundation
import LinkJSON
import Testing
@testable import ResultsStore

/// What the store keeps of a large output: an object that says it was cut, with the length, the
/// SHA-256 and the beginning of the output's JSON text; a result's outcome, judged before, stays.
struct OutputLimitTests {
    static func result(_ id: String, actual: JSONValue) -> CaseResult {
        CaseResult(suite: "ulc", caseID: id, operation: "ulc.parse", requirement: "ULC-1", level: .must, outcome: .fail,
                   nullWouldPass: false, actual: actual, expected: ["kind": "ulc"], message: "m", durationNanos: 1)
    }

    @Test func anOutputOverTheLimitIsStoredCutWithItsLengthAndDigest() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        let run = try store.beginRun(ResultsStoreTests.start)
        let id = try store.register(ResultsStoreTests.info, run: run)
        let large: JSONValue = ["kind": "ulc", "text": .string(String(repeating: "\u{0}é🏳️‍🌈a", count: ResultLimits.outputBytes / 4))]
        let small: JSONValue = ["kind": "ulc", "text": .string(String(repeating: "a", count: ResultLimits.outputBytes - 100))]
        try store.insert([Self.result("large", actual: large)], run: run, implementation: id)
        let writer = ResultWriter(store: store, run: run, implementation: id)
        try writer.append([Self.result("large, written", actual: large), Self.result("small", actual: small)])
        try writer.finish()

        let stored = try store.results(run: run).map(\.result)
        #expect(stored.map(\.outcome) == [.fail, .fail, .fail])
        #expect(stored[2].actual == small, "an output within the limit is kept whole")
        let text = large.serialized()
        for result in stored.prefix(2) {
            let kept = try #require(result.actual)
            #expect(kept["$linkconform"] == "output-cut")
            #expect(kept["limitBytes"]?.intValue == ResultLimits.outputBytes)
            #expect(kept["bytes"]?.intValue == text.utf8.count)
            #expect(kept["sha256"]?.stringValue == SHA256.hex(utf8: text))
            let head = try #require(kept["head"]?.stringValue)
            let headIsTheBeginning = text.utf8.starts(with: head.utf8) && head.utf8.count <= ResultLimits.headBytes
                && head.utf8.count > ResultLimits.headBytes - 8
            #expect(headIsTheBeginning)
            #expect(kept.serialized().utf8.count < 2 * ResultLimits.headBytes)
        }
    }
}
