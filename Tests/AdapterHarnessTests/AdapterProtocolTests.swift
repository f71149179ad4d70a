import LinkJSON
import Testing
import Conformance
@testable import AdapterHarness

/// The harness writes `run` requests straight into bytes; they must be the same text as the
/// request built as a JSON value and serialized, whatever the strings hold.
struct AdapterProtocolTests {
    static let awkward = ["ulc/plain", "quote\"back\\slash", "tab\tnewline\ncr\r", "\u{0}\u{1F}\u{7F}", "é€😀", ""]

    @Test(arguments: awkward)
    func writtenRunRequestIsTheSerializedOne(text: String) throws {
        let input: JSONValue = ["link": .string("https://a.example/l?x=" + text), "n": 3, "list": [.string(text), .null]]
        for encoded in [nil, Array(input.serialized().utf8)] {
            let request = Request(caseID: "case/" + text, operation: "op." + text, input: input, encodedInput: encoded)
            var line: [UInt8] = []
            AdapterProtocol.writeRunRequest(seq: 41, request, to: &line)
            #expect(line == Array((AdapterProtocol.runRequest(seq: 41, request).serialized() + "\n").utf8))
            // And the adapter side reads back what was sent.
            guard case .run(let seq, let read) = AdapterProtocol.readRequest(try JSONParser.parse(Array(line.dropLast()))) else {
                Issue.record("not read as a run request")
                continue
            }
            #expect(seq == 41 && read.caseID == request.caseID && read.operation == request.operation && read.input == input)
        }
    }

    /// An adapter writes its answers straight into bytes too: the same text as the answer built
    /// as a JSON value and serialized, for every kind of answer.
    @Test(arguments: awkward)
    func writtenRunResponseIsTheSerializedOne(text: String) {
        let answers: [Answer] = [.output(["kind": .string(text), "list": [.string(text), 2.5, .null]]), .output(.null),
                                 .skipped(reason: text), .errored(message: text), .errored(message: text, detail: ["at": .string(text)]),
                                 .crashed(message: text), .timedOut(message: text), .protocolError(message: text), .notRun(reason: text)]
        for seq: JSONValue in [41, .string(text), .null] {
            for answer in answers {
                var line: [UInt8] = []
                AdapterProtocol.writeRunResponse(seq: seq, answer, to: &line)
                #expect(line == Array((AdapterProtocol.runResponse(seq: seq, answer).serialized() + "\n").utf8))
            }
        }
    }

}
